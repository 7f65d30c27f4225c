import { ApiError, api, notifyError, unwrap, useAppConfig, useSession } from '@avatar-studio/shared';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { PasswordField } from './PasswordField';
import { useAuthPaths } from './paths';
import { TwoFactorStep } from './TwoFactorStep';

export default function Login() {
  const { t } = useTranslation('shell');
  const { signIn } = useSession();
  const config = useAppConfig();
  const paths = useAuthPaths();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Set when the password was right and the account asks for an authenticator code next.
  const [challenge, setChallenge] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => (v.trim() ? null : t('auth.errors.email')),
      password: (v) => (v ? null : t('auth.errors.password')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setBusy(true);
    try {
      const answer = await unwrap(
        api.POST('/api/auth/login', {
          body: { email: values.email.trim().toLowerCase(), password: values.password },
        }),
      );
      if ('two_factor_required' in answer) {
        setChallenge(answer.challenge_token);
        return;
      }
      // The signed-in routes then leave the login path (for the page first asked for, or /).
      await signIn(answer);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 400))
        setFailure(t('auth.login.failed'));
      else if (err instanceof ApiError && err.status === 429) setFailure(t('auth.login.locked'));
      else if (err instanceof ApiError && err.hasServerMessage) setFailure(err.message);
      else notifyError(err instanceof ApiError ? err : t('auth.errors.generic'));
    } finally {
      setBusy(false);
    }
  });

  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge}
        onRestart={() => {
          setChallenge(null);
          form.setFieldValue('password', '');
        }}
      />
    );
  }

  return (
    <AuthLayout title={t('auth.login.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure ? (
            <Alert color="red" role="alert" variant="light">
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordField
            label={t('auth.password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to={paths.recovery} size="sm">
              {t('auth.login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" loading={busy} fullWidth>
            {t('auth.login.submit')}
          </Button>
          {config.feature('signup_enabled') ? (
            <Text size="sm" ta="center">
              {t('auth.login.noAccount')}{' '}
              <Anchor component={Link} to={paths.signup}>
                {t('auth.login.createAccount')}
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </form>
    </AuthLayout>
  );
}
