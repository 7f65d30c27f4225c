import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { SignedIn, pick, staffManager } from '../common/testing';
import { DiscountsPage as Page } from './DiscountsPage';

registerTranslations('admin', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const DiscountsPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

function discount(discount_id: number, extra: Record<string, unknown> = {}) {
  return {
    discount_id,
    code: `CODE${discount_id}`,
    type: 'percent',
    amount: 20,
    product_id: null,
    organization_id: null,
    usage_limit: 100,
    usage_limit_per_user: null,
    times_used: 1234,
    starts_at: null,
    expires_at: '2026-12-31T00:00:00.000Z',
    active: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const routes = {
  'GET /api/discounts': {
    body: {
      discounts: [
        discount(1),
        discount(2, { type: 'fixed', amount: 500, product_id: 7, usage_limit: null, active: false }),
      ],
      total: 2,
      page: 1,
      limit: 20,
    },
  },
  'GET /api/products': {
    body: { products: [{ product_id: 7, name: 'Pro plan' }], total: 1, page: 1, limit: 200 },
  },
};

describe('Discounts', () => {
  it('lists codes with their discount, product, usage, validity and status', async () => {
    renderWithProviders(<DiscountsPage />, { user: staffManager, routes });
    const first = (await screen.findByText('CODE1')).closest('tr')!;
    expect(within(first).getByText('20% off')).toBeInTheDocument();
    expect(within(first).getByText('Every product')).toBeInTheDocument();
    expect(within(first).getByText('1,234 of 100')).toBeInTheDocument();
    expect(within(first).getByText(/until Dec 31 2026|until Dec 30 2026/)).toBeInTheDocument();
    expect(within(first).getByText('Active')).toBeInTheDocument();
    const second = screen.getByText('CODE2').closest('tr')!;
    expect(within(second).getByText('$5.00 off')).toBeInTheDocument();
    expect(await within(second).findByText('Pro plan')).toBeInTheDocument();
    expect(within(second).getByText('1,234 (no limit)')).toBeInTheDocument();
    expect(within(second).getByText('Disabled')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: 'Disable CODE2' })).not.toBeInTheDocument();
  });

  it('creates a fixed-amount code in cents for one product', async () => {
    const { fetch } = renderWithProviders(<DiscountsPage />, {
      user: staffManager,
      routes: { ...routes, 'POST /api/discounts': { status: 201, body: { discount: discount(3) } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('CODE1');
    await ui.click(screen.getByRole('button', { name: '+ Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'New discount' });
    await ui.type(within(dialog).getByRole('textbox', { name: /^Code/ }), 'SPRING');
    await pick(ui, within(dialog).getByRole('textbox', { name: 'Type' }), 'Fixed amount (USD)');
    await ui.type(within(dialog).getByRole('textbox', { name: /Amount off/ }), '12.5');
    await pick(ui, within(dialog).getByRole('textbox', { name: 'Product' }), 'Pro plan');
    await ui.type(within(dialog).getByRole('textbox', { name: 'Usage limit' }), '50');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Discount saved.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/discounts')[0].body).toEqual({
      code: 'SPRING',
      type: 'fixed',
      amount: 1250,
      product_id: 7,
      usage_limit: 50,
      usage_limit_per_user: null,
      starts_at: null,
      expires_at: null,
      active: true,
    });
  });

  it('edits a code with PUT and disables one after confirmation', async () => {
    const { fetch } = renderWithProviders(<DiscountsPage />, {
      user: staffManager,
      routes: {
        ...routes,
        'PUT /api/discounts': { body: { discount: discount(1, { amount: 30 }) } },
        'DELETE /api/discounts/1': { status: 204 },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit CODE1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit discount' });
    const amount = within(dialog).getByRole('textbox', { name: /Percent off/ });
    await ui.clear(amount);
    await ui.type(amount, '30');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Discount saved.');
    expect(fetch.callsTo('PUT /api/discounts')[0].body).toMatchObject({
      discount_id: 1,
      amount: 30,
      type: 'percent',
    });

    await ui.click(screen.getByRole('button', { name: 'Disable CODE1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disable discount?' });
    await ui.click(within(confirm).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Discount disabled.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/discounts/1')).toHaveLength(1);
  });
});
