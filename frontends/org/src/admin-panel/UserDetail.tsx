import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit, IconUserMinus } from '@tabler/icons-react';
import { ApiError, PageLoader, useCan, type CurrentOrganization } from '@avatar-studio/shared';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { useMembers, useMembership } from './api';
import { fullName } from './AdminPanel';
import { currentMonthRange, formatDate, formatMoney, formatWords, numericId } from './format';
import { ADMIN_PANEL, OrganizationGate } from './Gate';
import { Notice } from './Notice';
import { RemoveMemberModal } from './RemoveMemberModal';

/** /organization/admin-panel/users/{userId}: one member (the id is the membership's user_organization_id). */
export function UserDetail() {
  return (
    <OrganizationGate permission="organization.adminPanel" denied="panel">
      {(organization) => <Detail key={organization.organization_id} organization={organization} />}
    </OrganizationGate>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div" mt={2}>
        {children}
      </Text>
    </div>
  );
}

function Detail({ organization }: { organization: CurrentOrganization }) {
  const { t, i18n } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel' });
  const { userId } = useParams();
  const id = numericId(userId);
  const navigate = useNavigate();
  const canEdit = useCan('organization.users.edit');
  const canRemove = useCan('organization.users.remove');
  const [removing, setRemoving] = useState(false);
  const [start, end] = useMemo(() => currentMonthRange(), []);
  const membership = useMembership(organization.organization_id, id);
  const member = membership.data;
  const belongs = member?.organization_id === organization.organization_id;
  // Words and LTV come from the usage list (this month), found by the member's email.
  const usage = useMembers(
    organization.organization_id,
    { query: member?.user.email ?? '', start_date: start, end_date: end, page: 1 },
    Boolean(member && belongs),
  );
  const row = usage.data?.users.find((u) => u.user_organization_id === id);

  if (
    id === null ||
    (membership.isError && membership.error instanceof ApiError && membership.error.status === 404)
  ) {
    return (
      <Notice
        title={t('detail.title')}
        body={t('detail.notFound')}
        linkTo={ADMIN_PANEL}
        linkLabel={t('detail.back')}
      />
    );
  }
  if (membership.isPending) return <PageLoader />;
  if (membership.isError) return <Alert color="red">{membership.error.message}</Alert>;
  if (!member || !belongs) {
    return (
      <Notice
        title={t('detail.title')}
        body={t('detail.notFound')}
        linkTo={ADMIN_PANEL}
        linkLabel={t('detail.back')}
      />
    );
  }

  const name = fullName(member.user) || member.user.email;
  const language = i18n.language;
  return (
    <Stack gap="lg" maw={820}>
      <Anchor component={Link} to={ADMIN_PANEL} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('detail.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {name}
        </Title>
        <Group gap="xs">
          {canEdit ? (
            <Button
              component={Link}
              to={`${ADMIN_PANEL}/${member.user_organization_id}`}
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('detail.edit')}
            </Button>
          ) : null}
          {canRemove ? (
            <Button
              variant="outline"
              color="red"
              leftSection={<IconUserMinus size={16} aria-hidden />}
              onClick={() => setRemoving(true)}
            >
              {t('remove.action')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Field label={t('detail.name')}>{fullName(member.user)}</Field>
          <Field label={t('detail.email')}>{member.user.email}</Field>
          <Field label={t('detail.role')}>
            <Badge variant="light">{t(`roles.${member.user_type.name}`)}</Badge>
          </Field>
          <Field label={t('detail.lastUsed')}>{formatDate(member.last_use, language) ?? t('never')}</Field>
          <Field label={t('detail.words')}>
            {usage.isPending ? '…' : formatWords(row?.total_words ?? 0)}
          </Field>
          <Field label={t('detail.ltv')}>{usage.isPending ? '…' : formatMoney(row?.ltv ?? 0)}</Field>
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="md">
          {t('detail.period', { start: formatDate(start, language), end: formatDate(end, language) })}
        </Text>
      </Paper>
      <RemoveMemberModal
        organization={organization}
        member={removing ? { user_organization_id: member.user_organization_id, name } : null}
        onClose={() => setRemoving(false)}
        onRemoved={() => navigate(ADMIN_PANEL)}
      />
    </Stack>
  );
}
