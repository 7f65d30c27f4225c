import '@mantine/charts/styles.css';
import { DonutChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoader, api, formatMoney, unwrap, useFormat } from '@avatar-studio/shared';
import { usd } from '../common/money';
import { ReportButton } from './ReportButton';
import { CHART_COLORS, useAnalyticsRange } from './range';

export const ANALYTICS_QUERY_KEY = ['admin', 'analytics'] as const;

/** /admin/analytics/income: total income and payments, a table per payment method and its donut chart. */
export function IncomePage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const { picker, query } = useAnalyticsRange();
  const income = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'income', query],
    queryFn: () => unwrap(api.GET('/api/analytics/income', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const data = income.data;
  const methodName = (name: string | null) =>
    name ? t(`purchases.methods.${name}`, { defaultValue: name }) : t('analytics.income.unknownMethod');
  const slices = (data?.payment_methods ?? [])
    .filter((m) => m.total > 0)
    .map((m, i) => ({
      name: methodName(m.name),
      value: m.total / 100,
      color: CHART_COLORS[i % CHART_COLORS.length],
    }));

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('analytics.income.title')}
      </Title>
      <Group align="flex-end">
        {picker}
        <ReportButton
          path="/api/analytics/income/report"
          query={query}
          filename="income"
          label={t('analytics.report')}
        />
      </Group>
      {income.isPending ? (
        <PageLoader />
      ) : income.isError ? (
        <Text c="red" role="alert">
          {income.error.message}
        </Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Paper withBorder p="md" radius="md">
              <Text size="sm" c="dimmed">
                {t('analytics.income.totalIncome')}
              </Text>
              <Text fz="xl" fw={700} data-testid="total-income">
                {usd(data!.total_income)}
              </Text>
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Text size="sm" c="dimmed">
                {t('analytics.income.totalPayments')}
              </Text>
              <Text fz="xl" fw={700} data-testid="total-payments">
                {format.number(data!.total_payments)}
              </Text>
            </Paper>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder radius="md">
              <Table verticalSpacing="sm" aria-label={t('analytics.income.byMethod')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('analytics.income.columns.method')}</Table.Th>
                    <Table.Th ta="right">{t('analytics.income.columns.payments')}</Table.Th>
                    <Table.Th ta="right">{t('analytics.income.columns.total')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data!.payment_methods.length === 0 ? (
                    <Table.Tr>
                      <Table.Td colSpan={3}>
                        <Text c="dimmed" ta="center" py="md">
                          {t('analytics.income.empty')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    data!.payment_methods.map((m) => (
                      <Table.Tr key={String(m.payment_method_id)}>
                        <Table.Td>{methodName(m.name)}</Table.Td>
                        <Table.Td ta="right">{format.number(m.payments)}</Table.Td>
                        <Table.Td ta="right">{usd(m.total)}</Table.Td>
                      </Table.Tr>
                    ))
                  )}
                </Table.Tbody>
              </Table>
            </Paper>
            {slices.length ? (
              <Paper withBorder p="md" radius="md">
                <Stack align="center" gap="xs" role="figure" aria-label={t('analytics.income.chart')}>
                  {/* The table beside it carries the same figures: the chart is drawing only, hidden and not focusable. */}
                  <DonutChart
                    aria-hidden
                    pieChartProps={{ accessibilityLayer: false }}
                    pieProps={{ rootTabIndex: -1 }}
                    data={slices}
                    withLabels
                    withTooltip
                    valueFormatter={(value) => `$${formatMoney(value)}`}
                    chartLabel={usd(data!.total_income)}
                    size={200}
                    thickness={30}
                  />
                </Stack>
              </Paper>
            ) : null}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
