import { ApiError, api, notifySuccess, unwrap } from '@avatar-studio/shared';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { useAuthPaths } from './paths';
import { EMAIL_PATTERN } from './validation';

export default function Recovery() {
  const { t } = useTranslation('shell');
  const paths = useAuthPaths();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The recovery email is lowercased and trimmed.
    const address = email.trim().toLowerCase();
    setFailure(null);
    setSent(false);
    if (!EMAIL_PATTERN.test(address)) {
      setFieldError(t('auth.errors.email'));
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      await unwrap(api.POST('/api/auth/recovery', { body: { email: address } }));
      setSent(true);
      notifySuccess(t('auth.recovery.sent'));
    } catch (err) {
      setFailure(
        err instanceof ApiError && err.status === 404
          ? t('auth.recovery.notFound')
          : t('auth.recovery.failed'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t('auth.recovery.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('auth.recovery.intro')}
          </Text>
          {failure ? (
            <Alert color="red" role="alert" variant="light">
              {failure}
            </Alert>
          ) : null}
          {sent ? (
            <Alert color="green" role="status" variant="light">
              {t('auth.recovery.sent')}
            </Alert>
          ) : null}
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            required
            value={email}
            error={fieldError}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy} fullWidth>
            {t('auth.recovery.submit')}
          </Button>
          <Anchor component={Link} to={paths.login} size="sm" ta="center">
            {t('auth.recovery.back')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
