import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageLoader, api, unwrap, useCan, useFormat } from '@avatar-studio/shared';
import { usd } from '../common/money';
import { SetupChecklist } from '../setup/SetupChecklist';

export const DASHBOARD_QUERY_KEY = ['admin', 'dashboard'] as const;

function Figure({ label, today, month, to }: { label: string; today: string; month: string; to?: string }) {
  const { t } = useTranslation('admin');
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          {to ? (
            <Anchor component={Link} to={to} size="xs" aria-label={`${t('dashboard.open')} ${label}`}>
              {t('dashboard.open')}
            </Anchor>
          ) : null}
        </Group>
        <Text fz="xl" fw={700}>
          {month}
        </Text>
        <Text size="xs" c="dimmed">
          {t('dashboard.month')} · {t('dashboard.today')}: {today}
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * Where staff fix what makes a queue's jobs fail: payment events and purchases, product webhooks and their
 * products, mail and its settings; other queues (avatar files, trainings) have no back-office screen.
 */
export function queueScreen(queue: string, can: { canMoney: boolean; canSettings: boolean }): string | null {
  if (queue === 'payment-event') return can.canMoney ? '/admin/purchases' : null;
  if (queue === 'product-webhook') return can.canMoney ? '/admin/products' : null;
  if (queue === 'email') return can.canSettings ? '/admin/settings' : null;
  return null;
}

/** /admin: today's and this month's figures, with links into the screens, and what needs attention. */
export function DashboardPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const canMoney = useCan('billing.view');
  const canSettings = useCan('appconfig.edit');
  const dashboard = useQuery({
    queryKey: DASHBOARD_QUERY_KEY,
    queryFn: () => unwrap(api.GET('/api/analytics/dashboard')),
  });
  if (dashboard.isPending) return <PageLoader />;
  if (dashboard.isError)
    return (
      <Text c="red" p="md" role="alert">
        {dashboard.error.message}
      </Text>
    );
  const d = dashboard.data;
  const attention: ReactNode[] = [];
  if (d.failed_payments.today > 0)
    attention.push(
      <Anchor key="failed" component={Link} to="/admin/purchases">
        {t('dashboard.failedToday', { count: d.failed_payments.today })}
      </Anchor>,
    );
  if (d.pending_invoices > 0)
    attention.push(
      <Text key="invoices" size="sm">
        {t('dashboard.pendingInvoices', { count: d.pending_invoices })}
      </Text>,
    );
  if (d.webhook_failures.count > 0) {
    const text = t('dashboard.webhookFailures', {
      n: format.number(d.webhook_failures.count),
      when: d.webhook_failures.last ? format.dateTime(d.webhook_failures.last) : '',
    });
    attention.push(
      canMoney ? (
        <Anchor key="webhooks" component={Link} to="/admin/purchases" size="sm">
          {text}
        </Anchor>
      ) : (
        <Text key="webhooks" size="sm">
          {text}
        </Text>
      ),
    );
  }
  for (const { queue, failed } of d.failed_jobs ?? []) {
    if (failed === 0) continue;
    const text = t('dashboard.failedJobs', {
      n: format.number(failed),
      queue: t(`dashboard.queues.${queue}`, { defaultValue: queue }),
    });
    const to = queueScreen(queue, { canMoney, canSettings });
    attention.push(
      to ? (
        <Anchor key={`jobs-${queue}`} component={Link} to={to} size="sm">
          {text}
        </Anchor>
      ) : (
        <Text key={`jobs-${queue}`} size="sm">
          {text}
        </Text>
      ),
    );
  }
  if (d.failed_jobs === null)
    attention.push(
      <Text key="jobs-unknown" size="sm" c="dimmed">
        {t('dashboard.jobsUnknown')}
      </Text>,
    );

  return (
    <Stack gap="md" p="md">
      <Title order={1} size="h2">
        {t('dashboard.title')}
      </Title>
      <SetupChecklist />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Figure
          label={t('dashboard.signUps')}
          today={format.number(d.sign_ups.today)}
          month={format.number(d.sign_ups.month)}
          to="/admin/analytics/customers"
        />
        <Figure
          label={t('dashboard.income')}
          today={usd(d.income.today)}
          month={usd(d.income.month)}
          to="/admin/analytics/income"
        />
        <Figure
          label={t('dashboard.payments')}
          today={format.number(d.payments.today)}
          month={format.number(d.payments.month)}
          to={canMoney ? '/admin/purchases' : undefined}
        />
        <Figure
          label={t('dashboard.words')}
          today={format.number(d.words_generated.today)}
          month={format.number(d.words_generated.month)}
        />
        <Figure
          label={t('dashboard.failed')}
          today={format.number(d.failed_payments.today)}
          month={format.number(d.failed_payments.month)}
          to={canMoney ? '/admin/purchases' : undefined}
        />
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('dashboard.activeSubscriptions')}
          </Text>
          <Text fz="xl" fw={700}>
            {format.number(d.active_subscriptions)}
          </Text>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="xs">
          {t('dashboard.attention')}
        </Title>
        {attention.length ? (
          <Stack gap={4}>{attention}</Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('dashboard.nothing')}
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
