import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { SignedIn, staffManager } from '../common/testing';
import { ActivityPage } from './ActivityPage';
import { currentMonth } from './range';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

const range = { start_date: '2026-11-01T00:00:00.000Z', end_date: '2026-12-01T00:00:00.000Z' };

const routes = (over: Record<string, { body?: unknown; status?: number }> = {}) => ({
  'GET /api/analytics/free_trials': {
    body: {
      ...range,
      started: 1500,
      converted: 600,
      cancelled: 200,
      products: [{ product_id: 1, name: 'Pro plan', started: 1500, converted: 600, cancelled: 200 }],
    },
  },
  'GET /api/analytics/instructors': {
    body: {
      ...range,
      avatars_created: 12,
      conversations: 4321,
      avatars: [
        { avatar_id: 7, name: 'Math tutor', public: true, conversations: 4000, users: 900 },
        { avatar_id: 8, name: 'Coach', public: false, conversations: 321, users: 40 },
      ],
    },
  },
  'GET /api/analytics/reservations': {
    body: {
      ...range,
      expected_total: 1234567,
      renewals: {
        count: 250,
        total: 1000000,
        items: [
          {
            purchase_id: 5,
            user_id: 3,
            customer: 'Ana Avila',
            product: 'Pro plan',
            amount: 1900,
            date: '2026-11-20T12:00:00Z',
          },
        ],
      },
      open_invoices: { count: 0, total: 234567, items: [] },
    },
  },
  'GET /api/analytics/videos': {
    body: {
      ...range,
      plays: 52,
      tutorials: [{ tutorial_id: 1, name: 'Welcome', language: 'en', plays: 52, viewers: 30 }],
    },
  },
  ...over,
});

describe('Activity analytics', () => {
  it('shows free trials, avatars, expected income and tutorial plays of the current month', async () => {
    const { fetch } = renderWithProviders(
      <SignedIn>
        <ActivityPage />
      </SignedIn>,
      { user: staffManager, routes: routes() },
    );
    expect(await screen.findByTestId('trials-started')).toHaveTextContent('1,500');
    expect(screen.getByTestId('trials-converted')).toHaveTextContent('600');
    const trials = screen.getByRole('table', { name: 'Free trials' });
    expect(within(within(trials).getByText('Pro plan').closest('tr')!).getByText('200')).toBeInTheDocument();

    expect(await screen.findByTestId('avatar-conversations')).toHaveTextContent('4,321');
    const avatars = screen.getByRole('table', { name: 'Avatars' });
    expect(
      within(within(avatars).getByText('Math tutor').closest('tr')!).getByText('4,000'),
    ).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Conversations per avatar' })).toBeInTheDocument();

    expect(await screen.findByTestId('expected-total')).toHaveTextContent('$12,345.67');
    expect(screen.getByTestId('expected-renewals')).toHaveTextContent('250 · $10,000.00');
    const renewals = screen.getByRole('table', { name: 'Renewals due' });
    const ana = within(renewals).getByText('Ana Avila').closest('tr')!;
    expect(within(ana).getByText('Nov 20 2026')).toBeInTheDocument();
    expect(within(ana).getByText('$19.00')).toBeInTheDocument();
    expect(screen.getByText('The newest 1 of 250')).toBeInTheDocument();
    expect(screen.getByText('No open invoices fall due in this range.')).toBeInTheDocument();

    expect(await screen.findByTestId('video-plays')).toHaveTextContent('52');
    expect(screen.getByRole('figure', { name: 'Plays per tutorial' })).toBeInTheDocument();

    for (const path of ['free_trials', 'instructors', 'reservations', 'videos'])
      expect(fetch.callsTo(`GET /api/analytics/${path}`)[0].query.get('start_date')).toBe(currentMonth()[0]);
  });

  it('shows each section empty without a chart, and one failing section alone', async () => {
    renderWithProviders(
      <SignedIn>
        <ActivityPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: routes({
          'GET /api/analytics/instructors': {
            body: { ...range, avatars_created: 0, conversations: 0, avatars: [] },
          },
          'GET /api/analytics/videos': { status: 500, body: { message: 'Videos are unavailable.' } },
        }),
      },
    );
    expect(await screen.findByText('No avatar was used in this range.')).toBeInTheDocument();
    expect(screen.queryByRole('figure', { name: 'Conversations per avatar' })).not.toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Videos are unavailable.');
    expect(screen.getByTestId('trials-started')).toHaveTextContent('1,500');
  });

  it('downloads the avatars CSV report of the range shown', async () => {
    Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:report' });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { fetch } = renderWithProviders(
      <SignedIn>
        <ActivityPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: routes({ 'GET /api/analytics/instructors/report': { body: 'avatar_id,name\r\n' } }),
      },
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Avatars CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetch.callsTo('GET /api/analytics/instructors/report')[0].query.get('start_date')).toBe(
      currentMonth()[0],
    );
    click.mockRestore();
  });
});
