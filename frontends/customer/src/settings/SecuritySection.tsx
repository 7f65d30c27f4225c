import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconLogout, IconMailCheck, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError, notifyError, notifySuccess, useSession, type User } from '@avatar-studio/shared';
import { useDeleteAccount, useResendVerification, useSignOutEverywhere } from './api';

/**
 * Account security in Settings: the email verification notice with "send the link again", "Sign out
 * everywhere" (every session and the API key end), and deleting the account, which asks for the password.
 */
export function SecuritySection({ user }: { user: User }) {
  const { t } = useTranslation('customer');
  const { signOut } = useSession();
  const [confirming, setConfirming] = useState<'logoutAll' | 'delete' | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  // The server refused: a subscription that still renews must be cancelled first.
  const [renewing, setRenewing] = useState(false);

  const close = () => {
    setConfirming(null);
    setPassword('');
    setPasswordError(null);
    setRenewing(false);
  };

  const resend = useResendVerification(() =>
    notifySuccess(t('settings.security.verifySent', { email: user.email })),
  );
  // Every session ended, this one too: leave for the sign-in page.
  const logoutAll = useSignOutEverywhere(() => signOut('/'));
  const remove = useDeleteAccount(
    () => signOut('/'),
    (error) => {
      if (error instanceof ApiError && error.code === 'password_incorrect') {
        setPasswordError(t('settings.reauth.wrong'));
      } else if (error instanceof ApiError && error.code === 'subscription_renewing') {
        setRenewing(true);
      } else notifyError(error);
    },
  );

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('settings.security.title')}
      </Title>
      {!user.email_verified ? (
        <Alert
          color="yellow"
          // The theme's text colour for the title: yellow on light yellow reaches 1.7:1.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
          variant="light"
          icon={<IconMailCheck aria-hidden />}
          title={t('settings.security.unverifiedTitle')}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('settings.security.unverifiedBody', { email: user.email })}</Text>
            <Button size="xs" variant="light" loading={resend.isPending} onClick={() => resend.mutate()}>
              {t('settings.security.resend')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('settings.security.logoutAllDescription')}
      </Text>
      <Group>
        <Button
          variant="outline"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => setConfirming('logoutAll')}
        >
          {t('settings.security.logoutAll')}
        </Button>
        <Button
          variant="outline"
          // Red 9 keeps 4.5:1 contrast on the page (red 6 reaches 3.3:1).
          color="red.9"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => setConfirming('delete')}
        >
          {t('settings.security.delete')}
        </Button>
      </Group>

      <Modal
        opened={confirming === 'logoutAll'}
        onClose={close}
        title={t('settings.security.logoutAllTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('settings.security.logoutAllBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('settings.apiKey.cancel')}
            </Button>
            <Button loading={logoutAll.isPending} onClick={() => logoutAll.mutate()}>
              {t('settings.security.logoutAll')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={confirming === 'delete'}
        onClose={close}
        title={t('settings.security.deleteTitle')}
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!password) setPasswordError(t('settings.reauth.required'));
            else remove.mutate(password);
          }}
          noValidate
        >
          <Stack>
            <Text size="sm">{t('settings.security.deleteBody')}</Text>
            {renewing ? (
              <Alert color="red" variant="light" role="alert">
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{t('settings.security.deleteRenewing')}</Text>
                  <Anchor component={Link} to="/billing" size="sm" onClick={close}>
                    {t('settings.security.goToBilling')}
                  </Anchor>
                </Stack>
              </Alert>
            ) : null}
            <PasswordInput
              label={t('settings.reauth.label')}
              description={t('settings.reauth.description')}
              autoComplete="current-password"
              value={password}
              error={passwordError}
              onChange={(event) => {
                setPasswordError(null);
                setPassword(event.currentTarget.value);
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('settings.apiKey.cancel')}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending}>
                {t('settings.security.delete')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
