import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar, IconPencil, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PagedTable,
  pageCount,
  api,
  dateDisplayFormat,
  unwrap,
  useCan,
  useDebouncedValue,
  useFormat,
} from '@avatar-studio/shared';
import { PAYMENT_METHODS, purchaseBadge, type PurchaseStatusGroup } from '@avatar-studio/contracts/billing';
import { usd } from '../common/money';
import { EditPurchaseModal, type EditablePurchase } from './EditPurchaseModal';

export const PURCHASES_QUERY_KEY = ['admin', 'purchases'] as const;
export const PRODUCT_OPTIONS_QUERY_KEY = ['admin', 'products', 'options'] as const;

const STATUS_GROUPS: ('all' | PurchaseStatusGroup)[] = ['all', 'successful', 'failed', 'pending'];
const TYPES = ['all', 'purchases', 'invoices'] as const;

const BADGE_COLORS: Record<string, string> = {
  active: 'green',
  completed: 'teal',
  pending: 'yellow',
  processing: 'yellow',
  cancelled: 'gray',
  revoked: 'red',
  failed: 'red',
};

/** The products of every filter and form, by name (the list's largest page). */
export function useProductOptions() {
  return useQuery({
    queryKey: PRODUCT_OPTIONS_QUERY_KEY,
    queryFn: () =>
      unwrap(api.GET('/api/products', { params: { query: { limit: 200, sort: 'name', direction: 'asc' } } })),
    select: (data) => data.products.map((p) => ({ value: String(p.product_id), label: p.name })),
  });
}

/** /admin/purchases: every purchase by date range, search, status group, type and product; 12 a page; edit. */
export function PurchasesPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const queryClient = useQueryClient();
  const canEdit = useCan('billing.edit');
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [applied, setApplied] = useState<[string | null, string | null]>([null, null]);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [status, setStatus] = useState<(typeof STATUS_GROUPS)[number]>('all');
  const [type, setType] = useState<(typeof TYPES)[number]>('all');
  const [productId, setProductId] = useState<string | null>(null);
  const filters = { query, status, type, productId, from: applied[0], to: applied[1] };
  const filterKey = JSON.stringify(filters);
  const [pageState, setPageState] = useState({ page: 1, filterKey });
  // Any new filter starts again at page 1.
  const page = pageState.filterKey === filterKey ? pageState.page : 1;
  const [editing, setEditing] = useState<EditablePurchase | null>(null);
  const products = useProductOptions();

  const list = useQuery({
    queryKey: [...PURCHASES_QUERY_KEY, { page, ...filters }],
    queryFn: () =>
      unwrap(
        api.GET('/api/purchases/admin', {
          params: {
            query: {
              page,
              ...(query ? { query } : {}),
              ...(status !== 'all' ? { status } : {}),
              ...(type !== 'all' ? { type } : {}),
              ...(productId ? { product_id: Number(productId) } : {}),
              // The range's last day is included: the API's end_date is exclusive.
              ...(applied[0] ? { start_date: applied[0] } : {}),
              ...(applied[1] ? { end_date: dayjs(applied[1]).add(1, 'day').format('YYYY-MM-DD') } : {}),
            } as Record<string, string | number>,
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const changeRange = (next: DatesRangeValue<string>) => {
    setRange(next);
    if ((next[0] && next[1]) || (!next[0] && !next[1])) setApplied([next[0], next[1]]);
  };

  const data = list.data;
  const rows = data?.purchases ?? [];
  const pages = data ? pageCount(data.total, data.limit) : 1;
  const methodName = (id: number | null) => {
    const method = PAYMENT_METHODS.find((m) => m.payment_method_id === id);
    return method ? t(`purchases.methods.${method.name}`) : '—';
  };

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('purchases.title')}
      </Title>
      <Group align="flex-end" wrap="wrap" gap="md">
        <DatePickerInput
          type="range"
          label={t('purchases.dateRange')}
          value={range}
          onChange={changeRange}
          valueFormat={dateDisplayFormat(format.language)}
          locale={format.language.startsWith('es') ? 'es' : 'en'}
          leftSection={<IconCalendar size={16} aria-hidden />}
          allowSingleDateInRange
          clearable
          miw={260}
        />
        <TextInput
          label={t('purchases.search')}
          placeholder={t('purchases.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          miw={240}
        />
        <Select
          label={t('purchases.type')}
          data={TYPES.map((value) => ({ value, label: t(`purchases.types.${value}`) }))}
          value={type}
          allowDeselect={false}
          onChange={(value) => value && setType(value as (typeof TYPES)[number])}
          w={160}
        />
        <Select
          label={t('purchases.product')}
          placeholder={t('purchases.allProducts')}
          data={products.data ?? []}
          value={productId}
          onChange={setProductId}
          clearable
          searchable
          w={220}
        />
      </Group>
      <Group gap="xs" role="group" aria-label={t('purchases.statusFilter')}>
        {STATUS_GROUPS.map((group) => (
          <Button
            key={group}
            size="xs"
            variant={status === group ? 'filled' : 'default'}
            aria-pressed={status === group}
            onClick={() => setStatus(group)}
          >
            {t(`purchases.statusGroups.${group}`)}
          </Button>
        ))}
      </Group>
      <PagedTable
        query={list}
        minWidth={820}
        head={
          <>
            <Table.Th>{t('purchases.columns.id')}</Table.Th>
            <Table.Th>{t('purchases.columns.date')}</Table.Th>
            <Table.Th>{t('purchases.columns.customer')}</Table.Th>
            <Table.Th>{t('purchases.columns.product')}</Table.Th>
            <Table.Th ta="right">{t('purchases.columns.amount')}</Table.Th>
            <Table.Th>{t('purchases.columns.method')}</Table.Th>
            <Table.Th>{t('purchases.columns.status')}</Table.Th>
            {canEdit ? (
              <Table.Th w={60}>
                <VisuallyHidden>{t('purchases.columns.actions')}</VisuallyHidden>
              </Table.Th>
            ) : null}
          </>
        }
        columns={canEdit ? 8 : 7}
        emptyText={t('purchases.empty')}
        rows={rows.map((row) => {
          const badge = purchaseBadge(row.status);
          return (
            <Table.Tr key={row.purchase_id}>
              <Table.Td>{row.purchase_id}</Table.Td>
              <Table.Td>{format.date(row.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm">{`${row.user?.name ?? ''} ${row.user?.last_name ?? ''}`.trim() || '—'}</Text>
                <Text size="xs" c="dimmed">
                  {row.user?.email ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.product?.name ?? '—'}
                {row.is_gift ? (
                  <Badge ml="xs" size="xs" variant="light">
                    {t('purchases.gift')}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td ta="right">{usd(row.amount)}</Table.Td>
              <Table.Td>{methodName(row.payment_method_id)}</Table.Td>
              <Table.Td>
                <Badge color={BADGE_COLORS[badge] ?? 'gray'} variant="dot">
                  {t(`purchases.statuses.${badge}`, { defaultValue: badge })}
                </Badge>
              </Table.Td>
              {canEdit ? (
                <Table.Td>
                  <Tooltip label={t('purchases.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('purchases.editLabel', { id: row.purchase_id })}
                      onClick={() => setEditing(row)}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              ) : null}
            </Table.Tr>
          );
        })}
        totalLabel={data ? t('purchases.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={(next) => setPageState({ page: next, filterKey })}
      />

      {editing ? (
        <EditPurchaseModal
          purchase={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: PURCHASES_QUERY_KEY });
          }}
        />
      ) : null}
    </Stack>
  );
}
