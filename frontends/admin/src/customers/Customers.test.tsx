import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, type MockCall } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { en, es } from '../i18n';
import { SignedIn, pick, staffAdmin, staffManager } from '../common/testing';
import { CustomerPage } from './CustomerPage';
import { CustomersPage } from './CustomersPage';
import { EditCustomerPage } from './EditCustomerForm';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  notifications.clean();
  jest.useRealTimers();
});

const Screens = () => (
  <SignedIn>
    <Routes>
      <Route path="/admin/users" element={<CustomersPage />} />
      <Route path="/admin/users/:user_id" element={<CustomerPage />} />
      <Route path="/admin/users/:user_id/edit" element={<EditCustomerPage />} />
    </Routes>
  </SignedIn>
);

function row(user_id: number) {
  return {
    user_id,
    name: `Name${user_id}`,
    last_name: `Last${user_id}`,
    email: `person${user_id}@example.com`,
    phone: '5551234567',
    value: 1234.5,
    staff_role: null,
    createdAt: '2026-03-04T12:00:00.000Z',
  };
}

/** GET /api/users/admin/all over 600 users, 50 a page (12 pages). */
function userList(call: MockCall) {
  const page = Number(call.query.get('page') ?? 1);
  const users = Array.from({ length: 50 }, (_, i) => row((page - 1) * 50 + i + 1));
  return { body: { users, total: 600, page, limit: 50 } };
}
const listCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/users/admin/all');

const customer = {
  user_id: 7,
  uid: 'u7',
  name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  phone: '5551234567',
  company: 'Navy',
  lang: 'en',
  has_access: true,
  staff: null,
  value: 99.5,
  signup_reason: 'Recommendation',
  last_used: null,
  createdAt: '2026-03-04T12:00:00.000Z',
  updatedAt: '2026-03-04T12:00:00.000Z',
};
const purchase = {
  purchase_id: 31,
  user_id: 7,
  product_id: 3,
  status: 'completed',
  amount: 0,
  is_gift: true,
  payment_method_id: 5,
  expiration_days: null,
  cancel_reason: null,
  createdAt: '2026-03-05T12:00:00.000Z',
  product: { product_id: 3, name: 'Words 5k' },
};
const detailRoutes = {
  'GET /api/users/7/admin': {
    body: {
      user: customer,
      balance: { words: 5000, unlimited: false, display_balance: 5000, has_access: true },
      organizations: [{ organization_id: 5, name: 'Navy Labs', slug: 'navy-labs', role: 'Manager' }],
    },
  },
  'GET /api/users/7/admin/ledger': {
    body: {
      entries: [
        {
          entry_id: 1,
          kind: 'grant',
          words: 5000,
          unlimited: false,
          source: 'gift',
          reference: 'purchase:31',
          organization_id: null,
          expires_at: null,
          createdAt: '2026-03-05T12:00:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      limit: 20,
    },
  },
  'GET /api/purchases/admin': { body: { purchases: [purchase], total: 1, page: 1, limit: 100 } },
  'GET /api/invoices/admin': {
    body: {
      invoices: [
        {
          invoice_id: 4,
          user_id: 7,
          purchase_id: null,
          amount: 250000,
          currency: 'usd',
          payment_method_id: null,
          status: 'pending',
          expiration_date: null,
          description: null,
          paid_at: null,
          createdAt: '2026-03-06T12:00:00.000Z',
          updatedAt: '2026-03-06T12:00:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      limit: 100,
    },
  },
  'GET /api/products': {
    body: { products: [{ product_id: 3, name: 'Words 5k' }], total: 1, page: 1, limit: 200 },
  },
};

describe('Users list', () => {
  it('lists 50 users a page with a pager of at most 5 page buttons', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffManager,
      route: '/admin/users',
      routes: { 'GET /api/users/admin/all': userList },
    });
    const ui = userEvent.setup();
    expect(await screen.findByRole('link', { name: 'Open person1@example.com' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Open / })).toHaveLength(50);
    expect(screen.getAllByText('$1,234.50', { selector: 'td' })).toHaveLength(50);
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    const numbers = () =>
      within(pager)
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter((text) => /^\d+$/.test(text ?? ''));
    expect(numbers()).toEqual(['1', '2', '3', '4', '5']);
    await ui.click(within(pager).getByRole('button', { name: '5' }));
    await waitFor(() => expect(numbers()).toEqual(['3', '4', '5', '6', '7']));
    expect(listCalls(fetch.calls).at(-1)!.query.get('page')).toBe('5');
    // Managers look customers up; only admins add them.
    expect(screen.queryByRole('link', { name: '+ Add' })).not.toBeInTheDocument();
  });

  it('searches in the chosen field 500 ms after typing, and sorts by a column', async () => {
    jest.useFakeTimers();
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users',
      routes: { 'GET /api/users/admin/all': userList },
    });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await screen.findByRole('link', { name: 'Open person1@example.com' });
    await pick(ui, screen.getByRole('textbox', { name: 'Search in' }), 'Phone');
    await ui.type(screen.getByRole('searchbox', { name: 'Search' }), '555');
    act(() => jest.advanceTimersByTime(499));
    expect(listCalls(fetch.calls).filter((c) => c.query.has('query'))).toHaveLength(0);
    act(() => jest.advanceTimersByTime(1));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('query')).toBe('555'));
    expect(listCalls(fetch.calls).at(-1)!.query.get('field')).toBe('phone');
    await ui.click(screen.getByRole('button', { name: 'Sort by Email' }));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('sort')).toBe('email'));
    expect(listCalls(fetch.calls).at(-1)!.query.get('direction')).toBe('asc');
    expect(screen.getByRole('link', { name: '+ Add' })).toHaveAttribute('href', '/admin/users/new');
  });
});

describe('New customer', () => {
  it('checks the fields, creates the customer and opens their screen', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/new',
      routes: {
        ...detailRoutes,
        'POST /api/users/admin/user': { status: 201, body: { user: customer, recovery_sent: true } },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Create' }));
    expect(screen.getByText('Name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Email is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/admin/user')).toHaveLength(0);
    await ui.type(screen.getByRole('textbox', { name: /^Name/ }), 'Grace');
    await ui.type(screen.getByRole('textbox', { name: /^Last name/ }), 'Hopper');
    await ui.type(screen.getByRole('textbox', { name: /^Email/ }), 'Grace@Example.com');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('Customer created. A password recovery email was sent.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/admin/user')[0].body).toEqual({
      name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
    });
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
  });
});

describe('Customer screen', () => {
  it('shows the profile, words and ledger, purchases and invoices', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: detailRoutes,
    });
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText('Has access')).toBeInTheDocument();
    expect(screen.getByText('$99.50')).toBeInTheDocument();
    expect(screen.getByText('5,000', { selector: 'span' })).toBeInTheDocument();
    const orgs = screen.getByRole('table', { name: 'Organizations' });
    expect(within(orgs).getByText('Navy Labs')).toBeInTheDocument();
    expect(within(orgs).getByText('Manager')).toBeInTheDocument();
    const ledger = screen.getByRole('table', { name: 'Ledger' });
    expect(await within(ledger).findByText('gift')).toBeInTheDocument();
    const purchases = screen.getByRole('table', { name: 'Purchases' });
    expect(await within(purchases).findByText('Words 5k')).toBeInTheDocument();
    const invoices = screen.getByRole('table', { name: 'Invoices' });
    expect(await within(invoices).findByText('$2,500.00')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/purchases/admin')[0].query.get('user_id')).toBe('7');
    expect(fetch.callsTo('GET /api/invoices/admin')[0].query.get('user_id')).toBe('7');
  });

  it('gives a gift: total 0, the product, the gift payment method', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: { ...detailRoutes, 'POST /api/users/giveAccess': { status: 201, body: { purchase } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Give access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give access' });
    expect(within(dialog).getByRole('textbox', { name: 'Total (USD)' })).toHaveValue('$0');
    await pick(ui, within(dialog).getByRole('textbox', { name: /^Product/ }), 'Words 5k');
    await ui.type(within(dialog).getByRole('textbox', { name: /Expiration days/ }), '30');
    await ui.click(within(dialog).getByRole('button', { name: 'Give access' }));
    expect(await screen.findByText('Access given.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/giveAccess')[0].body).toEqual({
      user_id: 7,
      product_id: 3,
      gift: true,
      total: 0,
      expiration_days: 30,
      payment_method_id: 5,
    });
    await waitFor(() => expect(fetch.callsTo('GET /api/users/7/admin').length).toBeGreaterThan(1));
  });

  it('gives paid access with a total in cents and cash by default', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: { ...detailRoutes, 'POST /api/users/giveAccess': { status: 201, body: { purchase } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Give access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give access' });
    await ui.click(within(dialog).getByRole('radio', { name: 'Paid' }));
    await pick(ui, within(dialog).getByRole('textbox', { name: /^Product/ }), 'Words 5k');
    const total = within(dialog).getByRole('textbox', { name: 'Total (USD)' });
    await ui.clear(total);
    await ui.type(total, '49.99');
    await ui.click(within(dialog).getByRole('button', { name: 'Give access' }));
    await screen.findByText('Access given.');
    expect(fetch.callsTo('POST /api/users/giveAccess')[0].body).toEqual({
      user_id: 7,
      product_id: 3,
      gift: false,
      total: 4999,
      payment_method_id: 3,
    });
  });

  it('revokes a purchase after confirmation, and uses the password tools', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'PUT /api/users/revokeAccess': { body: { purchase: { ...purchase, status: 'revoked' } } },
        'POST /api/users/sendResetPasswordLink': { body: {} },
        'POST /api/users/resetPasswordLink': {
          body: { link: 'https://app.test/auth/reset-password?token=abc' },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Revoke order 31' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke access?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Access revoked.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users/revokeAccess')[0].body).toEqual({ purchase_id: 31 });

    await ui.click(screen.getByRole('button', { name: 'Send reset email' }));
    expect(await screen.findByText('Password reset email sent.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/sendResetPasswordLink')[0].body).toEqual({
      email: 'grace@example.com',
    });
    await ui.click(screen.getByRole('button', { name: 'Generate reset link' }));
    expect(await screen.findByRole('textbox', { name: 'Reset link' })).toHaveValue(
      'https://app.test/auth/reset-password?token=abc',
    );
  });

  it("adds an invoice (pending by default, cents) and edits one, confirming 'Cargo guardado.'", async () => {
    const saved = { body: { invoice: { invoice_id: 5 }, message: 'Cargo guardado.' } };
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'POST /api/invoices/admin': { status: 201, ...saved },
        'PUT /api/invoices/admin': saved,
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Add invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'New invoice' });
    expect(within(dialog).getByRole('textbox', { name: 'Status' })).toHaveValue('pending');
    await ui.type(within(dialog).getByRole('textbox', { name: /^Amount/ }), '1500');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Cargo guardado.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/invoices/admin')[0].body).toEqual({
      user_id: 7,
      amount: 150000,
      status: 'pending',
      payment_method_id: null,
      expiration_date: null,
      description: null,
    });

    await ui.click(await screen.findByRole('button', { name: 'Edit invoice 4' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit invoice 4' });
    await pick(ui, within(edit).getByRole('textbox', { name: 'Status' }), 'completed');
    await ui.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/invoices/admin')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/invoices/admin')[0].body).toMatchObject({
      invoice_id: 4,
      amount: 250000,
      status: 'completed',
    });
  });

  it('shows a manager no give, revoke or password tools', async () => {
    renderWithProviders(<Screens />, { user: staffManager, route: '/admin/users/7', routes: detailRoutes });
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(
      await within(screen.getByRole('table', { name: 'Purchases' })).findByText('Words 5k'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Give access' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke order 31' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send reset email' })).not.toBeInTheDocument();
  });
});

describe('Editing, deleting and opening a customer', () => {
  it("edits the customer's fields, checking them first, and goes back to their screen", async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: { ...detailRoutes, 'PUT /api/users/7/admin': { body: { user: customer, balance: {} } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('link', { name: 'Edit' }));
    expect(await screen.findByRole('heading', { name: 'Edit Grace Hopper' })).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Grace');
    await ui.clear(name);
    await ui.clear(screen.getByRole('textbox', { name: /^Phone/ }));
    await ui.type(screen.getByRole('textbox', { name: /^Phone/ }), '12');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Phone number is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users/7/admin')).toHaveLength(0);
    await ui.type(name, 'Amazing Grace');
    await ui.clear(screen.getByRole('textbox', { name: /^Phone/ }));
    await ui.type(screen.getByRole('textbox', { name: /^Phone/ }), '(555) 765-4321');
    await ui.type(screen.getByRole('textbox', { name: /^Birthday/ }), '1906-12-09');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Customer saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users/7/admin')[0].body).toEqual({
      name: 'Amazing Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '(555) 765-4321',
      company: 'Navy',
      birthday: '1906-12-09',
      lang: 'en',
      instagram: null,
    });
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
  });

  it('deletes the customer only after confirmation, then lists the users', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'DELETE /api/users/admin/7': { status: 204 },
        'GET /api/users/admin/all': userList,
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Grace Hopper?' });
    expect(within(dialog).getByText(/purchases and invoices stay for the books/)).toBeInTheDocument();
    await ui.click(within(dialog).getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.callsTo('DELETE /api/users/admin/7')).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Delete customer' }));
    await ui.click(
      within(await screen.findByRole('dialog', { name: 'Delete Grace Hopper?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Customer deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/users/admin/7')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
  });

  it('says why a customer with a renewing subscription is not deleted', async () => {
    renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'DELETE /api/users/admin/7': {
          status: 409,
          body: {
            statusCode: 409,
            code: 'subscription_renewing',
            message:
              'This customer has a subscription that still renews. Cancel it first, then delete the customer.',
          },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete customer' }));
    await ui.click(
      within(await screen.findByRole('dialog', { name: 'Delete Grace Hopper?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText(/Cancel it first, then delete the customer\./)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
  });

  it("opens the customer's account in a new tab with a one-time code", async () => {
    const tab = { opener: {}, location: { href: '' }, close: jest.fn() };
    const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'POST /api/users/7/admin/impersonation': {
          status: 201,
          body: { code: 'one-time_code', expires_at: '2026-03-05T12:01:00.000Z' },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Open account' }));
    await waitFor(() => expect(tab.location.href).toBe('/#view-as=one-time_code'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(fetch.callsTo('POST /api/users/7/admin/impersonation')).toHaveLength(1);
    open.mockRestore();
  });

  it('offers no edit, open or delete on a staff account, nor to a manager', async () => {
    const staffCustomer = { ...customer, staff: { staff_id: 1, role: 'manager' } };
    renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/users/7',
      routes: {
        ...detailRoutes,
        'GET /api/users/7/admin': {
          body: { user: staffCustomer, balance: { words: 0, unlimited: false }, organizations: [] },
        },
      },
    });
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(screen.queryByRole('button', { name: 'Open account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete customer' })).not.toBeInTheDocument();
  });

  it('offers a manager no edit, open or delete', async () => {
    renderWithProviders(<Screens />, { user: staffManager, route: '/admin/users/7', routes: detailRoutes });
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete customer' })).not.toBeInTheDocument();
  });
});
