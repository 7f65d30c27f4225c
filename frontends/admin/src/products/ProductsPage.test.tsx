import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, type MockCall } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { en, es } from '../i18n';
import { SignedIn, staffAdmin } from '../common/testing';
import { ProductFormPage } from './ProductFormPage';
import { ProductsPage } from './ProductsPage';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  notifications.clean();
  jest.useRealTimers();
});

const Screens = () => (
  <SignedIn>
    <Routes>
      <Route path="/admin/products" element={<ProductsPage />} />
      <Route path="/admin/products/:product_id/edit" element={<ProductFormPage />} />
    </Routes>
  </SignedIn>
);

function product(product_id: number, extra: Record<string, unknown> = {}) {
  return {
    product_id,
    organization_id: null,
    name: `Plan ${product_id}`,
    description: 'Words to write with',
    short_description: null,
    price: 1999,
    sale_price: null,
    currency: 'usd',
    word_amount: 50000,
    free_trial_words: null,
    is_subscription: false,
    subscription_interval: null,
    subscription_period: null,
    expiration_days: null,
    limit_per_user: null,
    user_limit: null,
    free_trial_period: false,
    free_trial_length: null,
    free_trial_end: null,
    available: true,
    stripe_product_id: null,
    stripe_price_id: null,
    paypal_product_id: null,
    paypal_plan_id: null,
    webhook_url: null,
    product_sku: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const list = (products: unknown[]) => ({ body: { products, total: products.length, page: 1, limit: 20 } });
const listCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/products');

describe('Products list', () => {
  it('shows products, a Test button only with a webhook URL, and sends a test purchase', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products',
      routes: {
        'GET /api/products': list([
          product(1, { webhook_url: 'https://hooks.example.com/x' }),
          product(2, { word_amount: null, sale_price: 1500 }),
        ]),
        'POST /api/purchases/test': { status: 202, body: { queued: true, event_id: 'e1' } },
      },
    });
    const ui = userEvent.setup();
    const first = (await screen.findByRole('link', { name: 'Edit Plan 1' })).closest('tr')!;
    expect(within(first).getByText('50,000')).toBeInTheDocument();
    expect(within(first).getByText('$19.99')).toBeInTheDocument();
    const second = screen.getByRole('link', { name: 'Edit Plan 2' }).closest('tr')!;
    expect(within(second).getByText('Unlimited')).toBeInTheDocument();
    expect(within(second).getByText('$15.00')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: /test purchase/ })).not.toBeInTheDocument();

    await ui.click(within(first).getByRole('button', { name: 'Send a test purchase of Plan 1' }));
    expect(await screen.findByText('Test purchase sent to the webhook.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/purchases/test')[0].body).toEqual({ product_id: 1 });
    expect(listCalls(fetch.calls)[0].query.get('sort')).toBe('product_id');
  });

  it("says 'No products available.' and sorts by a column header", async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products',
      routes: { 'GET /api/products': list([]) },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('No products available.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Sort by Price' }));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('sort')).toBe('price'));
    expect(listCalls(fetch.calls).at(-1)!.query.get('direction')).toBe('asc');
    await ui.click(screen.getByRole('button', { name: 'Sort by Price' }));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('direction')).toBe('desc'));
  });

  it('searches 500 ms after typing, and only with text', async () => {
    jest.useFakeTimers();
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products',
      routes: { 'GET /api/products': list([product(1)]) },
    });
    const ui = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await screen.findByRole('link', { name: 'Edit Plan 1' });
    await ui.type(screen.getByRole('searchbox', { name: 'Search products' }), '   ');
    act(() => jest.advanceTimersByTime(600));
    expect(listCalls(fetch.calls).filter((c) => c.query.has('query'))).toHaveLength(0);
    await ui.type(screen.getByRole('searchbox', { name: 'Search products' }), 'pro');
    act(() => jest.advanceTimersByTime(499));
    expect(listCalls(fetch.calls).filter((c) => c.query.has('query'))).toHaveLength(0);
    act(() => jest.advanceTimersByTime(1));
    await waitFor(() => expect(listCalls(fetch.calls).at(-1)!.query.get('query')).toBe('pro'));
  });
});

describe('Product form', () => {
  it("shows every rule the server lists under 'Validation Errors:'", async () => {
    renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products/new/edit',
      routes: {
        'POST /api/products': {
          status: 400,
          body: {
            statusCode: 400,
            code: 'product_invalid',
            message: 'Validation Errors: Name is required. Description is required.',
            errors: ['Name is required.', 'Description is required.'],
          },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Validation Errors:')).toBeInTheDocument();
    expect(within(alert).getByText('Name is required.')).toBeInTheDocument();
    expect(within(alert).getByText('Description is required.')).toBeInTheDocument();
  });

  it('creates a product: Unlimited clears the words, a subscription defaults to every 1 month, prices in cents', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products/new/edit',
      routes: {
        'POST /api/products': { status: 201, body: { product: product(9) } },
        'GET /api/products': list([product(9)]),
      },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByRole('textbox', { name: 'Name' }), 'Pro');
    await ui.type(screen.getByRole('textbox', { name: 'Description' }), 'All the words');
    await ui.type(screen.getByRole('textbox', { name: 'Price (USD)' }), '29.99');
    await ui.type(screen.getByRole('textbox', { name: 'Word amount' }), '1000');
    await ui.click(screen.getByRole('switch', { name: 'Unlimited words' }));
    expect(screen.queryByRole('textbox', { name: 'Word amount' })).not.toBeInTheDocument();
    await ui.click(screen.getByRole('switch', { name: 'Subscription' }));
    expect(screen.getByRole('textbox', { name: 'Every' })).toHaveValue('1');
    expect(screen.getByRole('textbox', { name: 'Period' })).toHaveValue('Month');
    await ui.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Product saved.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/products')[0].body).toMatchObject({
      name: 'Pro',
      description: 'All the words',
      price: 2999,
      unlimited: true,
      word_amount: null,
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
    });
    expect(await screen.findByRole('link', { name: 'Edit Plan 9' })).toBeInTheDocument();
  });

  it('loads a product with no word amount as Unlimited and saves it with PUT', async () => {
    const { fetch } = renderWithProviders(<Screens />, {
      user: staffAdmin,
      route: '/admin/products/4/edit',
      routes: {
        'GET /api/products/4': { body: { product: product(4, { word_amount: null }) } },
        'PUT /api/products': { body: { product: product(4) } },
        'GET /api/products': list([product(4)]),
      },
    });
    const ui = userEvent.setup();
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Plan 4');
    expect(screen.getByRole('switch', { name: 'Unlimited words' })).toBeChecked();
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Product saved.');
    expect(fetch.callsTo('PUT /api/products')[0].body).toMatchObject({
      product_id: 4,
      price: 1999,
      word_amount: null,
    });
  });
});
