import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { useMessageActions } from '../conversations/chat/useMessageActions';
import { useAvatarList } from './api';

/** Shares the chosen message into one of the caller's avatars (as an editable text file). */
export function ShareToAvatarModal({ actions }: { actions: ReturnType<typeof useMessageActions> }) {
  const { t } = useTranslation('customer');
  const opened = actions.sharing !== null;
  return (
    <Modal opened={opened} onClose={actions.closeShare} title={t('conversations.message.shareTitle')}>
      {opened && <ShareForm actions={actions} />}
    </Modal>
  );
}

function ShareForm({ actions }: { actions: ReturnType<typeof useMessageActions> }) {
  const { t } = useTranslation('customer');
  const list = useAvatarList(false, '');
  const [avatarId, setAvatarId] = useState<string | null>(null);
  const mine = (list.data?.avatars ?? []).filter((a) => a.can_manage);
  if (list.isSuccess && mine.length === 0) return <Text>{t('conversations.message.shareNoAvatars')}</Text>;
  return (
    <Stack>
      <Select
        label={t('conversations.message.shareAvatar')}
        data={mine.map((a) => ({ value: String(a.avatar_id), label: a.name }))}
        value={avatarId}
        onChange={setAvatarId}
        searchable
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={actions.closeShare}>
          {t('avatars.cancel')}
        </Button>
        <Button
          disabled={!avatarId}
          loading={actions.sharePending}
          onClick={() => avatarId && actions.shareTo(Number(avatarId))}
        >
          {t('conversations.message.share')}
        </Button>
      </Group>
    </Stack>
  );
}
