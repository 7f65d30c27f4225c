import { Alert, Anchor, Button, Group, Modal, MultiSelect, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { notifySuccess, PageLoader, type CurrentOrganization } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { fullName } from '../admin-panel/AdminPanel';
import { Notice } from '../admin-panel/Notice';
import { ORG_NS } from '../i18n';
import { useGroup, useGroupChanges, useOrganizationMembers } from './api';
import { GROUPS, GroupsGate } from './Gate';

/** /organization/groups/{id}: the group's members, with the add-users modal. */
export function GroupDetail() {
  const id = Number(useParams().groupId);
  return (
    <GroupsGate>
      {(organization) => (
        <Detail key={`${organization.organization_id}-${id}`} organization={organization} id={id} />
      )}
    </GroupsGate>
  );
}

function Detail({ organization, id }: { organization: CurrentOrganization; id: number }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups.detail' });
  const group = useGroup(organization.organization_id, id);
  const { removeUser } = useGroupChanges(organization.organization_id);
  const [adding, setAdding] = useState(false);

  if (!Number.isInteger(id) || id < 1 || group.isError) {
    return <Notice title={t('notFound')} body={t('notFound')} linkTo={GROUPS} linkLabel={t('back')} />;
  }
  if (group.isPending) return <PageLoader />;
  const members = group.data.group_users;

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={GROUPS} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {group.data.name}
        </Title>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('addUsers')}
        </Button>
      </Group>
      <Title order={2} size="h3">
        {t('members')}
      </Title>
      {members.length === 0 ? (
        <Alert variant="light" color="gray">
          {t('empty')}
        </Alert>
      ) : (
        <Table striped aria-label={t('members')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('members')}</Table.Th>
              <Table.Th>{t('email')}</Table.Th>
              <Table.Th>{t('remove')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map(({ user_id, user }) => (
              <Table.Tr key={user_id}>
                <Table.Td>
                  <Anchor component={Link} to={`${GROUPS}/${id}/users/${user_id}`}>
                    {fullName(user)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    color="red"
                    leftSection={<IconUserMinus size={14} aria-hidden />}
                    aria-label={t('removeOf', { name: fullName(user) })}
                    onClick={() => removeUser.mutate({ groupId: id, userId: user_id })}
                  >
                    {t('remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {adding ? (
        <AddUsersModal
          organizationId={organization.organization_id}
          groupId={id}
          current={new Set(members.map((m) => m.user_id))}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Stack>
  );
}

/** Candidates are the organization's members not in the group; Add submits only with a selection. */
function AddUsersModal({
  organizationId,
  groupId,
  current,
  onClose,
}: {
  organizationId: number;
  groupId: number;
  current: Set<number>;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups.detail' });
  const members = useOrganizationMembers(organizationId, true);
  const { addUsers } = useGroupChanges(organizationId);
  const [selected, setSelected] = useState<string[]>([]);
  const candidates = (members.data ?? [])
    .filter((m) => !current.has(m.user_id))
    .map((m) => ({ value: String(m.user_id), label: `${fullName(m)} (${m.email})` }));
  const submit = () => {
    if (selected.length === 0 || candidates.length === 0) return;
    addUsers.mutate(
      { groupId, userIds: selected.map(Number) },
      {
        onSuccess: () => {
          notifySuccess(t('added'));
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('addTitle')}>
      <Stack gap="sm">
        {members.isPending ? (
          <PageLoader />
        ) : candidates.length === 0 ? (
          <Text c="dimmed">{t('noCandidates')}</Text>
        ) : (
          <MultiSelect
            label={t('candidates')}
            data={candidates}
            value={selected}
            onChange={setSelected}
            searchable
            data-autofocus
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button
            onClick={submit}
            disabled={selected.length === 0 || candidates.length === 0}
            loading={addUsers.isPending}
          >
            {t('add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
