import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The confirm button's red: white text on Mantine's red 9 (#c92a2a) reads at 5.5:1 and on its hover shade (red 8,
 * #e03131) at 4.5:1, in light and dark alike; the default red (red 6 light, red 5 dark) reaches only 3.3:1 and 2.8:1.
 */
export const DANGER_BUTTON_COLOR = 'red.9';

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
    // The corner's close button is named by the theme (Close), like every modal's.
    <Modal opened={opened} onClose={onClose} title={title}>
      <Text size="sm">{body}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button color={DANGER_BUTTON_COLOR} loading={loading} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
