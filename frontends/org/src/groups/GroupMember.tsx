import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { PageLoader, type CurrentOrganization } from '@avatar-studio/shared';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { fullName } from '../admin-panel/AdminPanel';
import { Notice } from '../admin-panel/Notice';
import { ORG_NS } from '../i18n';
import { useGroup } from './api';
import { GROUPS, GroupsGate } from './Gate';

/** /organization/groups/{id}/users/{userId}: one member of the group. */
export function GroupMember() {
  const params = useParams();
  const id = Number(params.groupId);
  const userId = Number(params.userId);
  return (
    <GroupsGate>
      {(organization) => <Member organization={organization} id={id} userId={userId} />}
    </GroupsGate>
  );
}

function Member({
  organization,
  id,
  userId,
}: {
  organization: CurrentOrganization;
  id: number;
  userId: number;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'groups.member' });
  const group = useGroup(organization.organization_id, id);
  const back = `${GROUPS}/${id}`;
  if (group.isPending && !group.isError) return <PageLoader />;
  const member = group.data?.group_users.find((m) => m.user_id === userId);
  if (!member)
    return <Notice title={t('notFound')} body={t('notFound')} linkTo={back} linkLabel={t('back')} />;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Paper withBorder p="lg" maw={520}>
        <Stack gap="xs">
          <Text>
            <Text span fw={600}>
              {t('name')}:
            </Text>{' '}
            {fullName(member.user)}
          </Text>
          <Text>
            <Text span fw={600}>
              {t('email')}:
            </Text>{' '}
            {member.user.email}
          </Text>
          <Text c="dimmed">{group.data?.name}</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
