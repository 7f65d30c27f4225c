import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { en, es } from '../i18n';
import { CheckoutPage } from './CheckoutPage';
import { invoice, product, SignedIn, setUpFakeStripeJs } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

const calls = setUpFakeStripeJs();
const plan = product({ product_id: 5, name: 'Pro', price: 2000 });

function renderCheckout(routes: MockRoutes = {}, route = '/checkout/5') {
  const rendered = renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/checkout/:product_id" element={<CheckoutPage />} />
        <Route path="/thankyou/:purchase_id" element={<p>Thank you page</p>} />
      </Routes>
    </SignedIn>,
    {
      user: testUser(),
      route,
      routes: {
        'GET /api/products/5': { body: { product: plan, webhook_secret: null } },
        'GET /api/checkout/keys/5': {
          body: { stripe_publishable_key: 'pk_test_platform', paypal_client_id: null },
        },
        'GET /api/payment_sources': {
          body: {
            payment_sources: [
              {
                payment_source_id: 3,
                brand: 'visa',
                last4: '4242',
                exp_month: 1,
                exp_year: 2030,
                organization_id: null,
                createdAt: '2026-11-01T00:00:00Z',
              },
            ],
          },
        },
        ...routes,
      },
    },
  );
  return { ...rendered, calls };
}

const answer = (over: Record<string, unknown> = {}) => ({
  purchase_id: 41,
  invoice_id: null,
  status: 'active',
  amount: 2000,
  requires_action: false,
  client_secret: null,
  publishable_key: 'pk_test_platform',
  ...over,
});

describe('Checkout', () => {
  it('pays with a new card: the card becomes a PaymentMethod, the server charges, then the thank-you page', async () => {
    const { fetch, calls } = renderCheckout({ 'POST /api/checkout/attempt': { body: answer() } });
    const ui = userEvent.setup();
    expect(
      await screen.findByText('20.00 USD', { selector: '[data-testid="checkout-total"]' }),
    ).toBeInTheDocument();
    await ui.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await ui.click(screen.getByRole('button', { name: 'Pay 20.00 USD' }));
    expect(await screen.findByText('Thank you page')).toBeInTheDocument();
    expect(calls.createPaymentMethod).toEqual(['pm_card_visa']);
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toEqual({
      type: 'product',
      product_id: 5,
      discountCode: null,
      payment_source_id: 'card',
      payment_method_id: 'pm_card_visa',
    });
  });

  it('pays an invoice staff issued for the plan: its amount, no discount field, the invoice sent with the card', async () => {
    const { fetch } = renderCheckout(
      {
        'GET /api/invoices': {
          body: {
            invoices: [invoice({ invoice_id: 9, amount: 4500, description: 'Annual contract' })],
            total: 1,
            page: 1,
            limit: 50,
          },
        },
        'POST /api/checkout/attempt': { body: answer({ status: 'completed', amount: 4500 }) },
        'GET /api/checkout/keys/5': {
          body: { stripe_publishable_key: 'pk_test_platform', paypal_client_id: 'paypal-client' },
        },
      },
      '/checkout/5?contract_invoice_id=9',
    );
    const ui = userEvent.setup();
    expect(
      await screen.findByText('45.00 USD', { selector: '[data-testid="checkout-total"]' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Invoice #9')).toBeInTheDocument();
    expect(screen.getByText('Annual contract')).toBeInTheDocument();
    expect(screen.queryByLabelText('Discount code')).not.toBeInTheDocument();
    // PayPal does not pay invoices: only the card.
    expect(screen.queryByText('Or pay with PayPal')).not.toBeInTheDocument();
    await ui.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await ui.click(screen.getByRole('button', { name: 'Pay 45.00 USD' }));
    expect(await screen.findByText('Thank you page')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toEqual({
      type: 'product',
      product_id: 5,
      discountCode: null,
      contract_invoice_id: 9,
      payment_source_id: 'card',
      payment_method_id: 'pm_card_visa',
    });
  });

  it('says an invoice that is paid already cannot be paid', async () => {
    renderCheckout(
      {
        'GET /api/invoices': {
          body: {
            invoices: [invoice({ invoice_id: 9, status: 'completed' })],
            total: 1,
            page: 1,
            limit: 50,
          },
        },
      },
      '/checkout/5?contract_invoice_id=9',
    );
    expect(
      await screen.findByText('This invoice is paid already or cannot be paid here.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
  });

  it('runs 3-D Secure through Stripe.js when the bank asks, then captures', async () => {
    const { fetch, calls } = renderCheckout({
      'POST /api/checkout/attempt': {
        body: answer({ status: 'pending', requires_action: true, client_secret: 'pi_3ds_secret_abc' }),
      },
      'POST /api/checkout/capture': { body: answer() },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Card number'), '4000002760003184');
    await ui.click(screen.getByRole('button', { name: 'Pay 20.00 USD' }));
    expect(await screen.findByText('Thank you page')).toBeInTheDocument();
    expect(calls.confirmCardPayment).toEqual(['pi_3ds_secret_abc']);
    expect(fetch.callsTo('POST /api/checkout/capture')[0].body).toEqual({ purchase_id: 41 });
  });

  it('pays with a saved card without the card form', async () => {
    const { fetch, calls } = renderCheckout({ 'POST /api/checkout/attempt': { body: answer() } });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('radio', { name: 'visa ending in 4242' }));
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Pay 20.00 USD' }));
    expect(await screen.findByText('Thank you page')).toBeInTheDocument();
    expect(calls.createPaymentMethod).toEqual([]);
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toMatchObject({ payment_source_id: '3' });
  });

  it('lowers the total with a discount code and sends it with the payment', async () => {
    const { fetch } = renderCheckout({
      'GET /api/discounts/code/HALF': {
        body: {
          discount_id: 1,
          code: 'HALF',
          type: 'percent',
          amount: 50,
          price: 2000,
          amount_off: 1000,
          discounted_price: 1000,
        },
      },
      'POST /api/checkout/attempt': { body: answer({ amount: 1000 }) },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Discount code'), 'HALF');
    await ui.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('10.00 USD', { selector: '[data-testid="checkout-total"]' }),
    ).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/discounts/code/HALF')[0].query.get('product_id')).toBe('5');
    await ui.type(screen.getByLabelText('Card number'), '4242424242424242');
    await ui.click(screen.getByRole('button', { name: 'Pay 10.00 USD' }));
    expect(await screen.findByText('Thank you page')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/checkout/attempt')[0].body).toMatchObject({ discountCode: 'HALF' });
  });

  it("shows the discount errors: 412 'cannot use anymore', anything else 'invalid'", async () => {
    renderCheckout({
      'GET /api/discounts/code/USED': {
        status: 412,
        body: { statusCode: 412, message: 'x', code: 'discount_exhausted' },
      },
      'GET /api/discounts/code/NOPE': {
        status: 400,
        body: {
          statusCode: 400,
          message: "We're sorry, that discount is invalid.",
          code: 'discount_invalid',
        },
      },
    });
    const ui = userEvent.setup();
    const field = await screen.findByLabelText('Discount code');
    await ui.type(field, 'USED');
    await ui.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText("We're sorry, you cannot use this discount code anymore."),
    ).toBeInTheDocument();
    await ui.clear(field);
    await ui.type(field, 'NOPE');
    await ui.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText("We're sorry, that discount is invalid.")).toBeInTheDocument();
  });

  it.each([
    [409, 'purchase_limit_reached', "We're sorry, you cannot purchase this product anymore."],
    [412, 'product_sold_out', "We're sorry, this product cannot be purchase anymore."],
    [400, 'invalid_payment_method', 'You have not selected a valid payment method.'],
  ])('shows the purchase error of a %s', async (status, code, text) => {
    renderCheckout({
      'POST /api/checkout/attempt': { status, body: { statusCode: status, message: text, code } },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Card number'), '4242424242424242');
    await ui.click(screen.getByRole('button', { name: 'Pay 20.00 USD' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('answers the Spanish sentence for a product that does not exist', async () => {
    renderCheckout({
      'GET /api/products/5': {
        status: 404,
        body: { statusCode: 404, message: 'Product not found.', code: 'product_not_found' },
      },
    });
    expect(await screen.findByText('No encontramos el paquete que quieres comprar.')).toBeInTheDocument();
  });
});
