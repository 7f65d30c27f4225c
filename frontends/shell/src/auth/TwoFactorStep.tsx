import { ApiError, api, notifyError, unwrap, useSession } from '@avatar-studio/shared';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout';

const CODE = /^\d{6}$/;

/**
 * The second step of a sign-in with two-factor on: the 6-digit code of the authenticator app, sent with the
 * challenge the password step answered. An expired challenge sends the person back to the password.
 */
export function TwoFactorStep({ challenge, onRestart }: { challenge: string; onRestart: () => void }) {
  const { t } = useTranslation('shell');
  const { signIn } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (v) => (CODE.test(v.replace(/\s+/g, '')) ? null : t('auth.twoFactor.invalidCode')) },
  });

  const submit = form.onSubmit(async ({ code }) => {
    setFailure(null);
    setBusy(true);
    try {
      const pair = await unwrap(
        api.POST('/api/auth/login/2fa', {
          body: { challenge_token: challenge, code: code.replace(/\s+/g, '') },
        }),
      );
      await signIn(pair);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_two_factor_code') {
        setFailure(t('auth.twoFactor.wrongCode'));
        form.setFieldValue('code', '');
      } else if (err instanceof ApiError && err.code === 'two_factor_code_used') {
        setFailure(t('auth.twoFactor.usedCode'));
        form.setFieldValue('code', '');
      } else if (err instanceof ApiError && err.code === 'invalid_two_factor_challenge') {
        setFailure(t('auth.twoFactor.expired'));
      } else if (err instanceof ApiError && err.status === 429) setFailure(t('auth.login.locked'));
      else notifyError(err instanceof ApiError ? err : t('auth.errors.generic'));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthLayout title={t('auth.twoFactor.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('auth.twoFactor.intro')}</Text>
          {failure ? (
            <Alert color="red" role="alert" variant="light">
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label={t('auth.twoFactor.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            data-autofocus
            {...form.getInputProps('code')}
          />
          <Button type="submit" loading={busy} fullWidth>
            {t('auth.twoFactor.submit')}
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            {t('auth.twoFactor.back')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
