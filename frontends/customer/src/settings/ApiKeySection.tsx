import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_EXPIRY_DAYS,
  DEFAULT_API_KEY_EXPIRY_DAYS,
  type ApiKeyExpiryDays,
} from '@avatar-studio/contracts/auth';
import { type ApiKeyRequest, useGenerateApiKey, useRevokeApiKey } from './api';
import {
  ApiError,
  notifyError,
  notifySuccess,
  useFormat,
  useSession,
  type User,
} from '@avatar-studio/shared';
import { copyToClipboard } from './clipboard';

type CreateValues = ApiKeyRequest & { expires_in_days: ApiKeyExpiryDays; staff: boolean };

/**
 * A personal API key for calling the API without a session. The server keeps only its hash, so the full
 * key is in this component's state alone, right after it is generated, and is gone once dismissed or the page is left.
 * Creating one asks for the current password and a lifetime; staff may make a key that carries their role.
 */
export function ApiKeySection({ user }: { user: User }) {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const { reloadUser } = useSession();
  const [fullKey, setFullKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'create' | 'revoke' | null>(null);
  const [values, setValues] = useState<CreateValues>({
    password: '',
    expires_in_days: DEFAULT_API_KEY_EXPIRY_DAYS,
    staff: false,
  });
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const close = () => {
    setConfirming(null);
    setPasswordError(null);
    setValues((v) => ({ ...v, password: '' }));
  };

  const generate = useGenerateApiKey(
    async (key) => {
      close();
      setFullKey(key);
      await reloadUser();
    },
    (error) => {
      if (error instanceof ApiError && error.code === 'password_incorrect') {
        setPasswordError(t('settings.reauth.wrong'));
      } else notifyError(error);
    },
  );
  const revoke = useRevokeApiKey(async () => {
    setConfirming(null);
    setFullKey(null);
    notifySuccess(t('settings.apiKey.revoked'));
    await reloadUser();
  });

  const copy = async (text: string) => {
    try {
      await copyToClipboard(text);
      notifySuccess(t('settings.apiKey.copied'));
    } catch {
      notifyError(t('settings.apiKey.copyFailed'));
    }
  };

  const submitCreate = () => {
    if (!values.password) {
      setPasswordError(t('settings.reauth.required'));
      return;
    }
    generate.mutate(values);
  };

  const hasKey = Boolean(user.api_key);
  const expires = user.api_key_expires_at ? format.date(user.api_key_expires_at) : null;
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('settings.apiKey.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.apiKey.description')}
      </Text>

      {fullKey ? (
        <Alert
          color="yellow"
          variant="light"
          title={t('settings.apiKey.newKeyTitle')}
          icon={<IconKey aria-hidden />}
        >
          <Stack gap="xs">
            <Text size="sm">{t('settings.apiKey.newKeyNotice')}</Text>
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                aria-label={t('settings.apiKey.newKeyTitle')}
                value={fullKey}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
                styles={{ input: { fontFamily: 'monospace' } }}
                style={{ flex: 1 }}
                data-testid="api-key-full"
              />
              <Button leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copy(fullKey)}>
                {t('settings.apiKey.copy')}
              </Button>
            </Group>
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setFullKey(null)}>
                {t('settings.apiKey.hide')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}

      <TextInput
        label={t('settings.apiKey.current')}
        value={user.api_key ?? ''}
        placeholder={t('settings.apiKey.none')}
        readOnly
        styles={{ input: { fontFamily: 'monospace' } }}
        data-testid="api-key-masked"
      />
      {hasKey ? (
        <Group gap="xs">
          {expires ? (
            <Text size="sm" c="dimmed" data-testid="api-key-expiry">
              {t('settings.apiKey.expiresOn', { date: expires })}
            </Text>
          ) : null}
          {user.api_key_staff ? <Badge variant="light">{t('settings.apiKey.staffBadge')}</Badge> : null}
        </Group>
      ) : null}
      <Group>
        <Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => setConfirming('create')}>
          {hasKey ? t('settings.apiKey.regenerate') : t('settings.apiKey.generate')}
        </Button>
        {hasKey ? (
          <Button
            variant="outline"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setConfirming('revoke')}
          >
            {t('settings.apiKey.revoke')}
          </Button>
        ) : null}
      </Group>

      <Modal
        opened={confirming === 'create'}
        onClose={close}
        title={hasKey ? t('settings.apiKey.replaceTitle') : t('settings.apiKey.createTitle')}
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submitCreate();
          }}
          noValidate
        >
          <Stack>
            {hasKey ? <Text size="sm">{t('settings.apiKey.replaceBody')}</Text> : null}
            <Select
              label={t('settings.apiKey.expiry')}
              data={API_KEY_EXPIRY_DAYS.map((days) => ({
                value: String(days),
                label: t('settings.apiKey.days', { count: days }),
              }))}
              value={String(values.expires_in_days)}
              onChange={(value) =>
                value && setValues((v) => ({ ...v, expires_in_days: Number(value) as ApiKeyExpiryDays }))
              }
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
            />
            {user.staff ? (
              <Checkbox
                label={t('settings.apiKey.staffLabel')}
                description={t('settings.apiKey.staffDescription')}
                checked={values.staff}
                onChange={(event) => {
                  const staff = event.currentTarget.checked;
                  setValues((v) => ({ ...v, staff }));
                }}
              />
            ) : null}
            <PasswordInput
              label={t('settings.reauth.label')}
              description={t('settings.reauth.description')}
              autoComplete="current-password"
              value={values.password}
              error={passwordError}
              onChange={(event) => {
                const password = event.currentTarget.value;
                setPasswordError(null);
                setValues((v) => ({ ...v, password }));
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('settings.apiKey.cancel')}
              </Button>
              <Button type="submit" loading={generate.isPending}>
                {hasKey ? t('settings.apiKey.regenerate') : t('settings.apiKey.generate')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal
        opened={confirming === 'revoke'}
        onClose={() => setConfirming(null)}
        title={t('settings.apiKey.revokeTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('settings.apiKey.revokeBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('settings.apiKey.cancel')}
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
              {t('settings.apiKey.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
