import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Product } from '../api';
import {
  membership,
  renderOrg,
  resetNotifications,
  userIn,
  type Role,
} from '../../organizations/__tests__/render';

afterEach(resetNotifications);

const plan = {
  product_id: 31,
  organization_id: 10,
  name: 'Team plan',
  description: 'Words for the team',
  short_description: null,
  price: 1999,
  sale_price: null,
  currency: 'usd',
  word_amount: null,
  free_trial_words: null,
  is_subscription: true,
  subscription_interval: 1,
  subscription_period: 'month',
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
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
} as unknown as Product;

function asRole(role: Role, route: string, routes = {}) {
  return renderOrg(route, {
    user: userIn(10),
    memberships: [membership(10, 'Acme', role)],
    routes: {
      'GET /api/products': { body: { products: [plan], total: 1, page: 1, limit: 200 } },
      'GET /api/products/31': { body: { product: plan } },
      ...routes,
    },
  });
}

describe('Organization products', () => {
  it("lists the organization's products in its scope with price, words and billing", async () => {
    const { fetch } = asRole('Admin', '/organization/admin/products');
    expect(await screen.findByRole('link', { name: 'Edit Team plan' })).toHaveAttribute(
      'href',
      '/organization/admin/products/31',
    );
    expect(screen.getByText('19.99')).toBeInTheDocument();
    expect(screen.getByText('Unlimited words!')).toBeInTheDocument();
    expect(screen.getByText('Every 1 month(s)')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/products')[0].query.get('organization_id')).toBe('10');
  });

  it('keeps Managers and Members out', async () => {
    const { fetch } = asRole('Manager', '/organization/admin/products');
    expect(
      await screen.findByText('Only Admins of this organization manage its products.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/products')).toHaveLength(0);
  });

  it('creates a product in cents, in the organization scope', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin/products/new', {
      'POST /api/products': { status: 201, body: { product: { ...plan, product_id: 32 } } },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Starter');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'A start');
    await user.type(screen.getByRole('textbox', { name: 'Price (USD)' }), '9.5');
    await user.type(screen.getByRole('textbox', { name: 'Words' }), '5000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/products')).toHaveLength(1));
    const [call] = fetch.callsTo('POST /api/products');
    expect(call.query.get('organization_id')).toBe('10');
    expect(call.body).toMatchObject({
      name: 'Starter',
      description: 'A start',
      price: 950,
      word_amount: 5000,
      unlimited: false,
      is_subscription: false,
      available: true,
    });
    expect(await screen.findByText('Product saved.')).toBeInTheDocument();
  });

  it('edits an existing product', async () => {
    const user = userEvent.setup();
    const { fetch } = asRole('Admin', '/organization/admin/products/31', {
      'PUT /api/products': { body: { product: plan } },
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Team plan');
    await user.clear(name);
    await user.type(name, 'Team plus');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/products')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/products')[0].body).toMatchObject({
      product_id: 31,
      name: 'Team plus',
      price: 1999,
      word_amount: null,
      unlimited: true,
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
    });
  });
});
