import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ORG_NS } from '../i18n';
import { useRemoveMember } from './api';

/** Confirms removing a member from the organization (Admin). */
export function RemoveMemberModal({
  organization,
  member,
  onClose,
  onRemoved,
}: {
  organization: { organization_id: number; name: string };
  /** The member to remove; null keeps the modal closed. */
  member: { user_organization_id: number; name: string } | null;
  onClose: () => void;
  onRemoved?: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel.remove' });
  const remove = useRemoveMember(organization, () => {
    onClose();
    onRemoved?.();
  });
  return (
    <Modal opened={member !== null} onClose={onClose} title={t('title')} centered>
      <Stack>
        <Text size="sm">{t('body', { name: member?.name ?? '', organization: organization.name })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => member && remove.mutate(member.user_organization_id)}
          >
            {t('confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
