import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader, PagedTable, api, pageCount, unwrap, useFormat } from '@avatar-studio/shared';
import { ANALYTICS_QUERY_KEY } from './IncomePage';
import { ReportButton } from './ReportButton';
import { useAnalyticsRange } from './range';

type Group = 'sign_ups' | 'active' | 'cancelled';
const GROUPS: { key: Group; label: 'signUps' | 'active' | 'cancelled' }[] = [
  { key: 'sign_ups', label: 'signUps' },
  { key: 'active', label: 'active' },
  { key: 'cancelled', label: 'cancelled' },
];

type RangeQuery = ReturnType<typeof useAnalyticsRange>['query'];

/** One card's customers, a page at a time, newest first; read when the card is expanded. */
function CustomerGroupTable({
  group,
  name,
  count,
  query,
}: {
  group: Group;
  name: string;
  count: number;
  query: RangeQuery;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'customers', group, query, page],
    queryFn: () =>
      unwrap(
        api.GET('/api/analytics/customers/{group}', {
          params: { path: { group }, query: { ...query, page } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const cancelled = group === 'cancelled';
  const limit = list.data?.limit ?? 1;
  return (
    <PagedTable
      label={name}
      query={list}
      minWidth={560}
      highlightOnHover={false}
      head={
        <>
          <Table.Th>{t('analytics.customers.columns.name')}</Table.Th>
          <Table.Th>{t('analytics.customers.columns.email')}</Table.Th>
          <Table.Th>{t('analytics.customers.columns.date')}</Table.Th>
          {cancelled ? (
            <>
              <Table.Th>{t('analytics.customers.columns.product')}</Table.Th>
              <Table.Th>{t('analytics.customers.columns.reason')}</Table.Th>
            </>
          ) : null}
        </>
      }
      columns={cancelled ? 5 : 3}
      emptyText={t('analytics.customers.empty')}
      rows={(list.data?.customers ?? []).map((c, i) => (
        <Table.Tr key={`${c.user_id}-${i}`}>
          <Table.Td>{`${c.name} ${c.last_name}`.trim()}</Table.Td>
          <Table.Td>{c.email}</Table.Td>
          <Table.Td>{format.date(c.date)}</Table.Td>
          {cancelled ? (
            <>
              <Table.Td>{c.product ?? ''}</Table.Td>
              <Table.Td>{c.cancel_reason ?? ''}</Table.Td>
            </>
          ) : null}
        </Table.Tr>
      ))}
      // Which rows are shown, of the page on screen (the previous one stays while the next is read); an empty
      // page keeps its pager, to go back.
      totalLabel={
        list.data === undefined
          ? undefined
          : list.data.customers.length
            ? t('analytics.customers.pageShown', {
                from: format.number((list.data.page - 1) * limit + 1),
                to: format.number((list.data.page - 1) * limit + list.data.customers.length),
                count: format.number(count),
              })
            : ''
      }
      page={page}
      pages={pageCount(count, limit)}
      onPageChange={setPage}
    />
  );
}

/** /admin/analytics/customers: Sign Ups, Active and Cancelled cards, each with its count and a table to expand. */
export function CustomersAnalyticsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const { picker, query } = useAnalyticsRange();
  const [open, setOpen] = useState<Record<Group, boolean>>({
    sign_ups: false,
    active: false,
    cancelled: false,
  });
  const result = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'customers', query],
    queryFn: () => unwrap(api.GET('/api/analytics/customers', { params: { query } })),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('analytics.customers.title')}
      </Title>
      <Group align="flex-end">
        {picker}
        <ReportButton
          path="/api/analytics/customers/report"
          query={query}
          filename="sign-ups"
          label={t('analytics.signUpsReport')}
        />
      </Group>
      {result.isPending ? (
        <PageLoader />
      ) : result.isError ? (
        <Text c="red" role="alert">
          {result.error.message}
        </Text>
      ) : (
        GROUPS.map(({ key, label }) => {
          const group = result.data[key];
          const name = t(`analytics.customers.${label}`);
          return (
            <Paper key={key} withBorder p="md" radius="md">
              <Stack gap="sm">
                <Group justify="space-between">
                  <div>
                    <Title order={2} size="h4">
                      {name}
                    </Title>
                    <Text fz="xl" fw={700}>
                      {format.number(group.count)}
                    </Text>
                  </div>
                  <Button
                    variant="light"
                    aria-expanded={open[key]}
                    aria-label={t(
                      open[key] ? 'analytics.customers.hideLabel' : 'analytics.customers.expandLabel',
                      {
                        group: name,
                      },
                    )}
                    onClick={() => setOpen((current) => ({ ...current, [key]: !current[key] }))}
                  >
                    {open[key] ? t('analytics.customers.hide') : t('analytics.customers.expand')}
                  </Button>
                </Group>
                {open[key] ? (
                  <CustomerGroupTable
                    // A new range starts the table again at its first page.
                    key={JSON.stringify(query)}
                    group={key}
                    name={name}
                    count={group.count}
                    query={query}
                  />
                ) : null}
              </Stack>
            </Paper>
          );
        })
      )}
    </Stack>
  );
}
