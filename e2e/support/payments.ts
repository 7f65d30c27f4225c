import type { Page, Route } from 'playwright-core';
import type { FakePayPal } from '../../backend/test/fakes/paypal-server';
import type { FakeStripe } from '../../backend/test/fakes/stripe-server';
import { installFakeStripeJs } from '../../frontends/customer/src/billing/fake-stripe-js';
import { adminCredentials, apiCall, login } from './api';
import { readState, type E2eState } from './server';

export const E2E_STRIPE_KEY = 'sk_test_e2e';
export const E2E_STRIPE_PUBLISHABLE_KEY = 'pk_test_e2e';

/** The platform's Stripe and PayPal keys in app config, as an admin enters them in the back office. */
export async function configurePayments(
  state: E2eState,
  stripe: FakeStripe,
  paypal: FakePayPal,
): Promise<void> {
  const session = await (
    await fetch(`${state.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: state.adminEmail, password: state.adminPassword }),
    })
  ).json();
  const res = await fetch(`${state.baseUrl}/api/appconfig`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({
      password: state.adminPassword,
      config: [
        { key: 'stripe_private_key', value: E2E_STRIPE_KEY },
        { key: 'stripe_public_key', value: E2E_STRIPE_PUBLISHABLE_KEY },
        { key: 'stripe_webhook_key', value: stripe.webhookSecret },
        { key: 'paypal_client_id', value: paypal.clientId },
        { key: 'paypal_client_secret', value: paypal.clientSecret },
        { key: 'paypal_webhook_id', value: paypal.webhookId },
      ],
    }),
  });
  if (!res.ok) throw new Error(`payments config answered ${res.status}: ${await res.text()}`);
}

/** A stand-in of PayPal's JS SDK: one button that creates the order, approves it as the buyer, then approves. */
const FAKE_PAYPAL_SDK = `
window.paypal = {
  Buttons: function (options) {
    return {
      render: function (container) {
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'PayPal';
        button.onclick = async function () {
          try {
            var id = await options.createOrder();
            await fetch('https://www.paypal.com/fake/approve-order/' + id, { method: 'POST' });
            await options.onApprove({ orderID: id });
          } catch (e) { options.onError && options.onError(e); }
        };
        container.appendChild(button);
        return Promise.resolve();
      },
    };
  },
};`;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

/** Forwards a routed browser request to a local fake, with the CORS answer the real API gives. */
async function forward(route: Route, base: string, path: string): Promise<void> {
  const request = route.request();
  if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
  const res = await fetch(`${base}${path}`, {
    method: request.method(),
    headers: {
      authorization: request.headers().authorization ?? '',
      'content-type': request.headers()['content-type'] ?? '',
    },
    body: request.postData() ?? undefined,
  });
  await route.fulfill({
    status: res.status,
    headers: { ...CORS, 'content-type': 'application/json' },
    body: await res.text(),
  });
}

/**
 * Serves Stripe.js and PayPal's script from local fakes by routing their URLs, and sends what those scripts ask
 * of Stripe's and PayPal's APIs to the fake APIs the server uses.
 */
export async function routePayments(page: Page): Promise<void> {
  const { stripeUrl, paypalUrl } = readState();
  if (!stripeUrl || !paypalUrl) throw new Error('the fake payment APIs did not start');
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `(${installFakeStripeJs.toString()})(window, { apiBase: 'https://api.stripe.com' });`,
    }),
  );
  await page.route('https://api.stripe.com/**', (route) =>
    forward(route, stripeUrl, new URL(route.request().url()).pathname),
  );
  await page.route('https://www.paypal.com/sdk/js**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: FAKE_PAYPAL_SDK }),
  );
  await page.route('https://www.paypal.com/fake/**', (route) =>
    forward(route, paypalUrl, new URL(route.request().url()).pathname),
  );
}

/** A product in the server's database (staff would make it in the back office), answered with its id. */
export async function createProduct(fields: Record<string, unknown>): Promise<number> {
  const admin = await login(adminCredentials());
  const product = {
    description: 'Words for writing',
    available: true,
    ...fields,
  };
  const res = await apiCall<{ product: { product_id: number } }>(
    'POST',
    '/api/products',
    product,
    admin.access_token,
  );
  return res.product.product_id;
}

export async function createDiscount(fields: Record<string, unknown>): Promise<void> {
  const admin = await login(adminCredentials());
  await apiCall('POST', '/api/discounts', fields, admin.access_token);
}
