import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A destructive action's confirmation: the question, Cancel, and a red confirm button that shows progress. */
export function ConfirmModal({
  opened,
  title,
  body,
  cancelLabel,
  confirmLabel,
  loading,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: ReactNode;
  body: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Text size="sm">{body}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button color="red" loading={loading} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
