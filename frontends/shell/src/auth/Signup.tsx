import { ApiError, api, notifyError, unwrap, useSession } from '@avatar-studio/shared';
import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthLayout } from './AuthLayout';
import { PasswordField } from './PasswordField';
import { useAuthPaths } from './paths';
import { SIGNUP_REASONS, shapePhone, signupReason, validateSignup, type SignupValues } from './validation';

const REASON_KEYS: Record<(typeof SIGNUP_REASONS)[number], string> = {
  Recommendation: 'auth.reasons.recommendation',
  'Facebook Ad': 'auth.reasons.facebook',
  'Instagram Ad': 'auth.reasons.instagram',
  Other: 'auth.reasons.other',
};

export default function Signup() {
  const { t } = useTranslation('shell');
  const { signIn } = useSession();
  const paths = useAuthPaths();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<SignupValues>({
    initialValues: {
      name: '',
      last_name: '',
      email: '',
      password: '',
      confirm_password: '',
      phone: '',
      signup_reason: '',
      signup_reason_other: '',
    },
    validate: (values) =>
      Object.fromEntries(Object.entries(validateSignup(values)).map(([field, key]) => [field, t(key)])),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setBusy(true);
    try {
      const pair = await unwrap(
        api.POST('/api/auth/signup', {
          body: {
            name: values.name.trim(),
            last_name: values.last_name.trim(),
            email: values.email.trim().toLowerCase(),
            password: values.password,
            confirm_password: values.confirm_password,
            phone: shapePhone(values.phone),
            signup_reason: signupReason(values) || null,
          },
        }),
      );
      // The signed-in routes then leave the login path (for the page first asked for, or /).
      await signIn(pair);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 412 || err.code === 'email_exists')) {
        setFailure(t('auth.signup.exists'));
      } else if (err instanceof ApiError && err.status === 400 && err.errors?.length) {
        // The server's per-field messages (the spec's wording) go next to their fields.
        for (const { field, message } of err.errors) form.setFieldError(field, message);
      } else if (err instanceof ApiError && err.hasServerMessage) {
        setFailure(err.message);
      } else {
        notifyError(err instanceof ApiError ? err : t('auth.errors.generic'));
      }
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthLayout title={t('auth.signup.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure ? (
            <Alert color="red" role="alert" variant="light">
              {failure}
            </Alert>
          ) : null}
          <Group grow align="flex-start">
            <TextInput
              label={t('auth.name')}
              autoComplete="given-name"
              required
              {...form.getInputProps('name')}
            />
            <TextInput
              label={t('auth.lastName')}
              autoComplete="family-name"
              required
              {...form.getInputProps('last_name')}
            />
          </Group>
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordField
            label={t('auth.password')}
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
          <TextInput
            label={t('auth.phone')}
            type="tel"
            autoComplete="tel-national"
            required
            {...form.getInputProps('phone')}
          />
          <Select
            label={t('auth.signupReason')}
            data={SIGNUP_REASONS.map((value) => ({ value, label: t(REASON_KEYS[value]) }))}
            clearable
            allowDeselect
            {...form.getInputProps('signup_reason')}
            onChange={(value) => form.setFieldValue('signup_reason', value ?? '')}
          />
          {form.values.signup_reason === 'Other' ? (
            <TextInput
              label={t('auth.signupReasonOther')}
              required
              maxLength={200}
              {...form.getInputProps('signup_reason_other')}
            />
          ) : null}
          <Button type="submit" loading={busy} fullWidth mt="xs">
            {t('auth.signup.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.signup.haveAccount')}{' '}
            <Anchor component={Link} to={paths.login}>
              {t('auth.signup.login')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
