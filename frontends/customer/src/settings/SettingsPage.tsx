import {
  Anchor,
  Button,
  Container,
  Divider,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  LANGUAGES,
  currentLanguage,
  PageLoader,
  SESSION_USER_QUERY_KEY,
  notifySuccess,
  setLanguage,
  useAppConfig,
  useSession,
  type Language,
  type User,
} from '@avatar-studio/shared';
import { ApiKeySection } from './ApiKeySection';
import { DefaultAvatarSection } from './DefaultAvatarSection';
import { SecuritySection } from './SecuritySection';
import { TwoFactorSection } from './TwoFactorSection';
import { useSaveSettings } from './api';

interface SettingsValues {
  zappier_webhook_url: string;
  lang: Language;
  manual_mode: boolean;
  dark_mode: boolean;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Settings: API key, integration webhook URL, language, manual mode, dark mode, Save, a tutorial link. */
export function SettingsPage() {
  const { user } = useSession();
  if (!user) return <PageLoader />;
  return <SettingsForm key={user.user_id} user={user} />;
}

function SettingsForm({ user }: { user: User }) {
  const { t } = useTranslation('customer');
  const queryClient = useQueryClient();
  const { setUser } = useSession();
  // The dark mode the server has; the switch previews another one until Save (reverted if the page is left).
  const savedDarkMode = useRef(user.dark_mode);
  const superFetchOn = useAppConfig().feature('super_fetch');

  const form = useForm<SettingsValues>({
    initialValues: {
      zappier_webhook_url: user.zappier_webhook_url ?? '',
      // The language in use on this device (stored locally), which Save stores as user.lang.
      lang: currentLanguage(),
      manual_mode: Boolean(user.manual_mode),
      dark_mode: Boolean(user.dark_mode),
    },
    validate: {
      zappier_webhook_url: (value) =>
        value.trim() && !isHttpUrl(value.trim()) ? t('settings.webhook.invalid') : null,
    },
  });

  useEffect(
    () => () => {
      const cached = queryClient.getQueryData<User>(SESSION_USER_QUERY_KEY);
      if (cached && cached.dark_mode !== savedDarkMode.current) {
        queryClient.setQueryData<User>(SESSION_USER_QUERY_KEY, {
          ...cached,
          dark_mode: savedDarkMode.current,
        });
      }
    },
    [queryClient],
  );

  const save = useSaveSettings((saved) => {
    savedDarkMode.current = saved.dark_mode;
    setUser(saved);
    form.resetDirty();
    notifySuccess(t('settings.saved'));
  });
  const saveValues = (values: SettingsValues) =>
    save.mutate({
      zappier_webhook_url: values.zappier_webhook_url.trim() || null,
      lang: values.lang,
      manual_mode: values.manual_mode,
      dark_mode: values.dark_mode,
    });

  // Dark mode applies at once: the session's user (which picks the theme) follows the switch, also when the
  // user is re-read meanwhile (e.g. after a new API key).
  const previewDark = form.values.dark_mode;
  useEffect(() => {
    const cached = queryClient.getQueryData<User>(SESSION_USER_QUERY_KEY);
    if (cached && cached.dark_mode !== previewDark) setUser({ ...cached, dark_mode: previewDark });
  }, [queryClient, setUser, previewDark, user.dark_mode]);

  const switchLanguage = (value: string) => {
    const lang: Language = value === 'es' ? 'es' : 'en';
    form.setFieldValue('lang', lang);
    void setLanguage(lang);
  };

  return (
    <Container size="sm" py="lg">
      <Title order={1} size="h2" mb="lg">
        {t('settings.title')}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="lg">
          {user.staff ? (
            <>
              <TwoFactorSection user={user} />
              <Divider />
            </>
          ) : null}
          <ApiKeySection user={user} />
          <Divider />
          {superFetchOn && (
            <>
              <DefaultAvatarSection user={user} />
              <Divider />
            </>
          )}
          <form onSubmit={form.onSubmit(saveValues)} noValidate>
            <Stack gap="lg">
              <TextInput
                label={t('settings.webhook.label')}
                description={t('settings.webhook.description')}
                placeholder="https://hooks.zapier.com/..."
                type="url"
                {...form.getInputProps('zappier_webhook_url')}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500} id="settings-language-label">
                  {t('settings.language.label')}
                </Text>
                <SegmentedControl
                  aria-labelledby="settings-language-label"
                  value={form.values.lang}
                  onChange={switchLanguage}
                  data={LANGUAGES.map((language) => ({ value: language.code, label: language.label }))}
                  style={{ alignSelf: 'flex-start' }}
                />
              </Stack>
              <Switch
                label={t('settings.manualMode.label')}
                {...form.getInputProps('manual_mode', { type: 'checkbox' })}
              />
              <Switch
                label={t('settings.darkMode.label')}
                checked={form.values.dark_mode}
                onChange={(event) => form.setFieldValue('dark_mode', event.currentTarget.checked)}
              />
              <Group justify="space-between">
                <Anchor component={Link} to="/tutorials/1">
                  <Group gap={6} component="span">
                    <IconPlayerPlay size={16} aria-hidden />
                    {t('settings.tutorial')}
                  </Group>
                </Anchor>
                <Button
                  type="submit"
                  loading={save.isPending}
                  leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                >
                  {t('settings.save')}
                </Button>
              </Group>
            </Stack>
          </form>
          <Divider />
          <SecuritySection user={user} />
        </Stack>
      </Paper>
    </Container>
  );
}
