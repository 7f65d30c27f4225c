import { Alert, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess, useSession } from '@avatar-studio/shared';
import { useGenerateApiKey, useRevokeApiKey } from './api';
import { copyToClipboard } from './clipboard';

/**
 * DESIGN §3: a real personal API key. The server keeps only its hash, so the full key exists in this
 * component's state alone, right after it is generated, and is gone once dismissed or the page is left.
 */
export function ApiKeySection({ maskedKey }: { maskedKey: string | null }) {
  const { t } = useTranslation('customer');
  const { reloadUser } = useSession();
  const [fullKey, setFullKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'replace' | 'revoke' | null>(null);

  const generate = useGenerateApiKey(async (key) => {
    setConfirming(null);
    setFullKey(key);
    await reloadUser();
  });
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

  const hasKey = Boolean(maskedKey);
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
        value={maskedKey ?? ''}
        placeholder={t('settings.apiKey.none')}
        readOnly
        styles={{ input: { fontFamily: 'monospace' } }}
        data-testid="api-key-masked"
      />
      <Group>
        <Button
          leftSection={<IconKey size={16} aria-hidden />}
          loading={generate.isPending && confirming === null}
          onClick={() => (hasKey ? setConfirming('replace') : generate.mutate())}
        >
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
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming === 'revoke' ? t('settings.apiKey.revokeTitle') : t('settings.apiKey.replaceTitle')}
        centered
      >
        <Stack>
          <Text size="sm">
            {confirming === 'revoke' ? t('settings.apiKey.revokeBody') : t('settings.apiKey.replaceBody')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('settings.apiKey.cancel')}
            </Button>
            {confirming === 'revoke' ? (
              <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
                {t('settings.apiKey.revoke')}
              </Button>
            ) : (
              <Button loading={generate.isPending} onClick={() => generate.mutate()}>
                {t('settings.apiKey.regenerate')}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
