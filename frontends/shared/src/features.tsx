/**
 * Feature flags in the browser: the contracts declaration (which screens and menu entries each flag gates)
 * read against the app config. The shell uses these to hide a switched-off feature's menus and to show
 * "switched off" on its screens; a screen uses useAppConfig().feature(flag) for its own parts.
 */
import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import {
  disabledFeatureOfScreen,
  type FeatureDeclaration,
  type FlagReader,
} from '@avatar-studio/contracts/feature-flags';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AppConfig } from './appconfig/AppConfigProvider';

export {
  FEATURES,
  FEATURE_FLAGS,
  FEATURE_BY_FLAG,
  isFeatureOn,
  isFeatureFlag,
  pathUnder,
  disabledFeatureOfScreen,
} from '@avatar-studio/contracts/feature-flags';
export type { FeatureDeclaration, FeatureFlag, FlagReader } from '@avatar-studio/contracts/feature-flags';

/** The app config as the declaration's flag reader. */
export function flagReader(config: Pick<AppConfig, 'get'>): FlagReader {
  return (flag) => config.get(flag);
}

/** The switched-off feature whose screen `pathname` is, or null. */
export function switchedOffScreen(
  pathname: string,
  config: Pick<AppConfig, 'get'>,
): FeatureDeclaration | null {
  return disabledFeatureOfScreen(pathname, flagReader(config));
}

/** What a bookmarked address of a switched-off feature shows instead of the feature (never "Page not found"). */
export function FeatureSwitchedOff({ feature }: { feature: FeatureDeclaration }) {
  const { t, i18n } = useTranslation('common');
  const name = feature.name[i18n.language === 'es' ? 'es' : 'en'];
  return (
    <Center mih={240}>
      <Stack align="center" gap="xs" maw={520} ta="center">
        <Title order={2} size="h3">
          {t('featureOff.title')}
        </Title>
        <Text>{t('featureOff.body', { name })}</Text>
        <Anchor component={Link} to="/">
          {t('home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
