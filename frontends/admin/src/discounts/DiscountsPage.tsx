import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconBan, IconPencil, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import { useProductOptions } from '../purchases/PurchasesPage';
import { DiscountModal, type DiscountRow } from './DiscountModal';

export const DISCOUNTS_QUERY_KEY = ['admin', 'discounts'] as const;
const PAGE_SIZE = 20;

/** /admin/discounts: the codes with their usage; create, edit, disable. */
export function DiscountsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const queryClient = useQueryClient();
  const products = useProductOptions();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [pageState, setPageState] = useState({ page: 1, query: '' });
  const page = pageState.query === query ? pageState.page : 1;
  const [editing, setEditing] = useState<DiscountRow | 'new' | null>(null);
  const [disabling, setDisabling] = useState<DiscountRow | null>(null);

  const list = useQuery({
    queryKey: [...DISCOUNTS_QUERY_KEY, { page, query }],
    queryFn: () =>
      unwrap(
        api.GET('/api/discounts', {
          params: { query: { page, limit: PAGE_SIZE, ...(query ? { query } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: DISCOUNTS_QUERY_KEY });

  const disable = useMutation({
    mutationFn: (discount_id: number) =>
      unwrap(api.DELETE('/api/discounts/{discount_id}', { params: { path: { discount_id } } })),
    onSuccess: async () => {
      setDisabling(null);
      notifySuccess(t('discounts.disabledDone'));
      await invalidate();
    },
    onError: (error) => notifyError(error),
  });

  const productName = (id: number | null) =>
    id === null
      ? t('discounts.everyProduct')
      : (products.data?.find((p) => p.value === String(id))?.label ?? `#${id}`);
  const validity = (row: DiscountRow) => {
    const parts = [
      row.starts_at ? t('discounts.from', { date: format.date(row.starts_at) }) : null,
      row.expires_at ? t('discounts.until', { date: format.date(row.expires_at) }) : null,
    ].filter(Boolean);
    return parts.length ? parts.join(' ') : t('discounts.always');
  };

  const data = list.data;
  const rows = (data?.discounts ?? []) as unknown as DiscountRow[];
  const pages = data ? pageCount(data.total, data.limit) : 1;

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('discounts.title')}
        </Title>
        <Button onClick={() => setEditing('new')}>{t('discounts.add')}</Button>
      </Group>
      <TextInput
        aria-label={t('discounts.search')}
        placeholder={t('discounts.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        type="search"
        maw={420}
      />
      <PagedTable
        query={list}
        minWidth={760}
        head={
          <>
            <Table.Th>{t('discounts.columns.code')}</Table.Th>
            <Table.Th>{t('discounts.columns.amount')}</Table.Th>
            <Table.Th>{t('discounts.columns.product')}</Table.Th>
            <Table.Th>{t('discounts.columns.usage')}</Table.Th>
            <Table.Th>{t('discounts.columns.validity')}</Table.Th>
            <Table.Th>{t('discounts.columns.status')}</Table.Th>
            <Table.Th w={100}>
              <VisuallyHidden>{t('discounts.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
        columns={7}
        emptyText={t('discounts.empty')}
        rows={rows.map((row) => (
          <Table.Tr key={row.discount_id}>
            <Table.Td ff="monospace">{row.code}</Table.Td>
            <Table.Td>
              {row.type === 'percent'
                ? t('discounts.percentOff', { amount: row.amount })
                : t('discounts.amountOff', { amount: usd(row.amount) })}
            </Table.Td>
            <Table.Td>{productName(row.product_id)}</Table.Td>
            <Table.Td>
              {row.usage_limit === null
                ? t('discounts.usedUnlimited', { used: format.number(row.times_used) })
                : t('discounts.used', {
                    used: format.number(row.times_used),
                    limit: format.number(row.usage_limit),
                  })}
            </Table.Td>
            <Table.Td>{validity(row)}</Table.Td>
            <Table.Td>
              <Badge color={row.active ? 'green' : 'gray'} variant="light">
                {row.active ? t('discounts.active') : t('discounts.disabled')}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Tooltip label={t('discounts.edit', { code: row.code })}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('discounts.edit', { code: row.code })}
                    onClick={() => setEditing(row)}
                  >
                    <IconPencil size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                {row.active ? (
                  <Tooltip label={t('discounts.disable')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('discounts.disableLabel', { code: row.code })}
                      onClick={() => setDisabling(row)}
                    >
                      <IconBan size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ) : null}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
        totalLabel={data ? t('discounts.total', { count: data.total }) : undefined}
        page={page}
        pages={pages}
        onPageChange={(next) => setPageState({ page: next, query })}
      />

      {editing ? (
        <DiscountModal
          discount={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void invalidate();
          }}
        />
      ) : null}
      <Modal
        opened={disabling !== null}
        onClose={() => setDisabling(null)}
        title={t('discounts.disableTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('discounts.disableBody', { code: disabling?.code ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDisabling(null)}>
              {t('discounts.cancel')}
            </Button>
            <Button
              color="red"
              loading={disable.isPending}
              onClick={() => disabling && disable.mutate(disabling.discount_id)}
            >
              {t('discounts.disable')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
