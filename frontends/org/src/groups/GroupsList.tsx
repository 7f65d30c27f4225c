import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import {
  ConfirmModal,
  notifyError,
  notifySuccess,
  PageLoader,
  useDebouncedValue,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import { MAX_GROUP_NAME } from '@avatar-studio/contracts/campaigns';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { useGroupChanges, useGroups, type GroupRow } from './api';
import { GROUPS, GroupsGate } from './Gate';

/** /organization/groups: the organization's groups (Managers and Admins). */
export function GroupsList() {
  return (
    <GroupsGate>
      {(organization) => <Groups key={organization.organization_id} organization={organization} />}
    </GroupsGate>
  );
}

function Groups({ organization }: { organization: CurrentOrganization }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups' });
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const groups = useGroups(organization.organization_id, query);
  const { remove } = useGroupChanges(organization.organization_id);
  const [editing, setEditing] = useState<GroupRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<GroupRow | null>(null);

  useEffect(() => {
    if (groups.error) notifyError(groups.error);
  }, [groups.error]);

  const rows = groups.data?.groups ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      </Group>
      <TextInput
        label={t('search')}
        placeholder={t('search')}
        type="search"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={320}
      />
      {groups.isPending ? (
        <PageLoader />
      ) : rows.length === 0 ? (
        groups.isError ? null : (
          <Alert variant="light" color="gray">
            {t('empty')}
          </Alert>
        )
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th ta="right">{t('users')}</Table.Th>
              <Table.Th>{t('actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((group) => (
              <Table.Tr key={group.group_id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`${GROUPS}/${group.group_id}`}
                    aria-label={t('view', { name: group.name })}
                  >
                    {group.name}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{group.users}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('edit', { name: group.name })}
                      onClick={() => setEditing(group)}
                    >
                      <IconEdit size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('delete', { name: group.name })}
                      onClick={() => setDeleting(group)}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing ? (
        <GroupFormModal
          organizationId={organization.organization_id}
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmModal
        opened={deleting !== null}
        title={t('remove.title')}
        body={t('remove.body', { name: deleting?.name ?? '' })}
        cancelLabel={t('remove.cancel')}
        confirmLabel={t('remove.confirm')}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.group_id, {
            onSuccess: () => {
              notifySuccess(t('remove.done'));
              setDeleting(null);
            },
          })
        }
      />
    </Stack>
  );
}

function GroupFormModal({
  organizationId,
  group,
  onClose,
}: {
  organizationId: number;
  group: GroupRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups.form' });
  const [name, setName] = useState(group?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const { save } = useGroupChanges(organizationId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('nameRequired'));
      return;
    }
    save.mutate(
      { group_id: group?.group_id ?? null, name: name.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('saved'));
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={group ? t('editTitle') : t('createTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('name')}
            value={name}
            maxLength={MAX_GROUP_NAME}
            required
            error={error}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
