import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { en, es } from '../i18n';
import { BillingPage } from './BillingPage';
import { invoice, purchase, SignedIn, setUpFakeStripeJs } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
const stripeJs = setUpFakeStripeJs();
afterEach(() => notifications.clean());

const card = {
  payment_source_id: 3,
  brand: 'visa',
  last4: '4242',
  exp_month: 1,
  exp_year: 2030,
  organization_id: null,
  createdAt: '2026-11-01T00:00:00Z',
};

function renderBilling(routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <BillingPage />
    </SignedIn>,
    {
      user: testUser(),
      route: '/billing',
      config: { stripe_public_key: 'pk_test_platform' },
      routes: {
        'GET /api/purchases': {
          body: {
            purchases: [
              purchase({ purchase_id: 77 }),
              purchase({
                purchase_id: 70,
                status: 'completed',
                subscription_id: null,
                product: { product_id: 2, name: 'Pack' },
              }),
            ],
            total: 2,
            page: 1,
            limit: 50,
          },
        },
        'GET /api/invoices': { body: { invoices: [invoice()], total: 1, page: 1, limit: 50 } },
        'GET /api/payment_sources': { body: { payment_sources: [card] } },
        'GET /api/checkout/invoice_keys/9': {
          body: { stripe_publishable_key: 'pk_test_platform', organization_id: null },
        },
        ...routes,
      },
    },
  );
}

describe('Billing', () => {
  it('lists purchases and offers cancel only for an active subscription', async () => {
    renderBilling();
    const rows = await screen.findAllByRole('row');
    const sub = rows.find((r) => within(r).queryByText('77'))!;
    const pack = rows.find((r) => within(r).queryByText('70'))!;
    expect(within(sub).getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
    expect(within(pack).queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(within(sub).getByText('$12.00')).toBeInTheDocument();
  });

  it('shows what was refunded of a renewal', async () => {
    renderBilling({
      'GET /api/invoices': {
        body: {
          invoices: [
            invoice({
              invoice_id: 12,
              purchase_id: 77,
              amount: 1200,
              status: 'completed',
              description: 'Pro: renewal',
              refunded_amount: 1200,
            }),
          ],
          total: 1,
          page: 1,
          limit: 50,
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('tab', { name: 'Invoices' }));
    const row = (await screen.findAllByRole('row')).find((r) => within(r).queryByText('Pro: renewal'))!;
    expect(within(row).getByText('Refunded $12.00')).toBeInTheDocument();
  });

  it('needs a reason of 10 characters, cancels, and reloads the list at once and again after 1.5 s', async () => {
    const { fetch } = renderBilling({
      'POST /api/purchases/cancel/77': { body: { purchase: purchase({ status: 'cancelled' }) } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await ui.type(within(dialog).getByLabelText('Why are you cancelling?'), 'Too much');
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(await within(dialog).findByText('You must include a cancel reason.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/purchases/cancel/77')).toHaveLength(0);
    await ui.type(within(dialog).getByLabelText('Why are you cancelling?'), ' for me now');
    const before = fetch.callsTo('GET /api/purchases').length;
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('Your subscription was cancelled.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/purchases/cancel/77')[0].body).toEqual({
      cancel_reason: 'Too much for me now',
      status: 'cancelled',
    });
    await screen.findByText('Pack');
    expect(fetch.callsTo('GET /api/purchases').length).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 1700));
    expect(fetch.callsTo('GET /api/purchases').length).toBe(before + 2);
  }, 20_000);

  it('pays an open invoice with a saved card', async () => {
    const { fetch } = renderBilling({
      'POST /api/checkout/attempt': {
        body: {
          purchase_id: null,
          invoice_id: 9,
          status: 'completed',
          amount: 4500,
          requires_action: false,
          client_secret: null,
          publishable_key: null,
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('tab', { name: 'Invoices' }));
    await ui.click(await screen.findByRole('button', { name: 'Pay' }));
    const dialog = await screen.findByRole('dialog');
    await ui.click(within(dialog).getByRole('radio', { name: 'visa ending in 4242' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Pay 45.00 USD' }));
    expect(await screen.findByText('Invoice paid.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toEqual({
      type: 'invoice',
      invoice_id: 9,
      payment_source_id: '3',
    });
  });

  it("pays an organization's renewal at its own account: its saved cards, and a new card through its key", async () => {
    const orgCard = { ...card, payment_source_id: 8, brand: 'mastercard', last4: '4444', organization_id: 4 };
    const { fetch } = renderBilling({
      'GET /api/invoices': {
        body: {
          invoices: [invoice({ status: 'failed', purchase_id: 77, description: 'Team: renewal' })],
          total: 1,
          page: 1,
          limit: 50,
        },
      },
      'GET /api/payment_sources': { body: { payment_sources: [card, orgCard] } },
      'GET /api/checkout/invoice_keys/9': {
        body: { stripe_publishable_key: 'pk_test_org', organization_id: 4 },
      },
      'POST /api/checkout/attempt': {
        body: {
          purchase_id: null,
          invoice_id: 9,
          status: 'completed',
          amount: 4500,
          requires_action: false,
          client_secret: null,
          publishable_key: 'pk_test_org',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('tab', { name: 'Invoices' }));
    await ui.click(await screen.findByRole('button', { name: 'Pay' }));
    const dialog = await screen.findByRole('dialog');
    // The organization's card is offered; the platform's card cannot pay at the organization's account.
    expect(
      await within(dialog).findByRole('radio', { name: 'mastercard ending in 4444' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('radio', { name: 'visa ending in 4242' })).toBeNull();
    await ui.type(await within(dialog).findByLabelText('Card number'), '4242424242424242');
    const pay = within(dialog).getByRole('button', { name: 'Pay 45.00 USD' });
    await waitFor(() => expect(pay).toBeEnabled());
    await ui.click(pay);
    expect(await screen.findByText('Invoice paid.')).toBeInTheDocument();
    expect(stripeJs.createPaymentMethodKeys).toEqual(['pk_test_org']);
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toEqual({
      type: 'invoice',
      invoice_id: 9,
      payment_source_id: 'card',
      payment_method_id: 'pm_card_visa',
    });
  });

  it("says PayPal collects a PayPal renewal's failed invoice", async () => {
    renderBilling({
      'GET /api/invoices': {
        body: { invoices: [invoice({ status: 'failed', purchase_id: 77 })], total: 1, page: 1, limit: 50 },
      },
      'POST /api/checkout/attempt': {
        status: 409,
        body: {
          statusCode: 409,
          code: 'invoice_paid_by_provider',
          message: 'PayPal collects this renewal: please update your payment method in your PayPal account.',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('tab', { name: 'Invoices' }));
    await ui.click(await screen.findByRole('button', { name: 'Pay' }));
    const dialog = await screen.findByRole('dialog');
    await ui.click(within(dialog).getByRole('radio', { name: 'visa ending in 4242' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Pay 45.00 USD' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'PayPal collects this renewal: please update your payment method in your PayPal account.',
    );
    expect(within(dialog).queryByText("We're sorry, you cannot purchase this product anymore.")).toBeNull();
  });

  it('saves a card through a SetupIntent that Stripe.js confirms, and removes one', async () => {
    const { fetch } = renderBilling({
      'POST /api/payment_sources/setup': {
        status: 201,
        body: {
          client_secret: 'seti_1_secret_x',
          setup_intent_id: 'seti_1',
          publishable_key: 'pk_test_platform',
        },
      },
      'POST /api/payment_sources': {
        status: 201,
        body: { payment_source: { ...card, payment_source_id: 4 }, message: 'Método de pago guardado.' },
      },
      'DELETE /api/payment_sources/3': { status: 204 },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = await screen.findByRole('dialog');
    await ui.type(await within(dialog).findByLabelText('Card number'), '5555555555554444');
    await ui.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Método de pago guardado.')).toBeInTheDocument();
    expect(stripeJs.confirmCardSetup).toEqual(['seti_1_secret_x']);
    expect(fetch.callsTo('POST /api/payment_sources')[0].body).toEqual({ setup_intent_id: 'seti_1' });

    await ui.click(screen.getByRole('button', { name: 'Remove' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Card removed.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/payment_sources/3')).toHaveLength(1);
  });

  it("saves a card in an organization's scope with the organization's own Stripe key", async () => {
    const { fetch } = renderBilling({
      'POST /api/payment_sources/setup': {
        status: 201,
        body: { client_secret: 'seti_2_secret_y', setup_intent_id: 'seti_2', publishable_key: 'pk_test_org' },
      },
      'POST /api/payment_sources': {
        status: 201,
        body: {
          payment_source: { ...card, payment_source_id: 5, organization_id: 4 },
          message: 'Método de pago guardado.',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = await screen.findByRole('dialog');
    await ui.type(await within(dialog).findByLabelText('Card number'), '5555555555554444');
    const save = within(dialog).getByRole('button', { name: 'Save card' });
    await waitFor(() => expect(save).toBeEnabled());
    await ui.click(save);
    expect(await screen.findByText('Método de pago guardado.')).toBeInTheDocument();
    expect(stripeJs.confirmCardSetupKeys).toEqual(['pk_test_org']);
    expect(fetch.callsTo('POST /api/payment_sources/setup')).toHaveLength(1);
    expect(fetch.callsTo('POST /api/payment_sources')[0].body).toEqual({ setup_intent_id: 'seti_2' });
  });

  it('shows the Spanish sentence when a card cannot be removed', async () => {
    renderBilling({
      'DELETE /api/payment_sources/3': {
        status: 502,
        body: {
          statusCode: 502,
          message: 'Hubo un error con tu método de pago, por favor intenta de nuevo.',
          code: 'payment_source_delete_failed',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Remove' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('Hubo un error con tu método de pago, por favor intenta de nuevo.'),
    ).toBeInTheDocument();
  });
});
