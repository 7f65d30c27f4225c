import { ApiError, api, notifySuccess, unwrap } from '@avatar-studio/shared';
import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { PasswordField } from './PasswordField';
import { useAuthPaths } from './paths';
import { PASSWORD_MIN } from './validation';

/** /auth/reset-password?token=: the page the reset e-mail links to. */
export default function ResetPassword() {
  const { t } = useTranslation('shell');
  const paths = useAuthPaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { password: '', confirm_password: '' },
    validate: {
      password: (v) => (v.length >= PASSWORD_MIN ? null : t('auth.errors.password')),
      confirm_password: (v, values) => (v === values.password ? null : t('auth.errors.confirm')),
    },
  });

  const submit = form.onSubmit(async ({ password }) => {
    setFailure(null);
    setBusy(true);
    try {
      await unwrap(api.POST('/api/auth/reset-password', { body: { token, password } }));
      notifySuccess(t('auth.reset.done'));
      navigate(paths.login, { replace: true });
    } catch (err) {
      setFailure(err instanceof ApiError && err.hasServerMessage ? err.message : t('auth.errors.generic'));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthLayout title={t('auth.reset.title')}>
      {token ? (
        <form onSubmit={submit} noValidate>
          <Stack>
            {failure ? (
              <Alert color="red" role="alert" variant="light">
                {failure}
              </Alert>
            ) : null}
            <PasswordField
              label={t('auth.reset.newPassword')}
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            <PasswordField
              label={t('auth.confirmPassword')}
              autoComplete="new-password"
              required
              {...form.getInputProps('confirm_password')}
            />
            <Button type="submit" loading={busy} fullWidth>
              {t('auth.reset.submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Alert color="red" role="alert" variant="light">
            {t('auth.reset.missingToken')}
          </Alert>
          <Anchor component={Link} to={paths.recovery}>
            {t('auth.recovery.title')}
          </Anchor>
        </Stack>
      )}
    </AuthLayout>
  );
}
