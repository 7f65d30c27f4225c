import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { en, es } from '../i18n';
import { SignedIn, staffAdmin, staffManager } from '../common/testing';
import { DashboardPage, queueScreen } from './DashboardPage';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

const figures = (over: Record<string, unknown> = {}) => ({
  sign_ups: { today: 3, month: 1200 },
  income: { today: 4999, month: 1234567 },
  payments: { today: 1, month: 40 },
  words_generated: { today: 1500, month: 2500000 },
  failed_payments: { today: 2, month: 5 },
  active_subscriptions: 321,
  pending_invoices: 4,
  webhook_failures: { count: 0, last: null },
  failed_jobs: [
    { queue: 'email', failed: 0 },
    { queue: 'payment-event', failed: 0 },
  ],
  ...over,
});

describe('Dashboard', () => {
  it("shows this month's figures with today's, links into the screens and what needs attention", async () => {
    renderWithProviders(
      <SignedIn>
        <DashboardPage />
      </SignedIn>,
      { user: staffManager, routes: { 'GET /api/analytics/dashboard': { body: figures() } } },
    );
    expect(await screen.findByText('$12,345.67')).toBeInTheDocument();
    expect(screen.getByText('This month · Today: $49.99')).toBeInTheDocument();
    expect(screen.getByText('1,200')).toBeInTheDocument();
    expect(screen.getByText('2,500,000')).toBeInTheDocument();
    expect(screen.getByText('321')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Income' })).toHaveAttribute(
      'href',
      '/admin/analytics/income',
    );
    expect(screen.getByRole('link', { name: '2 failed payments today' })).toHaveAttribute(
      'href',
      '/admin/purchases',
    );
    expect(screen.getByText('4 invoices waiting for payment')).toBeInTheDocument();
  });

  it('says when nothing needs attention', async () => {
    renderWithProviders(
      <SignedIn>
        <DashboardPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/dashboard': {
            body: figures({ failed_payments: { today: 0, month: 0 }, pending_invoices: 0 }),
          },
        },
      },
    );
    expect(await screen.findByText('Nothing needs attention.')).toBeInTheDocument();
  });

  it('lists failed webhooks and failed jobs per queue, each linking to the screen that fixes it', async () => {
    renderWithProviders(
      <SignedIn>
        <DashboardPage />
      </SignedIn>,
      {
        user: staffAdmin,
        routes: {
          'GET /api/analytics/dashboard': {
            body: figures({
              failed_payments: { today: 0, month: 0 },
              pending_invoices: 0,
              webhook_failures: { count: 3, last: '2026-11-20T10:30:00Z' },
              failed_jobs: [
                { queue: 'avatar-file-index', failed: 2 },
                { queue: 'email', failed: 1200 },
                { queue: 'payment-event', failed: 1 },
                { queue: 'product-webhook', failed: 0 },
              ],
            }),
          },
        },
      },
    );
    const webhooks = await screen.findByRole('link', {
      name: /^Payment webhooks failed in the last 7 days: 3 /,
    });
    expect(webhooks).toHaveAttribute('href', '/admin/purchases');
    expect(webhooks).toHaveTextContent('Nov 20 2026');
    expect(screen.getByRole('link', { name: 'Failed jobs, emails: 1,200' })).toHaveAttribute(
      'href',
      '/admin/settings',
    );
    expect(screen.getByRole('link', { name: 'Failed jobs, payment events: 1' })).toHaveAttribute(
      'href',
      '/admin/purchases',
    );
    // No screen fixes avatar file indexing: plain text; a queue without failures is not listed.
    expect(screen.getByText('Failed jobs, avatar file indexing: 2').tagName).not.toBe('A');
    expect(screen.queryByText(/product webhooks/)).not.toBeInTheDocument();
    expect(screen.queryByText('Nothing needs attention.')).not.toBeInTheDocument();
  });

  it('says when the job queues did not answer', async () => {
    renderWithProviders(
      <SignedIn>
        <DashboardPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: { 'GET /api/analytics/dashboard': { body: figures({ failed_jobs: null }) } },
      },
    );
    expect(
      await screen.findByText('The job queues did not answer; failed jobs are unknown.'),
    ).toBeInTheDocument();
  });

  it('links a queue only to a screen the role may open', () => {
    expect(queueScreen('email', { canMoney: true, canSettings: false })).toBeNull();
    expect(queueScreen('product-webhook', { canMoney: true, canSettings: false })).toBe('/admin/products');
    expect(queueScreen('payment-event', { canMoney: false, canSettings: true })).toBeNull();
    expect(queueScreen('training-run', { canMoney: true, canSettings: true })).toBeNull();
  });
});
