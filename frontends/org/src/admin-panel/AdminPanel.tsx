import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
// The shell loads the core and notification styles; the date picker's come with the screen that uses it.
import '@mantine/dates/styles.css';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar, IconSearch, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import {
  notifyError,
  PageLoader,
  useCan,
  useDebouncedValue,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { useMembers, type MemberRow } from './api';
import { currentMonthRange, dateDisplayFormat, formatDate, formatMoney, formatWords } from './format';
import { ADMIN_PANEL, OrganizationGate } from './Gate';
import { RemoveMemberModal } from './RemoveMemberModal';

export const fullName = (person: { name: string; last_name: string }) =>
  [person.name, person.last_name].filter(Boolean).join(' ');

/** /organization/admin-panel: the current organization's users with their usage (Manager, Admin). */
export function AdminPanel() {
  return (
    <OrganizationGate permission="organization.adminPanel" denied="panel">
      {(organization) => <MembersTable key={organization.organization_id} organization={organization} />}
    </OrganizationGate>
  );
}

function MembersTable({ organization }: { organization: CurrentOrganization }) {
  const { t, i18n } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel' });
  const navigate = useNavigate();
  const canAdd = useCan('organization.users.add');
  const canRemove = useCan('organization.users.remove');
  const [range, setRange] = useState<DatesRangeValue<string>>(() => currentMonthRange());
  // The last complete range: picking the first day of a new range must not query half a range.
  const [applied, setApplied] = useState<[string, string]>(() => currentMonthRange());
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<{ user_organization_id: number; name: string } | null>(null);

  const members = useMembers(organization.organization_id, {
    query,
    start_date: applied[0],
    end_date: applied[1],
    page,
  });

  useEffect(() => setPage(1), [query, applied]);
  useEffect(() => {
    if (members.error) notifyError(members.error);
  }, [members.error]);

  const changeRange = (next: DatesRangeValue<string>) => {
    setRange(next);
    if (next[0] && next[1]) setApplied([next[0], next[1]]);
  };

  // A click on the row opens the detail; the name link is the keyboard path (a row is not focusable).
  const open = (row: MemberRow) => navigate(`${ADMIN_PANEL}/users/${row.user_organization_id}`);

  const data = members.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  const language = i18n.language;

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm">
            {organization.name}
          </Text>
        </div>
        {canAdd ? (
          <Button
            component={Link}
            to={`${ADMIN_PANEL}/new`}
            leftSection={<IconUserPlus size={16} aria-hidden />}
          >
            {t('addUser')}
          </Button>
        ) : null}
      </Group>
      <Group align="flex-end" wrap="wrap" gap="md">
        <DatePickerInput
          type="range"
          label={t('dateRange')}
          value={range}
          onChange={changeRange}
          valueFormat={dateDisplayFormat(language)}
          locale={language.startsWith('es') ? 'es' : 'en'}
          leftSection={<IconCalendar size={16} aria-hidden />}
          allowSingleDateInRange
          miw={280}
        />
        <TextInput
          label={t('search')}
          placeholder={t('search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          miw={260}
        />
      </Group>
      {members.isPending ? (
        <PageLoader />
      ) : !data || data.users.length === 0 ? (
        members.isError ? null : (
          <Alert variant="light" color="gray">
            {t('empty')}
          </Alert>
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.id')}</Table.Th>
                  <Table.Th>{t('columns.name')}</Table.Th>
                  <Table.Th>{t('columns.email')}</Table.Th>
                  <Table.Th>{t('columns.role')}</Table.Th>
                  <Table.Th ta="right">{t('columns.totalWords')}</Table.Th>
                  <Table.Th>{t('columns.lastUsed')}</Table.Th>
                  <Table.Th ta="right">{t('columns.ltv')}</Table.Th>
                  {canRemove ? (
                    <Table.Th ta="right">
                      <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.users.map((row) => {
                  const name = fullName(row);
                  return (
                    <Table.Tr
                      key={row.user_organization_id}
                      onClick={() => open(row)}
                      style={{ cursor: 'pointer' }}
                    >
                      <Table.Td>{row.user_id}</Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`${ADMIN_PANEL}/users/${row.user_organization_id}`}
                          onClick={(event) => event.stopPropagation()}
                          aria-label={t('open', { name: name || row.email })}
                        >
                          {name || row.email}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{row.email}</Table.Td>
                      <Table.Td>
                        {/* Shade 9 text keeps the small light badge at 4.5:1 contrast. */}
                        <Badge variant="light" color={roleColor(row.role)} c={`${roleColor(row.role)}.9`}>
                          {t(`roles.${row.role}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">{formatWords(row.total_words)}</Table.Td>
                      <Table.Td>{formatDate(row.last_used, language) ?? t('never')}</Table.Td>
                      <Table.Td ta="right">{formatMoney(row.ltv)}</Table.Td>
                      {canRemove ? (
                        <Table.Td ta="right">
                          <Tooltip label={t('remove.action')}>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('remove.actionOf', { name: name || row.email })}
                              onClick={(event) => {
                                event.stopPropagation();
                                setRemoving({
                                  user_organization_id: row.user_organization_id,
                                  name: name || row.email,
                                });
                              }}
                            >
                              <IconUserMinus size={18} aria-hidden />
                            </ActionIcon>
                          </Tooltip>
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('total', { count: data.total })}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={page}
                onChange={setPage}
                siblings={1}
                boundaries={1}
                aria-label={t('pages')}
              />
            ) : null}
          </Group>
        </>
      )}
      <RemoveMemberModal organization={organization} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

function roleColor(role: string): string {
  return role === 'Admin' ? 'grape' : role === 'Manager' ? 'blue' : 'gray';
}
