import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal, notifySuccess, useSession, type User } from '@avatar-studio/shared';
import { useResetDefaultAvatar } from './api';

/**
 * The default avatar (the Super Fetch assistant): Reset replaces it with a fresh one, deleting its history and
 * what it learned, after a confirmation.
 */
export function DefaultAvatarSection({ user }: { user: User }) {
  const { t } = useTranslation('customer');
  const { setUser } = useSession();
  const [confirming, setConfirming] = useState(false);
  const reset = useResetDefaultAvatar((saved) => {
    setUser(saved);
    setConfirming(false);
    notifySuccess(t('settings.defaultAvatar.reset'));
  });
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('settings.defaultAvatar.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.defaultAvatar.description')}
      </Text>
      <Group justify="space-between">
        <Text size="sm">
          {user.defaultAssistant
            ? t('settings.defaultAvatar.current', { id: user.defaultAssistant.id })
            : t('settings.defaultAvatar.none')}
        </Text>
        <Button variant="default" onClick={() => setConfirming(true)}>
          {t('settings.defaultAvatar.action')}
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title={t('settings.defaultAvatar.confirmTitle')}
        body={t('settings.defaultAvatar.confirmBody')}
        cancelLabel={t('settings.apiKey.cancel')}
        confirmLabel={t('settings.defaultAvatar.action')}
        loading={reset.isPending}
        onConfirm={() => reset.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
