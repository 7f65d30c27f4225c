import {
  Anchor,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  PagedTable,
  pageCount,
  api,
  formatMoney,
  unwrap,
  useCan,
  useDebouncedValue,
  useFormat,
} from '@avatar-studio/shared';
import {
  ADMIN_USERS_PAGER_BUTTONS,
  CUSTOMER_SEARCH_FIELDS,
  type CustomerSearchField,
  type CustomerSort,
} from '@avatar-studio/contracts/customers';
import { Pager } from '../common/Pager';

export const CUSTOMERS_QUERY_KEY = ['admin', 'customers'] as const;
const COLUMNS: CustomerSort[] = ['user_id', 'name', 'last_name', 'email', 'phone', 'value', 'createdAt'];

/** /admin/users: the customers, searched in all fields or one (debounced 500 ms), sortable, 50 a page. */
export function CustomersPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const canCreate = useCan('customers.manage');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [field, setField] = useState<CustomerSearchField>('all');
  const [sort, setSort] = useState<{ by: CustomerSort; direction: 'asc' | 'desc' }>({
    by: 'user_id',
    direction: 'desc',
  });
  const filterKey = JSON.stringify([query, field, sort]);
  const [pageState, setPageState] = useState({ page: 1, filterKey });
  const page = pageState.filterKey === filterKey ? pageState.page : 1;
  const goToPage = (next: number) => setPageState({ page: next, filterKey });

  const list = useQuery({
    queryKey: [...CUSTOMERS_QUERY_KEY, { page, query, field, sort }],
    queryFn: () =>
      unwrap(
        api.GET('/api/users/admin/all', {
          params: {
            query: {
              page,
              sort: sort.by,
              direction: sort.direction,
              ...(query ? { query, field } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const header = (column: CustomerSort) => {
    const active = sort.by === column;
    const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
    return (
      <Table.Th
        key={column}
        aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      >
        <UnstyledButton
          onClick={() =>
            setSort({ by: column, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })
          }
          aria-label={t('customers.sortBy', { column: t(`customers.columns.${column}`) })}
        >
          <Group gap={4} wrap="nowrap">
            <Text size="sm" fw={600}>
              {t(`customers.columns.${column}`)}
            </Text>
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  const data = list.data;
  const rows = data?.users ?? [];
  const pages = data ? pageCount(data.total, data.limit) : 1;

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('customers.title')}
        </Title>
        {canCreate ? (
          <Button component={Link} to="/admin/users/new">
            {t('customers.add')}
          </Button>
        ) : null}
      </Group>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label={t('customers.searchIn')}
          data={CUSTOMER_SEARCH_FIELDS.map((value) => ({ value, label: t(`customers.fields.${value}`) }))}
          value={field}
          allowDeselect={false}
          onChange={(value) => value && setField(value as CustomerSearchField)}
          w={160}
        />
        <TextInput
          label={t('customers.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          miw={280}
        />
      </Group>
      <PagedTable
        query={list}
        minWidth={860}
        head={COLUMNS.map(header)}
        columns={COLUMNS.length}
        emptyText={t('customers.empty')}
        rows={rows.map((row) => (
          <Table.Tr key={row.user_id}>
            <Table.Td>{row.user_id}</Table.Td>
            <Table.Td>{row.name}</Table.Td>
            <Table.Td>{row.last_name}</Table.Td>
            <Table.Td>
              <Anchor
                component={Link}
                to={`/admin/users/${row.user_id}`}
                aria-label={t('customers.open', { email: row.email })}
              >
                {row.email}
              </Anchor>
              {row.staff_role ? (
                <Badge ml="xs" size="xs" variant="light">
                  {t('customers.staffBadge', { role: row.staff_role })}
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td>{row.phone ?? ''}</Table.Td>
            <Table.Td>${formatMoney(row.value)}</Table.Td>
            <Table.Td>{format.date(row.createdAt)}</Table.Td>
          </Table.Tr>
        ))}
        totalLabel={data ? t('customers.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={goToPage}
        pager={<Pager page={page} pages={pages} buttons={ADMIN_USERS_PAGER_BUTTONS} onChange={goToPage} />}
      />
    </Stack>
  );
}
