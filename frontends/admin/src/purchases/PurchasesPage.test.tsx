import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, type MockCall } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { SignedIn, pick, staffAdmin, staffManager } from '../common/testing';
import { PurchasesPage as Page } from './PurchasesPage';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

const PurchasesPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(() => {
  notifications.clean();
  jest.useRealTimers();
});

function purchase(purchase_id: number, status = 'active', extra: Record<string, unknown> = {}) {
  return {
    purchase_id,
    user_id: 10,
    product_id: 1,
    organization_id: null,
    status,
    amount: 123456,
    currency: 'usd',
    expiration_days: 30,
    expires_at: null,
    is_gift: false,
    payment_method_id: 1,
    cancel_reason: null,
    discount: null,
    subscription_id: null,
    free_trial_length: null,
    subscription_interval: null,
    subscription_period: null,
    payment_processor_id: null,
    current_period_end: null,
    cancel_at_period_end: false,
    refunded_amount: 0,
    createdAt: '2026-03-04T12:00:00.000Z',
    updatedAt: '2026-03-04T12:00:00.000Z',
    product: { product_id: 1, name: 'Pro plan' },
    user: { user_id: 10, name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
    ...extra,
  };
}

/** GET /api/purchases/admin over 30 purchases, 12 a page. */
function purchaseList(call: MockCall) {
  const page = Number(call.query.get('page') ?? 1);
  const all = Array.from({ length: 30 }, (_, i) => purchase(i + 1, i === 1 ? 'cancelled' : 'active'));
  return { body: { purchases: all.slice((page - 1) * 12, page * 12), total: 30, page, limit: 12 } };
}

const routes = {
  'GET /api/purchases/admin': purchaseList,
  'GET /api/products': {
    body: {
      products: [
        { product_id: 1, name: 'Pro plan' },
        { product_id: 2, name: 'Starter' },
      ],
      total: 2,
      page: 1,
      limit: 200,
    },
  },
};
const listCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/purchases/admin');

describe('Purchases', () => {
  it('lists purchases with customer, product, USD amount, method and status', async () => {
    renderWithProviders(<PurchasesPage />, { user: staffAdmin, routes });
    const row = (await screen.findByText('1', { selector: 'td' })).closest('tr')!;
    expect(within(row).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(row).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Pro plan')).toBeInTheDocument();
    expect(within(row).getByText('$1,234.56')).toBeInTheDocument();
    expect(within(row).getByText('Card')).toBeInTheDocument();
    expect(within(row).getByText('Mar 04 2026')).toBeInTheDocument();
    expect(screen.getByText('30 purchases')).toBeInTheDocument();
  });

  it('filters by status button, type and product, and pages 12 at a time from page 1', async () => {
    const { fetch } = renderWithProviders(<PurchasesPage />, { user: staffAdmin, routes });
    const ui = userEvent.setup();
    await screen.findByText('30 purchases');
    await ui.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('page')).toBe('2'));

    await ui.click(screen.getByRole('button', { name: 'Failed' }));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('status')).toBe('failed'));
    expect(listCalls(fetch.calls).at(-1)!.query.get('page')).toBe('1');
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute('aria-pressed', 'true');

    await pick(ui, screen.getByRole('textbox', { name: 'Type' }), 'Invoices');
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('type')).toBe('invoices'));
    await pick(ui, screen.getByRole('textbox', { name: 'Product' }), 'Starter');
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('product_id')).toBe('2'));
  });

  it('searches 500 ms after the last keystroke', async () => {
    jest.useFakeTimers();
    const { fetch } = renderWithProviders(<PurchasesPage />, { user: staffAdmin, routes });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await screen.findByText('30 purchases');
    await ui.type(screen.getByRole('searchbox', { name: 'Search' }), 'grace');
    act(() => jest.advanceTimersByTime(499));
    expect(listCalls(fetch.calls).filter((c) => c.query.has('query'))).toHaveLength(0);
    act(() => jest.advanceTimersByTime(1));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('query')).toBe('grace'));
  });

  it('edits a purchase: cancelling warns, needs a reason and sends PUT /api/purchases/admin', async () => {
    const { fetch } = renderWithProviders(<PurchasesPage />, {
      user: staffAdmin,
      routes: { ...routes, 'PUT /api/purchases/admin': { body: { purchase: purchase(1, 'cancelled') } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit order 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit order 1' });
    await pick(ui, within(dialog).getByRole('textbox', { name: 'Status' }), 'cancelled');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      /keeps the benefits until the purchase expires/,
    );
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await ui.type(within(dialog).getByRole('textbox', { name: /Cancel reason/ }), 'Customer asked for it');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Purchase updated.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/purchases/admin')[0].body).toEqual({
      purchase_id: 1,
      status: 'cancelled',
      cancel_reason: 'Customer asked for it',
      expiration_days: 30,
      amount: 123456,
    });
  });

  it('offers only cancelled and revoked for a cancelled purchase, and warns that revoking ends access', async () => {
    renderWithProviders(<PurchasesPage />, { user: staffAdmin, routes });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit order 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit order 2' });
    const select = within(dialog).getByRole('textbox', { name: 'Status' });
    await ui.click(select);
    await waitFor(() => expect(select).toHaveAttribute('aria-controls'));
    const listbox = document.getElementById(select.getAttribute('aria-controls')!)!;
    expect(
      within(listbox)
        .getAllByRole('option', { hidden: true })
        .map((o) => o.textContent),
    ).toEqual(['cancelled', 'revoked']);
    await ui.click(within(listbox).getByRole('option', { name: 'revoked', hidden: true }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Access ends immediately.');
  });

  it('warns that making a pending purchase active grants access at once', async () => {
    renderWithProviders(<PurchasesPage />, {
      user: staffAdmin,
      routes: {
        ...routes,
        'GET /api/purchases/admin': {
          body: { purchases: [purchase(5, 'pending')], total: 1, page: 1, limit: 12 },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit order 5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit order 5' });
    await pick(ui, within(dialog).getByRole('textbox', { name: 'Status' }), 'active');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Access and credits are granted immediately.',
    );
  });

  it('does not offer editing to a manager', async () => {
    renderWithProviders(<PurchasesPage />, { user: staffManager, routes });
    await screen.findByText('30 purchases');
    expect(screen.queryByRole('button', { name: 'Edit order 1' })).not.toBeInTheDocument();
  });
});
