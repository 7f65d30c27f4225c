import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RemoteErrorPanelProps {
  /** What failed (the remote's name), for the reader and for support. */
  name?: string;
  error?: unknown;
  /** Called by Retry; may return a promise (the button shows a spinner meanwhile). */
  onRetry(): void | Promise<unknown>;
}

/** Shown in place of a remote (or any section) that failed to load; never a blank page. */
export function RemoteErrorPanel({ name, error, onRetry }: RemoteErrorPanelProps) {
  const { t } = useTranslation('common');
  const [busy, setBusy] = useState(false);
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('remoteError.title')}
      role="alert"
      m="md"
      data-remote={name}
    >
      <Text size="sm">{t('remoteError.body')}</Text>
      {detail ? (
        <Text size="xs" c="dimmed" mt={4}>
          {detail}
        </Text>
      ) : null}
      <Group mt="md">
        <Button
          leftSection={<IconRefresh size={16} aria-hidden />}
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onRetry();
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('retry')}
        </Button>
      </Group>
    </Alert>
  );
}
