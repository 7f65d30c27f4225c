import '@mantine/charts/styles.css';
import { DonutChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoader, api, formatMoney, unwrap, useFormat } from '@avatar-studio/shared';
import { usd } from '../common/money';
import { ANALYTICS_QUERY_KEY } from './IncomePage';
import { ReportButton } from './ReportButton';
import { CHART_COLORS, useAnalyticsRange } from './range';

/** /admin/analytics/products: Name, Purchases, Total per product and a donut of each one's income share. */
export function ProductsAnalyticsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const { picker, query } = useAnalyticsRange();
  const result = useQuery({
    queryKey: [...ANALYTICS_QUERY_KEY, 'products', query],
    queryFn: () => unwrap(api.GET('/api/analytics/purchases', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const data = result.data;
  const slices = (data?.products ?? [])
    .filter((p) => p.total > 0)
    .map((p, i) => ({ name: p.name, value: p.total / 100, color: CHART_COLORS[i % CHART_COLORS.length] }));

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('analytics.products.title')}
      </Title>
      <Group align="flex-end">
        {picker}
        <ReportButton
          path="/api/analytics/purchases/report"
          query={query}
          filename="purchases"
          label={t('analytics.report')}
        />
      </Group>
      {result.isPending ? (
        <PageLoader />
      ) : result.isError ? (
        <Text c="red" role="alert">
          {result.error.message}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder radius="md">
            <Table verticalSpacing="sm" aria-label={t('analytics.products.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('analytics.products.columns.name')}</Table.Th>
                  <Table.Th ta="right">{t('analytics.products.columns.purchases')}</Table.Th>
                  <Table.Th ta="right">{t('analytics.products.columns.total')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data!.products.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={3}>
                      <Text c="dimmed" ta="center" py="md">
                        {t('analytics.products.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  data!.products.map((p) => (
                    <Table.Tr key={String(p.product_id)}>
                      <Table.Td>{p.name}</Table.Td>
                      <Table.Td ta="right">{format.number(p.purchases)}</Table.Td>
                      <Table.Td ta="right">{usd(p.total)}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Paper>
          {slices.length ? (
            <Paper withBorder p="md" radius="md">
              <Stack align="center" role="figure" aria-label={t('analytics.products.chart')}>
                {/* The table beside it carries the same figures: the chart is drawing only, hidden and not focusable. */}
                <DonutChart
                  aria-hidden
                  pieChartProps={{ accessibilityLayer: false }}
                  pieProps={{ rootTabIndex: -1 }}
                  data={slices}
                  withLabels
                  withTooltip
                  valueFormatter={(value) => `$${formatMoney(value)}`}
                  chartLabel={usd(data!.total)}
                  size={200}
                  thickness={30}
                />
              </Stack>
            </Paper>
          ) : null}
        </SimpleGrid>
      )}
    </Stack>
  );
}
