import { Alert, Anchor, Button, Group, Modal, Select, Stack, Table, Title } from '@mantine/core';
import { IconArrowLeft, IconUserMinus, IconUserPlus, IconUsersGroup } from '@tabler/icons-react';
import { notifySuccess, PageLoader, useCan, type CurrentOrganization } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { fullName } from '../admin-panel/AdminPanel';
import { Notice } from '../admin-panel/Notice';
import { ORG_NS } from '../i18n';
import { useCampaign, useCampaignAccess, useGrantCandidates, type Grantee } from './api';
import { CAMPAIGNS, RequireOrganization } from './Gate';

/** /organization/campaigns/{id}/users: who the campaign is given to (users and groups), Managers and Admins. */
export function CampaignUsers() {
  const id = Number(useParams().campaignId);
  return (
    <RequireOrganization>
      {(organization) => (
        <Users key={`${organization.organization_id}-${id}`} organization={organization} id={id} />
      )}
    </RequireOrganization>
  );
}

function Users({ organization, id }: { organization: CurrentOrganization; id: number }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.users' });
  const { t: tc } = useTranslation(ORG_NS, { keyPrefix: 'campaigns' });
  const canManage = useCan('campaigns.manage');
  const campaign = useCampaign(organization.organization_id, id);
  const { revoke } = useCampaignAccess(organization.organization_id, id);
  const [adding, setAdding] = useState<'user' | 'group' | null>(null);

  if (!canManage || !Number.isInteger(id) || id < 1 || campaign.isError) {
    return (
      <Notice
        title={tc('detail.notFound')}
        body={tc('detail.notFound')}
        linkTo={CAMPAIGNS}
        linkLabel={tc('detail.back')}
      />
    );
  }
  if (campaign.isPending) return <PageLoader />;
  const { campaign_users: users, campaign_groups: groups } = campaign.data;

  const revokeButton = (label: string, from: Grantee) => (
    <Button
      size="xs"
      variant="default"
      color="red"
      leftSection={<IconUserMinus size={14} aria-hidden />}
      aria-label={t('revokeOf', { name: label })}
      onClick={() => revoke.mutate(from, { onSuccess: () => notifySuccess(t('revoked')) })}
    >
      {t('revoke')}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={`${CAMPAIGNS}/${id}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Title order={1} size="h2">
        {t('title')}: {campaign.data.name}
      </Title>

      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('users')}
        </Title>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding('user')}>
          {t('addUser')}
        </Button>
      </Group>
      {users.length === 0 ? (
        <Alert variant="light" color="gray">
          {t('noUsers')}
        </Alert>
      ) : (
        <Table striped aria-label={t('users')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th>{t('email')}</Table.Th>
              <Table.Th>{t('actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((user) => (
              <Table.Tr key={user.user_id}>
                <Table.Td>{fullName(user)}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>{revokeButton(fullName(user), { user_id: user.user_id })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('groups')}
        </Title>
        <Button leftSection={<IconUsersGroup size={16} aria-hidden />} onClick={() => setAdding('group')}>
          {t('addGroup')}
        </Button>
      </Group>
      {groups.length === 0 ? (
        <Alert variant="light" color="gray">
          {t('noGroups')}
        </Alert>
      ) : (
        <Table striped aria-label={t('groups')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('group')}</Table.Th>
              <Table.Th>{t('actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((group) => (
              <Table.Tr key={group.group_id}>
                <Table.Td>{group.name}</Table.Td>
                <Table.Td>{revokeButton(group.name, { group_id: group.group_id })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {adding ? (
        <GiveAccessModal
          organizationId={organization.organization_id}
          campaignId={id}
          kind={adding}
          given={new Set(adding === 'user' ? users.map((u) => u.user_id) : groups.map((g) => g.group_id))}
          onClose={() => setAdding(null)}
        />
      ) : null}
    </Stack>
  );
}

/** Picks a member (or group) of the organization the campaign is not given to yet; Add only with a choice. */
function GiveAccessModal({
  organizationId,
  campaignId,
  kind,
  given,
  onClose,
}: {
  organizationId: number;
  campaignId: number;
  kind: 'user' | 'group';
  given: Set<number>;
  onClose: () => void;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'campaigns.users' });
  const { members, groups } = useGrantCandidates(organizationId);
  const { give } = useCampaignAccess(organizationId, campaignId);
  const [choice, setChoice] = useState<string | null>(null);
  const options =
    kind === 'user'
      ? (members.data ?? [])
          .filter((m) => !given.has(m.user_id))
          .map((m) => ({ value: String(m.user_id), label: `${fullName(m)} (${m.email})` }))
      : (groups.data ?? [])
          .filter((g) => !given.has(g.group_id))
          .map((g) => ({ value: String(g.group_id), label: g.name }));
  const submit = () => {
    if (!choice) return;
    const to: Grantee = kind === 'user' ? { user_id: Number(choice) } : { group_id: Number(choice) };
    give.mutate(to, {
      onSuccess: () => {
        notifySuccess(t('given'));
        onClose();
      },
    });
  };
  return (
    <Modal opened onClose={onClose} title={kind === 'user' ? t('addUser') : t('addGroup')}>
      <Stack gap="sm">
        <Select
          label={kind === 'user' ? t('pickUser') : t('pickGroup')}
          data={options}
          value={choice}
          onChange={setChoice}
          searchable
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={submit} disabled={!choice} loading={give.isPending}>
            {t('add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
