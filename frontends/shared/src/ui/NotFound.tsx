import { Anchor, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The catch-all route of a remote. */
export function NotFound() {
  const { t } = useTranslation('common');
  return (
    <Center mih={240}>
      <Stack align="center" gap="xs">
        <Text size="lg">{t('notFound')}</Text>
        <Anchor component={Link} to="/">
          {t('home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
