/** Shared pieces of the billing screens' tests: products and purchases as the API answers them. */
import { useSession } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import type { Invoice, Product, Purchase } from './api';
import { installFakeStripeJs, type FakeStripeJsCalls } from './fake-stripe-js';

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
export function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

export function product(overrides: Partial<Product> = {}): Product {
  return {
    product_id: 5,
    organization_id: null,
    name: 'Pro',
    description: 'Everything you need',
    short_description: 'For busy writers',
    price: 1200,
    sale_price: null,
    currency: 'usd',
    word_amount: 50000,
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
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  } as Product;
}

export function purchase(overrides: Partial<Purchase> = {}): Purchase {
  return {
    purchase_id: 77,
    user_id: 1,
    product_id: 5,
    organization_id: null,
    status: 'active',
    amount: 1200,
    currency: 'usd',
    expiration_days: null,
    expires_at: '2026-12-25T10:00:00.000Z',
    is_gift: false,
    payment_method_id: 1,
    cancel_reason: null,
    discount: null,
    subscription_id: 'sub_123',
    free_trial_length: null,
    subscription_interval: 1,
    subscription_period: 'month',
    payment_processor_id: 'in_1',
    current_period_end: '2026-12-25T10:00:00.000Z',
    cancel_at_period_end: false,
    refunded_amount: 0,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    product: { product_id: 5, name: 'Pro' },
    user: null,
    ...overrides,
  } as Purchase;
}

export function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    invoice_id: 9,
    purchase_id: null,
    user_id: 1,
    amount: 4500,
    currency: 'usd',
    payment_method_id: null,
    status: 'pending',
    expiration_date: null,
    description: 'Onboarding session',
    paid_at: null,
    refunded_amount: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    user: null,
    ...overrides,
  } as Invoice;
}

/**
 * Installs the fake Stripe.js once per test file, as the page's script would define it, and finishes the load of
 * the script tag @stripe/stripe-js injected at import (jsdom does not fetch scripts). Clear `calls` between tests.
 */
export function setUpFakeStripeJs(): FakeStripeJsCalls {
  const calls = installFakeStripeJs(window);
  const finishLoad = () =>
    document
      .querySelectorAll('script[src^="https://js.stripe.com"]')
      .forEach((script) => script.dispatchEvent(new Event('load')));
  finishLoad();
  beforeEach(finishLoad);
  afterEach(() => {
    calls.createPaymentMethod.length = 0;
    calls.createPaymentMethodKeys.length = 0;
    calls.confirmCardPayment.length = 0;
    calls.confirmCardSetup.length = 0;
    calls.confirmCardSetupKeys.length = 0;
  });
  return calls;
}
