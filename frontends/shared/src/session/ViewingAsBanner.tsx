import { Alert, Button, Group, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useFormat } from '../format';
import { navigateAway, sessionStore } from './store';

/** White on grape 8 (#9c36b5) reads at 5.8:1, and so does the Exit button's grape on white; grape 6 reached 4:1. */
const VIEWING_AS_COLOR = 'grape.8';

/**
 * In a tab where a staff admin views a customer's account: who they are viewing as, until when, and the way back
 * (the customer's session ends and the tab returns to the customer's screen in the back office).
 */
export function ViewingAsBanner() {
  const { t } = useTranslation('common', { keyPrefix: 'viewingAs' });
  const format = useFormat();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const raw = useSyncExternalStore(
    sessionStore.subscribe,
    () => JSON.stringify(sessionStore.viewingAs()),
    () => 'null',
  );
  const viewing = JSON.parse(raw) as ReturnType<typeof sessionStore.viewingAs>;
  if (!viewing) return null;

  const exit = async () => {
    setLeaving(true);
    const refresh_token = sessionStore.getRefreshToken();
    if (refresh_token) {
      try {
        await api.POST('/api/auth/logout', { body: { refresh_token } });
      } catch {
        // The session ends by itself within minutes; leaving must not wait for it.
      }
    }
    sessionStore.endViewing();
    queryClient.clear();
    navigateAway(`/admin/users/${viewing.user_id}`);
  };

  return (
    <Alert color={VIEWING_AS_COLOR} variant="filled" icon={<IconEye aria-hidden />} role="status" mb="md">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <div>
          <Text fw={700}>{t('banner', { name: viewing.name })}</Text>
          <Text size="sm">{t('hint', { time: format.dateTime(viewing.expires_at) ?? '' })}</Text>
        </div>
        <Button
          size="xs"
          variant="white"
          color={VIEWING_AS_COLOR}
          loading={leaving}
          onClick={() => void exit()}
        >
          {t('exit')}
        </Button>
      </Group>
    </Alert>
  );
}
