import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { SignedIn, staffManager } from '../common/testing';
import { CustomersAnalyticsPage } from './CustomersAnalyticsPage';
import { IncomePage } from './IncomePage';
import { ProductsAnalyticsPage } from './ProductsAnalyticsPage';
import { currentMonth, rangeQuery } from './range';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

const range = { start_date: '2026-11-01T00:00:00.000Z', end_date: '2026-12-01T00:00:00.000Z' };

describe('analytics range', () => {
  it('defaults to the current month and sends the day after the last one picked as end_date', () => {
    expect(currentMonth(new Date(2026, 10, 25))).toEqual(['2026-11-01', '2026-11-30']);
    expect(rangeQuery(['2026-11-01', '2026-11-30'])).toEqual({
      start_date: '2026-11-01',
      end_date: '2026-12-01',
    });
  });
});

describe('Income analytics', () => {
  it('shows total income and payments in USD, the table per payment method and the donut', async () => {
    const { fetch } = renderWithProviders(
      <SignedIn>
        <IncomePage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/income': {
            body: {
              ...range,
              total_income: 173456,
              total_payments: 1234,
              payment_methods: [
                { payment_method_id: 3, name: 'cash', payments: 1, total: 123456 },
                { payment_method_id: 4, name: 'transfer', payments: 1233, total: 50000 },
              ],
            },
          },
        },
      },
    );
    expect(await screen.findByTestId('total-income')).toHaveTextContent('$1,734.56');
    expect(screen.getByTestId('total-payments')).toHaveTextContent('1,234');
    const table = screen.getByRole('table', { name: 'Payment methods' });
    const cash = within(table).getByText('Cash').closest('tr')!;
    expect(within(cash).getByText('$1,234.56')).toBeInTheDocument();
    expect(within(table).getByText('1,233')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Income by payment method' })).toBeInTheDocument();
    const [first, last] = currentMonth();
    expect(fetch.callsTo('GET /api/analytics/income')[0].query.get('start_date')).toBe(first);
    expect(fetch.callsTo('GET /api/analytics/income')[0].query.get('end_date')).toBe(
      rangeQuery([first, last]).end_date,
    );
  });

  it('downloads the CSV report of the range shown', async () => {
    const created: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: (blob: Blob) => {
        created.push(blob);
        return 'blob:report';
      },
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { fetch } = renderWithProviders(
      <SignedIn>
        <IncomePage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/income': {
            body: { ...range, total_income: 0, total_payments: 0, payment_methods: [] },
          },
          'GET /api/analytics/income/report': { body: 'payment_method,payments,total_usd\r\n' },
        },
      },
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(created).toHaveLength(1);
    expect(fetch.callsTo('GET /api/analytics/income/report')[0].query.get('start_date')).toBe(
      currentMonth()[0],
    );
    click.mockRestore();
  });

  it('says so when there were no payments, without a chart', async () => {
    renderWithProviders(
      <SignedIn>
        <IncomePage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/income': {
            body: { ...range, total_income: 0, total_payments: 0, payment_methods: [] },
          },
        },
      },
    );
    expect(await screen.findByText('No payments in this range.')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });
});

describe('Products analytics', () => {
  it('lists Name, Purchases and Total per product with the income share donut', async () => {
    renderWithProviders(
      <SignedIn>
        <ProductsAnalyticsPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/purchases': {
            body: {
              ...range,
              products: [
                { product_id: 1, name: 'Pro plan', purchases: 2, total: 123456 },
                { product_id: 2, name: 'Pack', purchases: 1, total: 50000 },
              ],
              total: 173456,
            },
          },
        },
      },
    );
    const row = (await screen.findByText('Pro plan')).closest('tr')!;
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(within(row).getByText('$1,234.56')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Income share per product' })).toBeInTheDocument();
  });
});

describe('Customers analytics', () => {
  const person = (user_id: number, date: string, extra = {}) => ({
    user_id,
    name: `Person${user_id}`,
    last_name: 'Test',
    email: `p${user_id}@example.com`,
    date,
    ...extra,
  });

  it('shows each group count and expands or hides its table, read a page at a time; cancelled shows the reason', async () => {
    const { fetch } = renderWithProviders(
      <SignedIn>
        <CustomersAnalyticsPage />
      </SignedIn>,
      {
        user: staffManager,
        routes: {
          'GET /api/analytics/customers': {
            body: { ...range, sign_ups: { count: 25 }, active: { count: 0 }, cancelled: { count: 1 } },
          },
          'GET /api/analytics/customers/sign_ups': ({ query }) => {
            const page = Number(query.get('page'));
            const first = (page - 1) * 20;
            return {
              body: {
                ...range,
                page,
                limit: 20,
                customers: Array.from({ length: Math.min(20, 25 - first) }, (_, i) =>
                  person(first + i + 1, '2026-11-03T12:00:00Z'),
                ),
              },
            };
          },
          'GET /api/analytics/customers/active': { body: { ...range, page: 1, limit: 20, customers: [] } },
          'GET /api/analytics/customers/cancelled': {
            body: {
              ...range,
              page: 1,
              limit: 20,
              customers: [
                person(2, '2026-11-04T12:00:00Z', {
                  product: 'Pro plan',
                  cancel_reason: 'Too expensive for now',
                }),
              ],
            },
          },
        },
      },
    );
    const ui = userEvent.setup();
    expect(await screen.findByText('25')).toBeInTheDocument();
    // Nothing of a table is read before its card is expanded.
    expect(screen.queryByText('p1@example.com')).not.toBeInTheDocument();
    expect(fetch.callsTo('GET /api/analytics/customers/sign_ups')).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Expand Sign Ups' }));
    const signUps = await screen.findByRole('table', { name: 'Sign Ups' });
    expect(await within(signUps).findByText('p1@example.com')).toBeInTheDocument();
    expect(screen.getByText('1–20 of 25, newest first')).toBeInTheDocument();
    expect(screen.getAllByText('Nov 03 2026')).toHaveLength(20);
    await ui.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('p25@example.com')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/analytics/customers/sign_ups').at(-1)!.query.get('start_date')).toBe(
      currentMonth()[0],
    );
    expect(screen.getByText('21–25 of 25, newest first')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Hide Sign Ups' }));
    expect(screen.queryByText('p25@example.com')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Expand Cancelled Customers' }));
    const cancelled = await screen.findByRole('table', { name: 'Cancelled Customers' });
    expect(await within(cancelled).findByText('Too expensive for now')).toBeInTheDocument();
    expect(within(cancelled).getByText('Pro plan')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Expand Active Customers' }));
    expect(await screen.findByText('Nobody in this range.')).toBeInTheDocument();
  });
});
