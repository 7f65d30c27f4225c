/**
 * A stand-in for Stripe.js (window.Stripe) at its boundary, for component and browser tests: the card element
 * is a plain input whose number picks one of Stripe's test cards; with `apiBase` the confirmations are sent to
 * the (fake) Stripe API as Stripe.js sends them, without it they succeed locally. Kept free of imports so the
 * browser tests can serve its source as the Stripe.js script.
 */
export interface FakeStripeJsCalls {
  createPaymentMethod: string[];
  /** The publishable key of the Stripe.js instance behind each createPaymentMethod call. */
  createPaymentMethodKeys: string[];
  confirmCardPayment: string[];
  confirmCardSetup: string[];
  /** The publishable key of the Stripe.js instance behind each confirmCardSetup call. */
  confirmCardSetupKeys: string[];
}

export function installFakeStripeJs(
  target: Window & typeof globalThis,
  options: { apiBase?: string } = {},
): FakeStripeJsCalls {
  const calls: FakeStripeJsCalls = {
    createPaymentMethod: [],
    createPaymentMethodKeys: [],
    confirmCardPayment: [],
    confirmCardSetup: [],
    confirmCardSetupKeys: [],
  };
  /** Stripe's test card numbers -> their test PaymentMethods. */
  const cards: Record<string, string> = {
    '4242424242424242': 'pm_card_visa',
    '5555555555554444': 'pm_card_mastercard',
    '4000002760003184': 'pm_card_threeDSecure2Required',
    '4000000000000002': 'pm_card_chargeDeclined',
  };
  let input: HTMLInputElement | null = null;
  const token = () => cards[(input?.value ?? '').replace(/\D/g, '')] ?? null;
  const post = async (path: string, key: string, fields: Record<string, string>) => {
    const res = await target.fetch(`${options.apiBase}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const body = await res.json();
    return res.ok ? { ok: body } : { error: body.error ?? { message: 'Stripe failed.' } };
  };
  const cardElement = {
    mount(node: HTMLElement | string) {
      const host = typeof node === 'string' ? target.document.querySelector(node)! : node;
      input = target.document.createElement('input');
      input.setAttribute('aria-label', 'Card number');
      input.setAttribute('autocomplete', 'cc-number');
      input.setAttribute('data-fake-stripe-card', '');
      host.appendChild(input);
      setTimeout(() => handlers.ready?.forEach((h) => h({ elementType: 'card' })), 0);
    },
    on(event: string, handler: (e: unknown) => void) {
      (handlers[event] ??= []).push(handler);
      return cardElement;
    },
    off() {
      return cardElement;
    },
    update() {},
    focus() {
      input?.focus();
    },
    blur() {},
    clear() {
      if (input) input.value = '';
    },
    unmount() {
      input?.remove();
      input = null;
    },
    destroy() {
      cardElement.unmount();
    },
  };
  const handlers: Record<string, ((e: unknown) => void)[]> = {};
  const elements = {
    create: () => cardElement,
    getElement: () => (input ? cardElement : null),
    update() {},
    fetchUpdates: async () => ({}),
    submit: async () => ({}),
  };
  const Stripe = (key: string) => ({
    elements: () => elements,
    _registerWrapper() {},
    registerAppInfo() {},
    /** Tokens are Stripe's older API; the screens use PaymentMethods. */
    async createToken() {
      return { error: { type: 'invalid_request_error', message: 'Tokens are not supported here.' } };
    },
    async createPaymentMethod() {
      const id = token();
      if (!id) return { error: { type: 'validation_error', message: 'Your card number is invalid.' } };
      calls.createPaymentMethod.push(id);
      calls.createPaymentMethodKeys.push(key);
      return { paymentMethod: { id, type: 'card' } };
    },
    async confirmCardPayment(clientSecret: string) {
      calls.confirmCardPayment.push(clientSecret);
      const id = clientSecret.split('_secret_')[0];
      if (!options.apiBase) return { paymentIntent: { id, status: 'succeeded' } };
      const result = await post(`/v1/payment_intents/${id}/confirm`, key, {
        client_secret: clientSecret,
        three_d_secure: 'passed',
      });
      return 'ok' in result ? { paymentIntent: result.ok } : { error: result.error };
    },
    async confirmCardSetup(clientSecret: string) {
      calls.confirmCardSetup.push(clientSecret);
      calls.confirmCardSetupKeys.push(key);
      const id = clientSecret.split('_secret_')[0];
      const payment_method = token();
      if (!payment_method)
        return { error: { type: 'validation_error', message: 'Your card number is invalid.' } };
      if (!options.apiBase) return { setupIntent: { id, status: 'succeeded', payment_method } };
      const result = await post(`/v1/setup_intents/${id}/confirm`, key, {
        client_secret: clientSecret,
        payment_method,
      });
      return 'ok' in result ? { setupIntent: result.ok } : { error: result.error };
    },
  });
  Object.assign(Stripe, { version: 'endive' });
  (target as unknown as { Stripe: unknown }).Stripe = Stripe;
  return calls;
}
