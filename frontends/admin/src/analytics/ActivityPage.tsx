import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader, api, unwrap, useFormat } from '@avatar-studio/shared';
import { usd } from '../common/money';
import { ANALYTICS_QUERY_KEY } from './IncomePage';
import { ReportButton } from './ReportButton';
import { useAnalyticsRange } from './range';

type Range = { start_date: string; end_date: string };

/** Bars show at most this many rows (the tables list every row the API answers). */
const CHART_ROWS = 10;

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

/** One section: its title, its own loading and error state, then its content. */
function Section({
  title,
  query,
  actions,
  children,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: Error | null };
  actions?: ReactNode;
  children: () => ReactNode;
}) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {title}
        </Title>
        {actions}
      </Group>
      {query.isPending ? (
        <PageLoader />
      ) : query.isError ? (
        <Text c="red" role="alert">
          {query.error?.message}
        </Text>
      ) : (
        children()
      )}
    </Stack>
  );
}

function EmptyRow({ span, text }: { span: number; text: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={span}>
        <Text c="dimmed" ta="center" py="md">
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

function Bars({
  label,
  data,
  series,
}: {
  label: string;
  data: Record<string, string | number>[];
  series: string;
}) {
  if (!data.length) return null;
  return (
    <Paper withBorder p="md" radius="md" role="figure" aria-label={label}>
      <BarChart
        h={Math.max(120, data.length * 36)}
        data={data}
        dataKey="name"
        orientation="vertical"
        yAxisProps={{ width: 140 }}
        series={[{ name: series, color: 'blue.6' }]}
        withTooltip
      />
    </Paper>
  );
}

function FreeTrials({ query }: { query: Range }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const trials = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'free_trials', query],
    queryFn: () => unwrap(api.GET('/api/analytics/free_trials', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t('analytics.activity.trials.title')} query={trials}>
      {() => {
        const d = trials.data!;
        return (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Figure
                label={t('analytics.activity.trials.started')}
                value={format.number(d.started)}
                testId="trials-started"
              />
              <Figure
                label={t('analytics.activity.trials.converted')}
                value={format.number(d.converted)}
                testId="trials-converted"
              />
              <Figure
                label={t('analytics.activity.trials.cancelled')}
                value={format.number(d.cancelled)}
                testId="trials-cancelled"
              />
            </SimpleGrid>
            <Paper withBorder radius="md">
              <Table verticalSpacing="sm" aria-label={t('analytics.activity.trials.title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('analytics.activity.columns.product')}</Table.Th>
                    <Table.Th ta="right">{t('analytics.activity.trials.started')}</Table.Th>
                    <Table.Th ta="right">{t('analytics.activity.trials.converted')}</Table.Th>
                    <Table.Th ta="right">{t('analytics.activity.trials.cancelled')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.products.length === 0 ? (
                    <EmptyRow span={4} text={t('analytics.activity.trials.empty')} />
                  ) : (
                    d.products.map((p) => (
                      <Table.Tr key={p.product_id}>
                        <Table.Td>{p.name}</Table.Td>
                        <Table.Td ta="right">{format.number(p.started)}</Table.Td>
                        <Table.Td ta="right">{format.number(p.converted)}</Table.Td>
                        <Table.Td ta="right">{format.number(p.cancelled)}</Table.Td>
                      </Table.Tr>
                    ))
                  )}
                </Table.Tbody>
              </Table>
            </Paper>
          </>
        );
      }}
    </Section>
  );
}

function Avatars({ query }: { query: Range }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const avatars = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'instructors', query],
    queryFn: () => unwrap(api.GET('/api/analytics/instructors', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const series = t('analytics.activity.avatars.conversations');
  return (
    <Section
      title={t('analytics.activity.avatars.title')}
      query={avatars}
      actions={
        <ReportButton
          path="/api/analytics/instructors/report"
          query={query}
          filename="avatars"
          label={t('analytics.activity.avatars.report')}
        />
      }
    >
      {() => {
        const d = avatars.data!;
        return (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Figure
                label={t('analytics.activity.avatars.conversations')}
                value={format.number(d.conversations)}
                testId="avatar-conversations"
              />
              <Figure
                label={t('analytics.activity.avatars.created')}
                value={format.number(d.avatars_created)}
                testId="avatars-created"
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Paper withBorder radius="md">
                <Table verticalSpacing="sm" aria-label={t('analytics.activity.avatars.title')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('analytics.activity.columns.avatar')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.avatars.conversations')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.avatars.users')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.avatars.length === 0 ? (
                      <EmptyRow span={3} text={t('analytics.activity.avatars.empty')} />
                    ) : (
                      d.avatars.map((a) => (
                        <Table.Tr key={a.avatar_id}>
                          <Table.Td>{a.name}</Table.Td>
                          <Table.Td ta="right">{format.number(a.conversations)}</Table.Td>
                          <Table.Td ta="right">{format.number(a.users)}</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                </Table>
              </Paper>
              <Bars
                label={t('analytics.activity.avatars.chart')}
                series={series}
                data={d.avatars
                  .slice(0, CHART_ROWS)
                  .map((a) => ({ name: a.name, [series]: a.conversations }))}
              />
            </SimpleGrid>
          </>
        );
      }}
    </Section>
  );
}

function Expected({ query }: { query: Range }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const expected = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'reservations', query],
    queryFn: () => unwrap(api.GET('/api/analytics/reservations', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t('analytics.activity.expected.title')} query={expected}>
      {() => {
        const d = expected.data!;
        const shown = (count: number, items: number) =>
          count > items ? (
            <Text size="xs" c="dimmed">
              {t('analytics.customers.shown', { shown: format.number(items), count: format.number(count) })}
            </Text>
          ) : null;
        return (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Figure
                label={t('analytics.activity.expected.total')}
                value={usd(d.expected_total)}
                testId="expected-total"
              />
              <Figure
                label={t('analytics.activity.expected.renewals')}
                value={`${format.number(d.renewals.count)} · ${usd(d.renewals.total)}`}
                testId="expected-renewals"
              />
              <Figure
                label={t('analytics.activity.expected.invoices')}
                value={`${format.number(d.open_invoices.count)} · ${usd(d.open_invoices.total)}`}
                testId="expected-invoices"
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Paper withBorder radius="md">
                <Table verticalSpacing="sm" aria-label={t('analytics.activity.expected.renewals')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('analytics.activity.columns.due')}</Table.Th>
                      <Table.Th>{t('analytics.activity.columns.customer')}</Table.Th>
                      <Table.Th>{t('analytics.activity.columns.product')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.columns.amount')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.renewals.items.length === 0 ? (
                      <EmptyRow span={4} text={t('analytics.activity.expected.noRenewals')} />
                    ) : (
                      d.renewals.items.map((r) => (
                        <Table.Tr key={r.purchase_id}>
                          <Table.Td>{format.date(r.date)}</Table.Td>
                          <Table.Td>{r.customer ?? t('analytics.activity.deletedCustomer')}</Table.Td>
                          <Table.Td>{r.product}</Table.Td>
                          <Table.Td ta="right">{usd(r.amount)}</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                </Table>
                {shown(d.renewals.count, d.renewals.items.length)}
              </Paper>
              <Paper withBorder radius="md">
                <Table verticalSpacing="sm" aria-label={t('analytics.activity.expected.invoices')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('analytics.activity.columns.due')}</Table.Th>
                      <Table.Th>{t('analytics.activity.columns.customer')}</Table.Th>
                      <Table.Th>{t('analytics.activity.columns.description')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.columns.amount')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.open_invoices.items.length === 0 ? (
                      <EmptyRow span={4} text={t('analytics.activity.expected.noInvoices')} />
                    ) : (
                      d.open_invoices.items.map((i) => (
                        <Table.Tr key={i.invoice_id}>
                          <Table.Td>{format.date(i.date)}</Table.Td>
                          <Table.Td>{i.customer ?? t('analytics.activity.deletedCustomer')}</Table.Td>
                          <Table.Td>{i.description ?? ''}</Table.Td>
                          <Table.Td ta="right">{usd(i.amount)}</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                </Table>
                {shown(d.open_invoices.count, d.open_invoices.items.length)}
              </Paper>
            </SimpleGrid>
          </>
        );
      }}
    </Section>
  );
}

function Videos({ query }: { query: Range }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const videos = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'videos', query],
    queryFn: () => unwrap(api.GET('/api/analytics/videos', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const series = t('analytics.activity.videos.plays');
  return (
    <Section title={t('analytics.activity.videos.title')} query={videos}>
      {() => {
        const d = videos.data!;
        return (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Figure
                label={t('analytics.activity.videos.plays')}
                value={format.number(d.plays)}
                testId="video-plays"
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Paper withBorder radius="md">
                <Table verticalSpacing="sm" aria-label={t('analytics.activity.videos.title')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('analytics.activity.columns.tutorial')}</Table.Th>
                      <Table.Th>{t('analytics.activity.columns.language')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.videos.plays')}</Table.Th>
                      <Table.Th ta="right">{t('analytics.activity.videos.viewers')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.tutorials.length === 0 ? (
                      <EmptyRow span={4} text={t('analytics.activity.videos.empty')} />
                    ) : (
                      d.tutorials.map((v) => (
                        <Table.Tr key={v.tutorial_id}>
                          <Table.Td>{v.name}</Table.Td>
                          <Table.Td>{v.language.toUpperCase()}</Table.Td>
                          <Table.Td ta="right">{format.number(v.plays)}</Table.Td>
                          <Table.Td ta="right">{format.number(v.viewers)}</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                </Table>
              </Paper>
              <Bars
                label={t('analytics.activity.videos.chart')}
                series={series}
                data={d.tutorials.slice(0, CHART_ROWS).map((v) => ({ name: v.name, [series]: v.plays }))}
              />
            </SimpleGrid>
          </>
        );
      }}
    </Section>
  );
}

/**
 * /admin/analytics/activity: free trials begun, avatars and their use, money expected (renewals and open
 * invoices falling due) and tutorial plays, over one date range.
 */
export function ActivityPage() {
  const { t } = useTranslation('admin');
  const { picker, query } = useAnalyticsRange();
  return (
    <Stack gap="lg" p="md">
      <Title order={1} size="h2">
        {t('analytics.activity.title')}
      </Title>
      <Group align="flex-end">{picker}</Group>
      <FreeTrials query={query} />
      <Avatars query={query} />
      <Expected query={query} />
      <Videos query={query} />
    </Stack>
  );
}
