import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { api, notifyError, notifySuccess, unwrap, useOrganization } from '@avatar-studio/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { organizationKeys, type OrganizationView } from './api';

/**
 * Deleting asks for the organization's name, typed exactly. A mismatch aborts here, and the server
 * checks it again (its message is shown if it disagrees).
 */
export function DeleteOrganizationModal({
  organization,
  opened,
  onClose,
}: {
  organization: Pick<OrganizationView, 'organization_id' | 'name'>;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations.settings' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { current, choose } = useOrganization();
  const [typed, setTyped] = useState('');

  const remove = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.DELETE('/api/organizations/{id}', {
          params: { path: { id: organization.organization_id }, query: { name } },
        }),
      ),
    onSuccess: async () => {
      notifySuccess(t('deleted'));
      close();
      if (current?.organization_id === organization.organization_id) choose(null);
      queryClient.removeQueries({ queryKey: organizationKeys.one(organization.organization_id) });
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      navigate('/organizations');
    },
    onError: (error) => notifyError(error),
  });

  function close() {
    setTyped('');
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed !== organization.name) {
      notifyError(t('nameMismatch'));
      close();
      return;
    }
    remove.mutate(typed);
  };

  return (
    <Modal opened={opened} onClose={close} title={t('deleteTitle')} centered>
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">{t('deleteBody', { name: organization.name })}</Text>
          <TextInput
            label={t('deleteLabel')}
            placeholder={organization.name}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" color="red" loading={remove.isPending} disabled={!typed}>
              {t('deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
