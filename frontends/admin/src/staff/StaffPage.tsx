import {
  ActionIcon,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PagedTable,
  pageCount,
  STAFF_ROLES,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useDebouncedValue,
  type StaffRole,
} from '@avatar-studio/shared';
import { AddStaffModal } from './AddStaffModal';

export const STAFF_QUERY_KEY = ['admin', 'staff'] as const;

export interface StaffRow {
  staff_id: number;
  role: StaffRole;
  user_id: number;
  user: { name: string; last_name: string; email: string };
}

/** /staff: staff list with search by email (debounced 500 ms), paging, add, change role, delete. */
export function StaffPage() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [pageState, setPageState] = useState({ page: 1, query: '' });
  // A new search starts again at page 1.
  const page = pageState.query === query ? pageState.page : 1;
  const setPage = (next: number) => setPageState({ page: next, query });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<StaffRow | null>(null);

  const list = useQuery({
    queryKey: [...STAFF_QUERY_KEY, { page, query }],
    queryFn: () =>
      unwrap(api.GET('/api/staff/admin/all', { params: { query: { page, ...(query ? { query } : {}) } } })),
    placeholderData: keepPreviousData,
  });

  const invalidate = () => queryClient.invalidateQueries({ queryKey: STAFF_QUERY_KEY });

  const changeRole = useMutation({
    mutationFn: (change: { staff_id: number; role: StaffRole }) =>
      unwrap(api.PUT('/api/staff', { body: change })),
    onSuccess: () => notifySuccess(t('staff.roleChanged')),
    onError: (error) => notifyError(error),
    // On failure too: the select shows the server's role again.
    onSettled: invalidate,
  });

  const remove = useMutation({
    mutationFn: (staffId: number) =>
      unwrap(api.DELETE('/api/staff/{staff_id}', { params: { path: { staff_id: staffId } } })),
    onSuccess: async () => {
      setRemoving(null);
      notifySuccess(t('staff.removed'));
      await invalidate();
    },
    onError: (error) => notifyError(error),
  });

  const data = list.data;
  const rows: StaffRow[] = data?.staff ?? [];
  const pages = data ? pageCount(data.total, data.limit) : 1;
  const roleOptions = STAFF_ROLES.map((role) => ({ value: role, label: t(`staff.roles.${role}`) }));

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('staff.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('staff.add')}
        </Button>
      </Group>
      <TextInput
        aria-label={t('staff.search')}
        placeholder={t('staff.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        type="search"
        maw={420}
      />
      <PagedTable
        query={list}
        minWidth={560}
        head={
          <>
            <Table.Th>{t('staff.columns.email')}</Table.Th>
            <Table.Th>{t('staff.columns.name')}</Table.Th>
            <Table.Th>{t('staff.columns.role')}</Table.Th>
            <Table.Th w={90}>
              <VisuallyHidden>{t('staff.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
        columns={4}
        emptyText={t('staff.empty')}
        rows={rows.map((row) => (
          <Table.Tr key={row.staff_id}>
            <Table.Td>{row.user.email}</Table.Td>
            <Table.Td>{`${row.user.name ?? ''} ${row.user.last_name ?? ''}`.trim()}</Table.Td>
            <Table.Td>
              <Select
                aria-label={t('staff.roleOf', { email: row.user.email })}
                data={roleOptions}
                value={row.role}
                allowDeselect={false}
                disabled={changeRole.isPending && changeRole.variables?.staff_id === row.staff_id}
                onChange={(role) => {
                  if (role && role !== row.role) {
                    changeRole.mutate({ staff_id: row.staff_id, role: role as StaffRole });
                  }
                }}
                w={160}
                comboboxProps={{ withinPortal: true }}
              />
            </Table.Td>
            <Table.Td>
              <Tooltip label={t('staff.remove')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('staff.removeLabel', { email: row.user.email })}
                  onClick={() => setRemoving(row)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Table.Td>
          </Table.Tr>
        ))}
        totalLabel={data ? t('staff.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={setPage}
      />

      <AddStaffModal opened={adding} onClose={() => setAdding(false)} onAdded={invalidate} />

      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('staff.removeTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('staff.removeBody', { email: removing?.user.email ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>
              {t('staff.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => removing && remove.mutate(removing.staff_id)}
            >
              {t('staff.removeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
