import {
  Anchor,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  PagedTable,
  pageCount,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useDebouncedValue,
  useFormat,
} from '@avatar-studio/shared';
import { usd } from '../common/money';

export const PRODUCTS_QUERY_KEY = ['admin', 'products'] as const;
const PAGE_SIZE = 20;
/** The columns the list sorts by. */
type Sort = 'product_id' | 'name' | 'word_amount' | 'price';

/** /admin/products: search (debounced 500 ms, only when non-empty), sortable columns, '+ Add', per-row Test. */
export function ProductsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [sort, setSort] = useState<{ by: Sort; direction: 'asc' | 'desc' }>({
    by: 'product_id',
    direction: 'asc',
  });
  const filterKey = `${query}|${sort.by}|${sort.direction}`;
  const [pageState, setPageState] = useState({ page: 1, filterKey });
  const page = pageState.filterKey === filterKey ? pageState.page : 1;

  const list = useQuery({
    queryKey: [...PRODUCTS_QUERY_KEY, { page, query, sort }],
    queryFn: () =>
      unwrap(
        api.GET('/api/products', {
          params: {
            query: {
              page,
              limit: PAGE_SIZE,
              sort: sort.by,
              direction: sort.direction,
              ...(query ? { query } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const test = useMutation({
    mutationFn: (product_id: number) => unwrap(api.POST('/api/purchases/test', { body: { product_id } })),
    onSuccess: () => notifySuccess(t('products.testQueued')),
    onError: (error) => notifyError(error),
  });

  const toggleSort = (by: Sort) =>
    setSort((current) => ({
      by,
      direction: current.by === by && current.direction === 'asc' ? 'desc' : 'asc',
    }));

  const header = (column: Sort, align?: 'right') => {
    const Icon =
      sort.by !== column ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
    return (
      <Table.Th
        ta={align}
        aria-sort={sort.by === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      >
        <UnstyledButton
          onClick={() => toggleSort(column)}
          aria-label={t('products.sortBy', { column: t(`products.columns.${column}`) })}
        >
          <Group gap={4} wrap="nowrap" justify={align === 'right' ? 'flex-end' : undefined}>
            <Text size="sm" fw={600}>
              {t(`products.columns.${column}`)}
            </Text>
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  const data = list.data;
  const rows = data?.products ?? [];
  const pages = data ? pageCount(data.total, data.limit) : 1;

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('products.title')}
        </Title>
        <Button component={Link} to="/admin/products/new/edit">
          {t('products.add')}
        </Button>
      </Group>
      <TextInput
        aria-label={t('products.search')}
        placeholder={t('products.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        type="search"
        maw={420}
      />
      <PagedTable
        query={list}
        minWidth={640}
        head={
          <>
            {header('product_id')}
            {header('name')}
            {header('word_amount', 'right')}
            {header('price', 'right')}
            <Table.Th>{t('products.columns.available')}</Table.Th>
            <Table.Th w={90}>
              <VisuallyHidden>{t('products.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
        columns={6}
        emptyText={t('products.empty')}
        rows={rows.map((row) => (
          <Table.Tr key={row.product_id}>
            <Table.Td>{row.product_id}</Table.Td>
            <Table.Td>
              <Anchor
                component={Link}
                to={`/admin/products/${row.product_id}/edit`}
                aria-label={t('products.edit', { name: row.name })}
              >
                {row.name}
              </Anchor>
            </Table.Td>
            <Table.Td ta="right">
              {row.word_amount === null ? t('products.unlimited') : format.number(row.word_amount)}
            </Table.Td>
            <Table.Td ta="right">{usd(row.sale_price ?? row.price)}</Table.Td>
            <Table.Td>{row.available ? t('products.yes') : t('products.no')}</Table.Td>
            <Table.Td>
              {row.webhook_url ? (
                <Button
                  size="xs"
                  variant="light"
                  aria-label={t('products.testLabel', { name: row.name })}
                  loading={test.isPending && test.variables === row.product_id}
                  onClick={() => test.mutate(row.product_id)}
                >
                  {t('products.test')}
                </Button>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
        totalLabel={data ? t('products.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={(next) => setPageState({ page: next, filterKey })}
      />
    </Stack>
  );
}
