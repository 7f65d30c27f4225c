import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, notifyError, notifySuccess, useSession, type User } from '@avatar-studio/shared';
import { useDisableTwoFactor, useEnableTwoFactor, useStartTwoFactor } from './api';

const CODE = /^\d{6}$/;

/**
 * Staff only: two-factor sign-in with an authenticator app. Set-up shows the key to type in (and the otpauth
 * link), then asks for a code to prove the app has it. Turning it off asks for the password and a code.
 */
export function TwoFactorSection({ user }: { user: User }) {
  const { t } = useTranslation('customer');
  const { reloadUser } = useSession();
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const reset = () => {
    setCode('');
    setCodeError(null);
    setPassword('');
    setPasswordError(null);
  };

  const start = useStartTwoFactor((answer) => {
    reset();
    setSetup(answer);
  });
  const enable = useEnableTwoFactor(
    async () => {
      setSetup(null);
      reset();
      notifySuccess(t('settings.twoFactor.enabled'));
      await reloadUser();
    },
    (error) => {
      if (error instanceof ApiError && error.code === 'invalid_two_factor_code') {
        setCodeError(t('settings.twoFactor.wrongCode'));
      } else notifyError(error);
    },
  );
  const disable = useDisableTwoFactor(
    async () => {
      setDisabling(false);
      reset();
      notifySuccess(t('settings.twoFactor.disabled'));
      await reloadUser();
    },
    (error) => {
      if (error instanceof ApiError && error.code === 'password_incorrect') {
        setPasswordError(t('settings.reauth.wrong'));
      } else if (error instanceof ApiError && error.code === 'invalid_two_factor_code') {
        setCodeError(t('settings.twoFactor.wrongCode'));
      } else if (error instanceof ApiError && error.code === 'two_factor_code_used') {
        setCodeError(t('settings.twoFactor.usedCode'));
      } else notifyError(error);
    },
  );

  const checkCode = (): string | null => {
    const value = code.replace(/\s+/g, '');
    if (CODE.test(value)) return value;
    setCodeError(t('settings.twoFactor.invalidCode'));
    return null;
  };

  const codeInput = (
    <TextInput
      label={t('settings.twoFactor.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      value={code}
      error={codeError}
      onChange={(event) => {
        setCodeError(null);
        setCode(event.currentTarget.value);
      }}
    />
  );

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Title order={3} size="h4">
          {t('settings.twoFactor.title')}
        </Title>
        <Badge color={user.two_factor_enabled ? 'green' : 'gray'} variant="light">
          {user.two_factor_enabled ? t('settings.twoFactor.on') : t('settings.twoFactor.off')}
        </Badge>
      </Group>
      {user.two_factor_required ? (
        <Alert color="red" variant="light" icon={<IconShieldLock aria-hidden />} role="alert">
          {t('settings.twoFactor.required')}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('settings.twoFactor.description')}
      </Text>

      {setup ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const value = checkCode();
            if (value) enable.mutate(value);
          }}
          noValidate
        >
          <Stack gap="xs">
            <Text size="sm">{t('settings.twoFactor.step1')}</Text>
            <Code block data-testid="totp-secret" aria-label={t('settings.twoFactor.key')}>
              {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
            </Code>
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {t('settings.twoFactor.uri')}: {setup.otpauth_uri}
            </Text>
            <Text size="sm">{t('settings.twoFactor.step2')}</Text>
            {codeInput}
            <Group>
              <Button type="submit" loading={enable.isPending}>
                {t('settings.twoFactor.confirm')}
              </Button>
              <Button variant="default" onClick={() => setSetup(null)}>
                {t('settings.apiKey.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group>
          {user.two_factor_enabled ? (
            <Button variant="outline" color="red" onClick={() => setDisabling(true)}>
              {t('settings.twoFactor.turnOff')}
            </Button>
          ) : (
            <Button
              leftSection={<IconShieldLock size={16} aria-hidden />}
              loading={start.isPending}
              onClick={() => start.mutate()}
            >
              {t('settings.twoFactor.setUp')}
            </Button>
          )}
        </Group>
      )}

      <Modal
        opened={disabling}
        onClose={() => {
          setDisabling(false);
          reset();
        }}
        title={t('settings.twoFactor.turnOffTitle')}
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const value = checkCode();
            if (!password) setPasswordError(t('settings.reauth.required'));
            else if (value) disable.mutate({ password, code: value });
          }}
          noValidate
        >
          <Stack>
            <PasswordInput
              label={t('settings.reauth.label')}
              autoComplete="current-password"
              value={password}
              error={passwordError}
              onChange={(event) => {
                setPasswordError(null);
                setPassword(event.currentTarget.value);
              }}
              data-autofocus
            />
            {codeInput}
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  setDisabling(false);
                  reset();
                }}
              >
                {t('settings.apiKey.cancel')}
              </Button>
              <Button type="submit" color="red" loading={disable.isPending}>
                {t('settings.twoFactor.turnOff')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
