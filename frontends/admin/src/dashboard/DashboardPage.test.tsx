import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { en, es } from '../i18n';
import { SignedIn, staffManager } from '../common/testing';
import { DashboardPage } from './DashboardPage';

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
});
