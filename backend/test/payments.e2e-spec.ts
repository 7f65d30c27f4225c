import { BILLING_MESSAGES, PAYMENT_MESSAGES } from '@avatar-studio/contracts';
import type { TestUser } from './harness';
import { SecretBox } from '../src/common/crypto/secret-box';
import { startPaymentsKit, ORG_KEY, PaymentsKit, PLATFORM_KEY } from './payments-kit';

describe('Payments: saved cards, lookups, checkout and webhooks', () => {
  let k: PaymentsKit;
  let buyer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    k = await startPaymentsKit();
    buyer = await k.t.createUser();
    other = await k.t.createUser();
  });
  afterAll(() => k.close());

  const attempt = (who: TestUser, body: Record<string, unknown>) =>
    k.t.http().post('/api/checkout/attempt').set('Authorization', who.auth).send(body);
  const capture = (who: TestUser, body: Record<string, unknown>) =>
    k.t.http().post('/api/checkout/capture').set('Authorization', who.auth).send(body);

  async function savedCard(who: TestUser, card = 'pm_card_visa'): Promise<number> {
    const setup = await k.t
      .http()
      .post('/api/payment_sources/setup')
      .set('Authorization', who.auth)
      .expect(201);
    expect(setup.body.client_secret).toMatch(/^seti_/);
    k.stripe.confirmSetupIntent(setup.body.setup_intent_id, card);
    const saved = await k.t
      .http()
      .post('/api/payment_sources')
      .set('Authorization', who.auth)
      .send({ setup_intent_id: setup.body.setup_intent_id })
      .expect(201);
    expect(saved.body.message).toBe(PAYMENT_MESSAGES.paymentSourceSaved);
    return saved.body.payment_source.payment_source_id;
  }

  describe('lookups', () => {
    it('lists the payment methods', async () => {
      const res = await k.t.http().get('/api/payment_method').set('Authorization', buyer.auth).expect(200);
      expect(res.body.payment_methods.map((m: { name: string }) => m.name)).toEqual([
        'card',
        'paypal',
        'cash',
        'transfer',
        'gift',
      ]);
    });

    it("lists Stripe products and a product's prices in cents for staff, through the SDK", async () => {
      const product = k.stripe.addProduct(PLATFORM_KEY, 'Pro');
      const price = k.stripe.addPrice(PLATFORM_KEY, product.id, 1999, 'month');
      const products = await k.t
        .http()
        .get('/api/stripe/products')
        .set('Authorization', k.admin.auth)
        .expect(200);
      expect(products.body.products).toContainEqual({ id: product.id, name: 'Pro', active: true });
      const prices = await k.t
        .http()
        .get(`/api/stripe/prices/${product.id}`)
        .set('Authorization', k.admin.auth)
        .expect(200);
      expect(prices.body.prices).toEqual([
        {
          id: price.id,
          unit_amount: 1999,
          currency: 'usd',
          recurring: { interval: 'month', interval_count: 1 },
        },
      ]);
      expect(k.stripe.requests.some((r) => r.path === '/v1/prices' && r.key === PLATFORM_KEY)).toBe(true);
    });

    it("answers a product's checkout keys: the platform's publishable key and PayPal's client id", async () => {
      const product_id = await k.product();
      const res = await k.t
        .http()
        .get(`/api/checkout/keys/${product_id}`)
        .set('Authorization', buyer.auth)
        .expect(200);
      expect(res.body).toEqual({
        stripe_publishable_key: 'pk_test_platform',
        paypal_client_id: k.paypal.clientId,
      });
    });

    it('refuses the Stripe lookups to customers (403)', async () => {
      await k.t.http().get('/api/stripe/products').set('Authorization', buyer.auth).expect(403);
    });

    it('answers 400 for a malformed Stripe product id', async () => {
      await k.t.http().get('/api/stripe/prices/not-a-product').set('Authorization', k.admin.auth).expect(400);
    });
  });

  describe('saved cards', () => {
    it('saves a SetupIntent-confirmed card, lists it, and hides it from another customer (404)', async () => {
      const id = await savedCard(buyer);
      const list = await k.t.http().get('/api/payment_sources').set('Authorization', buyer.auth).expect(200);
      expect(list.body.payment_sources).toContainEqual(
        expect.objectContaining({
          payment_source_id: id,
          brand: 'visa',
          last4: '4242',
          organization_id: null,
        }),
      );
      const theirs = await k.t
        .http()
        .get('/api/payment_sources')
        .set('Authorization', other.auth)
        .expect(200);
      expect(theirs.body.payment_sources).toEqual([]);
      await k.t.http().delete(`/api/payment_sources/${id}`).set('Authorization', other.auth).expect(404);
      await attempt(other, { product_id: await k.product(), payment_source_id: String(id) }).expect(404);
    });

    it("refuses to save another customer's SetupIntent (404) and an unconfirmed one (400)", async () => {
      const setup = await k.t
        .http()
        .post('/api/payment_sources/setup')
        .set('Authorization', buyer.auth)
        .expect(201);
      await k.t.http().post('/api/payment_sources/setup').set('Authorization', other.auth).expect(201);
      await k.t
        .http()
        .post('/api/payment_sources')
        .set('Authorization', other.auth)
        .send({ setup_intent_id: setup.body.setup_intent_id })
        .expect(404);
      const res = await k.t
        .http()
        .post('/api/payment_sources')
        .set('Authorization', buyer.auth)
        .send({ setup_intent_id: setup.body.setup_intent_id })
        .expect(400);
      expect(res.body.code).toBe('payment_incomplete');
    });

    it('answers the Spanish sentence when Stripe cannot remove the card, and removes it when it can', async () => {
      const id = await savedCard(buyer, 'pm_card_mastercard');
      k.stripe.failNext = { prefix: '/v1/payment_methods', status: 500 };
      const failed = await k.t.http().delete(`/api/payment_sources/${id}`).set('Authorization', buyer.auth);
      k.stripe.failNext = null;
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe(PAYMENT_MESSAGES.paymentSourceDeleteFailed);
      await k.t.http().delete(`/api/payment_sources/${id}`).set('Authorization', buyer.auth).expect(204);
      const list = await k.t.http().get('/api/payment_sources').set('Authorization', buyer.auth).expect(200);
      expect(
        list.body.payment_sources.some((s: { payment_source_id: number }) => s.payment_source_id === id),
      ).toBe(false);
    });
  });

  describe('card checkout', () => {
    it('charges a one-off product with a new card: completed, words granted, lifetime value grown', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 2500, word_amount: 7000 });
      const before = await k.balance(user);
      const res = await attempt(user, {
        type: 'product',
        product_id,
        payment_method_id: 'pm_card_visa',
        payment_source_id: 'card',
      }).expect(200);
      expect(res.body).toMatchObject({ status: 'completed', amount: 2500, requires_action: false });
      const pi = k.stripe.requests.find(
        (r) =>
          r.path === '/v1/payment_intents' && r.body.metadata?.purchase_id === String(res.body.purchase_id),
      );
      expect(pi?.body.amount).toBe('2500');
      expect((await k.balance(user)).display_balance).toBe(before.display_balance + 7000);
      const [{ value }] = await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user.user_id]);
      expect(Number(value)).toBe(25);
    });

    it('charges a saved card', async () => {
      const user = await k.t.createUser();
      const source = await savedCard(user);
      const res = await attempt(user, {
        product_id: await k.product(),
        payment_source_id: String(source),
      }).expect(200);
      expect(res.body.status).toBe('completed');
    });

    it('asks Stripe.js for 3-D Secure, then captures once the customer passed it', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ word_amount: 3000 });
      const res = await attempt(user, {
        product_id,
        payment_method_id: 'pm_card_threeDSecure2Required',
      }).expect(200);
      expect(res.body).toMatchObject({
        requires_action: true,
        status: 'pending',
        publishable_key: 'pk_test_platform',
      });
      expect(res.body.client_secret).toMatch(/^pi_.*_secret_/);
      const early = await capture(user, { purchase_id: res.body.purchase_id }).expect(402);
      expect(early.body.code).toBe('payment_incomplete');
      await capture(other, { purchase_id: res.body.purchase_id }).expect(404);
      k.stripe.completeAction(res.body.client_secret.split('_secret_')[0]);
      const done = await capture(user, { purchase_id: res.body.purchase_id }).expect(200);
      expect(done.body.status).toBe('completed');
      expect((await k.balance(user)).display_balance).toBe(3000);
    });

    it('answers 402 for a declined card and marks the purchase failed', async () => {
      const user = await k.t.createUser();
      const res = await attempt(user, {
        product_id: await k.product(),
        payment_method_id: 'pm_card_chargeDeclined',
      }).expect(402);
      expect(res.body.code).toBe('payment_declined');
      const [row] = await k.t.db.query(`SELECT status FROM purchases WHERE user_id = $1`, [user.user_id]);
      expect(row.status).toBe('failed');
    });

    it("answers 400 'You have not selected a valid payment method.' without a card", async () => {
      const res = await attempt(buyer, { product_id: await k.product() }).expect(400);
      expect(res.body.message).toBe(BILLING_MESSAGES.invalidPaymentMethod);
    });

    it('answers the Spanish sentence for a product that does not exist', async () => {
      const res = await attempt(buyer, { product_id: 999999, payment_method_id: 'pm_card_visa' }).expect(404);
      expect(res.body.message).toBe(PAYMENT_MESSAGES.productNotFound);
    });

    it("answers 409 once the user's own limit is reached", async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ limit_per_user: 1 });
      await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
      const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(409);
      expect(res.body.message).toBe(BILLING_MESSAGES.purchaseLimitReached);
    });

    it('sells exactly user_limit when 50 customers check out at once (the rest 412)', async () => {
      const product_id = await k.product({ user_limit: 10 });
      const users = await Promise.all(Array.from({ length: 50 }, () => k.t.createUser()));
      const answers = await Promise.all(
        users.map((u) => attempt(u, { product_id, payment_method_id: 'pm_card_visa' })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 412)).toHaveLength(40);
      expect(answers.find((a) => a.status === 412)?.body.message).toBe(BILLING_MESSAGES.productSoldOut);
      const [{ sold }] = await k.t.db.query(
        `SELECT count(*)::int AS sold FROM purchases WHERE product_id = $1 AND status = 'completed'`,
        [product_id],
      );
      expect(sold).toBe(10);
    });

    it('applies a discount code on the server', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 2000 });
      await k.discount({ code: `HALF${product_id}`, type: 'percent', amount: 50, product_id });
      const res = await attempt(user, {
        product_id,
        payment_method_id: 'pm_card_visa',
        discountCode: `half${product_id}`,
      }).expect(200);
      expect(res.body.amount).toBe(1000);
      const pi = k.stripe.requests.find(
        (r) =>
          r.path === '/v1/payment_intents' && r.body.metadata?.purchase_id === String(res.body.purchase_id),
      );
      expect(pi?.body.amount).toBe('1000');
    });

    it('starts a subscription with a free trial without charging, active at once', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        free_trial_length: 7,
        free_trial_words: 500,
        price: 1500,
      });
      const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
      expect(res.body.status).toBe('active');
      const purchase = await k.purchase(res.body.purchase_id);
      const sub = k.stripe.objects.get(purchase.stripe_subscription_id)!;
      expect(sub.status).toBe('trialing');
      expect(sub.trial_end - sub.trial_start).toBe(7 * 86400);
    });
  });

  describe('subscriptions and webhooks', () => {
    async function subscribe(user: TestUser, fields: Record<string, unknown> = {}) {
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: 1200,
        word_amount: 1000,
        ...fields,
      });
      const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
      expect(res.body.status).toBe('active');
      const purchase = await k.purchase(res.body.purchase_id);
      return {
        purchase_id: res.body.purchase_id as number,
        subscription: purchase.stripe_subscription_id as string,
      };
    }
    const eventsFor = (subscription: string, from: number) =>
      k.stripe.events.slice(from).filter((e) => JSON.stringify(e.data.object).includes(subscription));

    it('refuses a wrong secret, a stale timestamp, and answers a replay without a second effect', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await subscribe(user);
      const from = k.stripe.events.length;
      const invoice = k.stripe.renew(subscription);
      const paid = k.stripe.events
        .slice(from)
        .find((e) => e.type === 'invoice.paid' && (e.data.object as { id: string }).id === invoice.id)!;
      expect((await k.postStripe(paid, { secret: 'whsec_wrong' })).status).toBe(400);
      expect((await k.postStripe(paid, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(
        400,
      );
      expect((await k.postStripe(paid)).status).toBe(200);
      expect((await k.postStripe(paid)).status).toBe(200);
      await k.settle();
      const [{ n }] = await k.t.db.query(
        `SELECT count(*)::int AS n FROM invoices WHERE purchase_id = $1 AND stripe_invoice_id = $2`,
        [purchase_id, invoice.id],
      );
      expect(n).toBe(1);
      expect((await k.balance(user)).display_balance).toBe(2000);
      const unsigned = await k.t
        .http()
        .post('/api/stripe/webhook')
        .set('content-type', 'application/json')
        .send('{}');
      expect(unsigned.status).toBe(400);
    });

    it('marks a failed renewal and emails the user', async () => {
      const user = await k.t.createUser();
      const { subscription } = await subscribe(user);
      const from = k.stripe.events.length;
      k.stripe.renew(subscription, 'failed');
      for (const e of eventsFor(subscription, from)) expect((await k.postStripe(e)).status).toBe(200);
      await k.settle();
      const mail = await k.mail.next('/payment-failed', user.email);
      expect(mail).toMatchObject({ type: 'payment_failed', amount: '12.00' });
    });

    it('cancels at the period end at Stripe, and a late invoice.paid does not reactivate it', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await subscribe(user);
      const from = k.stripe.events.length;
      await k.t
        .http()
        .post(`/api/purchases/cancel/${purchase_id}`)
        .set('Authorization', user.auth)
        .send({ cancel_reason: 'Too expensive for me now', status: 'cancelled' })
        .expect((r) => expect(r.status).toBeLessThan(300));
      expect(k.stripe.objects.get(subscription)!.cancel_at_period_end).toBe(true);
      expect((await k.purchase(purchase_id)).status).toBe('cancelled');
      // A renewal billed before the cancel, delivered late.
      k.stripe.renew(subscription);
      for (const e of eventsFor(subscription, from)) await k.postStripe(e);
      const ended = k.stripe.event('customer.subscription.deleted', {
        ...k.stripe.objects.get(subscription)!,
        status: 'canceled',
        ended_at: Math.floor(Date.now() / 1000),
      });
      await k.postStripe(ended);
      await k.settle();
      expect((await k.purchase(purchase_id)).status).toBe('cancelled');
    });

    it('refunds through charge.refunded: the lifetime value shrinks and a full refund ends access', async () => {
      const user = await k.t.createUser();
      const res = await attempt(user, {
        product_id: await k.product({ price: 3000, word_amount: 900 }),
        payment_method_id: 'pm_card_visa',
      }).expect(200);
      const purchase = await k.purchase(res.body.purchase_id);
      const from = k.stripe.events.length;
      const stripe = new (await import('stripe')).default(PLATFORM_KEY, {
        host: '127.0.0.1',
        port: k.stripe.port,
        protocol: 'http',
      });
      await stripe.refunds.create({ payment_intent: purchase.stripe_payment_intent_id });
      const refunded = k.stripe.events.slice(from).find((e) => e.type === 'charge.refunded')!;
      await k.postStripe(refunded);
      await k.postStripe(refunded);
      await k.settle();
      const after = await k.purchase(res.body.purchase_id);
      expect(after.refunded_amount).toBe(3000);
      expect(after.status).toBe('revoked');
      const [{ value }] = await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user.user_id]);
      expect(Number(value)).toBe(0);
      expect((await k.balance(user)).has_access).toBe(false);
    });
  });

  describe('renewal refunds, disputes and renewals paid late', () => {
    const PRICE = 1200;
    const WORDS = 1000;
    async function subscribed(user: TestUser) {
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: PRICE,
        word_amount: WORDS,
      });
      const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
      const purchase = await k.purchase(res.body.purchase_id);
      return { purchase_id: res.body.purchase_id as number, subscription: purchase.stripe_subscription_id };
    }
    /** A renewal billed at the fake; its events are collected, not delivered. */
    function renewal(subscription: string, outcome: 'paid' | 'failed' = 'paid') {
      const from = k.stripe.events.length;
      const invoice = k.stripe.renew(subscription, outcome);
      const paymentIntent = invoice.payments.data[0].payment.payment_intent as string;
      return { invoice, paymentIntent, events: k.stripe.events.slice(from) };
    }
    const newEvents = (from: number) => k.stripe.events.slice(from);
    const deliver = async (events: unknown[]) => {
      for (const e of events) expect((await k.postStripe(e)).status).toBe(200);
    };
    const value = async (user: TestUser) =>
      Number((await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user.user_id]))[0].value);
    const invoiceRow = async (stripeInvoiceId: string) =>
      (await k.t.db.query(`SELECT * FROM invoices WHERE stripe_invoice_id = $1`, [stripeInvoiceId]))[0];

    it("refunds a renewal's charge once, in any order: its invoice, its period's words and the lifetime value", async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await subscribed(user);
      const renewed = renewal(subscription);
      await deliver(renewed.events);
      await k.settle();
      expect(await invoiceRow(renewed.invoice.id)).toMatchObject({
        status: 'completed',
        stripe_payment_intent_id: renewed.paymentIntent,
        refunded_amount: 0,
      });
      expect((await k.balance(user)).display_balance).toBe(2 * WORDS);
      const from = k.stripe.events.length;
      k.stripe.refund(renewed.paymentIntent, 500);
      k.stripe.refund(renewed.paymentIntent);
      const [partial, full] = newEvents(from);
      // The later total first, each twice: the invoice counts what the charge's running total adds.
      await deliver([full, partial, full, partial]);
      await k.settle();
      expect(await invoiceRow(renewed.invoice.id)).toMatchObject({ refunded_amount: PRICE });
      expect(await value(user)).toBe(PRICE / 100);
      expect((await k.balance(user)).display_balance).toBe(WORDS);
      const purchase = await k.purchase(purchase_id);
      expect({ status: purchase.status, refunded_amount: purchase.refunded_amount }).toEqual({
        status: 'active',
        refunded_amount: 0,
      });
      const audit = await k.t.db.query(
        `SELECT details FROM audit_events WHERE action = 'purchase.refunded' AND target_id = $1 ORDER BY audit_event_id`,
        [String(purchase_id)],
      );
      // One record per part applied (500 then 700, or 1200 at once), never more than was refunded.
      const amounts = audit.map((a: { details: { amount: number } }) => a.details.amount);
      expect(amounts.reduce((sum: number, a: number) => sum + a, 0)).toBe(PRICE);
    });

    it('waits with the refund of a renewal whose invoice.paid has not arrived yet', async () => {
      const user = await k.t.createUser();
      const { subscription } = await subscribed(user);
      const renewed = renewal(subscription);
      const from = k.stripe.events.length;
      k.stripe.refund(renewed.paymentIntent);
      await deliver(newEvents(from));
      await new Promise((r) => setTimeout(r, 300));
      await deliver(renewed.events);
      await k.settle();
      expect(await invoiceRow(renewed.invoice.id)).toMatchObject({
        status: 'completed',
        refunded_amount: PRICE,
      });
      expect(await value(user)).toBe(PRICE / 100);
      expect((await k.balance(user)).display_balance).toBe(WORDS);
    });

    it("ends access when a renewal's charge is disputed, gives the money back when the dispute is lost", async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await subscribed(user);
      const renewed = renewal(subscription);
      await deliver(renewed.events);
      const from = k.stripe.events.length;
      const dispute = k.stripe.dispute(renewed.paymentIntent);
      k.stripe.closeDispute(dispute.id, 'lost');
      // The decision first: the order does not matter.
      await deliver(newEvents(from).reverse());
      await k.settle();
      const purchase = await k.purchase(purchase_id);
      expect(purchase.status).toBe('revoked');
      expect((await k.balance(user)).has_access).toBe(false);
      expect(await invoiceRow(renewed.invoice.id)).toMatchObject({ refunded_amount: PRICE });
      expect(await value(user)).toBe(PRICE / 100);
    });

    it('keeps the money of a renewal whose dispute is won; access stays ended (revoked is final)', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await subscribed(user);
      const renewed = renewal(subscription);
      await deliver(renewed.events);
      const from = k.stripe.events.length;
      const dispute = k.stripe.dispute(renewed.paymentIntent);
      k.stripe.closeDispute(dispute.id, 'won');
      await deliver(newEvents(from));
      await k.settle();
      expect((await k.purchase(purchase_id)).status).toBe('revoked');
      expect(await invoiceRow(renewed.invoice.id)).toMatchObject({ refunded_amount: 0 });
      expect(await value(user)).toBe((2 * PRICE) / 100);
    });

    it.each([
      ['failure first', false],
      ['payment first', true],
    ])(
      'records a failed renewal paid on a retry once, with its words and access (%s)',
      async (_order, paymentFirst) => {
        const user = await k.t.createUser();
        const { purchase_id, subscription } = await subscribed(user);
        const failed = renewal(subscription, 'failed');
        const from = k.stripe.events.length;
        k.stripe.payInvoice(failed.invoice.id);
        const paid = newEvents(from);
        await deliver(paymentFirst ? [...paid, ...failed.events] : [...failed.events]);
        await k.settle();
        if (!paymentFirst) {
          expect(await invoiceRow(failed.invoice.id)).toMatchObject({ status: 'failed' });
          expect((await k.balance(user)).display_balance).toBe(WORDS);
          await deliver([...paid, ...failed.events]);
          await k.settle();
        }
        const rows = await k.t.db.query(`SELECT * FROM invoices WHERE purchase_id = $1`, [purchase_id]);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          status: 'completed',
          amount: PRICE,
          stripe_invoice_id: failed.invoice.id,
          stripe_payment_intent_id: failed.paymentIntent,
        });
        expect((await k.balance(user)).display_balance).toBe(2 * WORDS);
        expect(await value(user)).toBe((2 * PRICE) / 100);
        const purchase = await k.purchase(purchase_id);
        expect(purchase.status).toBe('active');
        expect(new Date(purchase.expires_at).getTime()).toBe(failed.invoice.period_end * 1000);
      },
    );

    it.each([
      ['a new card', 'pm_card_mastercard'],
      ['a card that asks for 3-D Secure', 'pm_card_threeDSecure2Required'],
    ])(
      'pays a failed renewal from Billing with %s by paying its Stripe invoice: recorded once, never charged twice',
      async (_card, newCard) => {
        const user = await k.t.createUser();
        const { purchase_id, subscription } = await subscribed(user);
        const failed = renewal(subscription, 'failed');
        await deliver(failed.events);
        await k.settle();
        const row = await invoiceRow(failed.invoice.id);
        expect(row.status).toBe('failed');
        // Another customer cannot pay it.
        await attempt(other, {
          type: 'invoice',
          invoice_id: row.invoice_id,
          payment_source_id: 'card',
          payment_method_id: 'pm_card_visa',
        }).expect(404);
        const from = k.stripe.events.length;
        const res = await attempt(user, {
          type: 'invoice',
          invoice_id: row.invoice_id,
          payment_source_id: 'card',
          payment_method_id: newCard,
        }).expect(200);
        if (res.body.requires_action) {
          expect(res.body.client_secret).toMatch(new RegExp(`^${failed.paymentIntent}_secret_`));
          k.stripe.completeAction(failed.paymentIntent);
          const captured = await capture(user, {
            invoice_id: row.invoice_id,
            payment_intent_id: failed.paymentIntent,
          }).expect(200);
          expect(captured.body.status).toBe('completed');
        } else expect(res.body).toMatchObject({ invoice_id: row.invoice_id, status: 'completed' });
        // Stripe's own invoice.paid arrives too and finds it done.
        await deliver(newEvents(from));
        await k.settle();
        expect(k.stripe.objects.get(failed.invoice.id)!.status).toBe('paid');
        expect(
          k.stripe.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST'),
        ).not.toContainEqual(
          expect.objectContaining({
            body: expect.objectContaining({
              metadata: { invoice_id: String(row.invoice_id), user_id: String(user.user_id) },
            }),
          }),
        );
        const rows = await k.t.db.query(`SELECT * FROM invoices WHERE purchase_id = $1`, [purchase_id]);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          status: 'completed',
          stripe_payment_intent_id: failed.paymentIntent,
        });
        expect((await k.balance(user)).display_balance).toBe(2 * WORDS);
        expect(await value(user)).toBe((2 * PRICE) / 100);
      },
    );
  });

  describe("an organization's own Stripe account", () => {
    const ORG_WEBHOOK_SECRET = 'whsec_payments_organization';
    it("charges its plan with the organization's key and applies its webhooks (renewal, refund) only when signed with its secret", async () => {
      const organization_id = await k.t.createOrganization();
      const box = new SecretBox(k.t.env.appSecret);
      await k.t.db.query(
        `UPDATE organizations SET stripe_public = 'pk_test_org', stripe_secret = $2, stripe_webhook_secret = $3
         WHERE organization_id = $1`,
        [organization_id, box.encrypt(ORG_KEY), box.encrypt(ORG_WEBHOOK_SECRET)],
      );
      const user = await k.t.createUser();
      await k.t.addMember(organization_id, user.user_id, 3);
      const product_id = await k.product({
        organization_id,
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: 2000,
        word_amount: 300,
      });
      const res = await k.t
        .http()
        .post('/api/checkout/attempt')
        .query({ organization_id })
        .set('Authorization', user.auth)
        .send({ product_id, payment_method_id: 'pm_card_visa' })
        .expect(200);
      const purchase = await k.purchase(res.body.purchase_id);
      const created = k.stripe.requests.find(
        (r) =>
          r.path === '/v1/subscriptions' &&
          r.method === 'POST' &&
          r.body.metadata?.purchase_id === String(res.body.purchase_id),
      );
      expect(created?.key).toBe(ORG_KEY);
      const from = k.stripe.events.length;
      const invoice = k.stripe.renew(purchase.stripe_subscription_id);
      k.stripe.refund(invoice.payments.data[0].payment.payment_intent);
      const events = k.stripe.events.slice(from);
      const path = `/api/stripe/webhook/organization/${organization_id}`;
      // The platform's secret does not sign the organization's endpoint.
      expect((await k.postStripe(events[0], { path })).status).toBe(400);
      // The refund first: it is found through the organization's account and waits for its renewal.
      const refund = events.find((e) => e.type === 'charge.refunded')!;
      expect((await k.postStripe(refund, { path, secret: ORG_WEBHOOK_SECRET })).status).toBe(200);
      for (const e of events.filter((x) => x !== refund))
        expect((await k.postStripe(e, { path, secret: ORG_WEBHOOK_SECRET })).status).toBe(200);
      await k.settle();
      const [row] = await k.t.db.query(`SELECT * FROM invoices WHERE stripe_invoice_id = $1`, [invoice.id]);
      expect(row).toMatchObject({ status: 'completed', amount: 2000, refunded_amount: 2000 });
      expect(k.stripe.requests.some((r) => r.path === '/v1/invoice_payments' && r.key === ORG_KEY)).toBe(
        true,
      );
      const [{ account }] = await k.t.db.query(
        `SELECT DISTINCT account FROM payment_events WHERE event_id = $1`,
        [refund.id],
      );
      expect(account).toBe(`org:${organization_id}`);
    });
  });

  describe('PayPal', () => {
    it('creates an order, captures it once approved and answers the purchase id', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 990, word_amount: 2000 });
      const created = await k.t
        .http()
        .post('/api/paypal/order')
        .set('Authorization', user.auth)
        .send({ product_id })
        .expect(201);
      expect(created.body.orderID).toBeTruthy();
      expect(k.paypal.orders.get(created.body.orderID)!.purchase_units[0].amount.value).toBe('9.90');
      const early = await k.t
        .http()
        .post('/api/paypal/order/capture')
        .set('Authorization', user.auth)
        .send({ product_id, orderID: created.body.orderID });
      expect(early.status).toBe(402);
      k.paypal.approveOrder(created.body.orderID);
      await k.t
        .http()
        .post('/api/paypal/order/capture')
        .set('Authorization', other.auth)
        .send({ product_id, orderID: created.body.orderID })
        .expect(404);
      const captured = await k.t
        .http()
        .post('/api/paypal/order/capture')
        .set('Authorization', user.auth)
        .send({ product_id, orderID: created.body.orderID })
        .expect(200);
      expect((await k.purchase(captured.body.purchase_id)).status).toBe('completed');
      expect((await k.balance(user)).display_balance).toBe(2000);
    });

    it('subscribes through a plan priced on the server and records the approved subscription', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: 1500,
        word_amount: 4000,
      });
      const created = await k.t
        .http()
        .post('/api/paypal/subscription')
        .set('Authorization', user.auth)
        .send({ product_id })
        .expect(201);
      const plan = k.paypal.plans.get(created.body.plan_id)!;
      expect(plan.billing_cycles[0].pricing_scheme.fixed_price.value).toBe('15.00');
      // What PayPal's buttons do with the plan id: create the subscription, then the buyer approves it.
      const sub = {
        id: 'I-PAYMENTSTEST1',
        plan_id: created.body.plan_id,
        custom_id: String(created.body.purchase_id),
        status: 'APPROVAL_PENDING',
      };
      k.paypal.subscriptions.set(sub.id, sub);
      k.paypal.approveSubscription(sub.id);
      const captured = await k.t
        .http()
        .post('/api/paypal/subscription/capture')
        .set('Authorization', user.auth)
        .send({ product_id, subscriptionID: sub.id, purchase_id: created.body.purchase_id })
        .expect(200);
      expect(captured.body.purchase_id).toBe(created.body.purchase_id);
      expect((await k.purchase(created.body.purchase_id)).status).toBe('active');
    });

    it("counts a captured subscription's first sale once, renews it, and refunds a renewal's sale and the first one", async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: 1500,
        word_amount: 4000,
      });
      const created = await k.t
        .http()
        .post('/api/paypal/subscription')
        .set('Authorization', user.auth)
        .send({ product_id })
        .expect(201);
      const subscriptionID = 'I-PAYMENTSTEST2';
      k.paypal.subscriptions.set(subscriptionID, {
        id: subscriptionID,
        plan_id: created.body.plan_id,
        custom_id: String(created.body.purchase_id),
        status: 'APPROVAL_PENDING',
      });
      k.paypal.approveSubscription(subscriptionID);
      const purchase_id = created.body.purchase_id as number;
      await k.t
        .http()
        .post('/api/paypal/subscription/capture')
        .set('Authorization', user.auth)
        .send({ product_id, subscriptionID, purchase_id })
        .expect(200);
      const value = async () =>
        Number((await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user.user_id]))[0].value);
      const first = k.paypal.sale(subscriptionID);
      expect((await k.paypal.deliver(first)).status).toBe(200);
      await k.settle();
      // The first sale is the payment the capture counted.
      expect((await k.purchase(purchase_id)).payment_processor_id).toBe(first.resource.id);
      expect((await k.balance(user)).display_balance).toBe(4000);
      expect(await value()).toBe(15);

      const renewal = k.paypal.sale(subscriptionID, { renewal: true });
      await k.paypal.deliver(renewal);
      await k.settle();
      expect((await k.balance(user)).display_balance).toBe(8000);
      expect(await value()).toBe(30);

      await k.paypal.deliver(k.paypal.refundSale(renewal, 500));
      await k.paypal.deliver(k.paypal.refundSale(renewal, 1000));
      await k.settle();
      const [invoice] = await k.t.db.query(`SELECT * FROM invoices WHERE paypal_capture_id = $1`, [
        renewal.resource.id,
      ]);
      expect(invoice).toMatchObject({ status: 'completed', refunded_amount: 1500 });
      expect((await k.balance(user)).display_balance).toBe(4000);
      expect(await value()).toBe(15);

      await k.paypal.deliver(k.paypal.refundSale(first));
      await k.settle();
      const after = await k.purchase(purchase_id);
      expect({ status: after.status, refunded_amount: after.refunded_amount }).toEqual({
        status: 'revoked',
        refunded_amount: 1500,
      });
      expect(await value()).toBe(0);
    });

    it('records a PayPal renewal that failed and was paid on a retry once, whichever arrives first', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({
        is_subscription: true,
        subscription_interval: 1,
        subscription_period: 'month',
        price: 900,
        word_amount: 100,
      });
      const created = await k.t
        .http()
        .post('/api/paypal/subscription')
        .set('Authorization', user.auth)
        .send({ product_id })
        .expect(201);
      const subscriptionID = 'I-PAYMENTSTEST3';
      k.paypal.subscriptions.set(subscriptionID, {
        id: subscriptionID,
        plan_id: created.body.plan_id,
        custom_id: String(created.body.purchase_id),
        status: 'APPROVAL_PENDING',
      });
      k.paypal.approveSubscription(subscriptionID);
      const purchase_id = created.body.purchase_id as number;
      await k.t
        .http()
        .post('/api/paypal/subscription/capture')
        .set('Authorization', user.auth)
        .send({ product_id, subscriptionID, purchase_id })
        .expect(200);
      const failure = (time: Date) =>
        k.paypal.event('BILLING.SUBSCRIPTION.PAYMENT.FAILED', {
          ...k.paypal.subscriptions.get(subscriptionID),
          billing_info: {
            ...k.paypal.subscriptions.get(subscriptionID)!.billing_info,
            last_failed_payment: {
              amount: { value: '9.00', currency_code: 'USD' },
              time: time.toISOString(),
            },
          },
        });
      // Failed, failed again on PayPal's retry, then paid: one invoice, failed then completed.
      await k.paypal.deliver(failure(new Date(Date.now() - 60_000)));
      await k.settle();
      await k.paypal.deliver(failure(new Date(Date.now() - 30_000)));
      await k.settle();
      const failedRows = await k.t.db.query(
        `SELECT invoice_id, status FROM invoices WHERE purchase_id = $1`,
        [purchase_id],
      );
      expect(failedRows).toEqual([{ invoice_id: expect.any(Number), status: 'failed' }]);
      // PayPal collects its failed renewals itself: Billing does not charge a card for one.
      const refused = await attempt(user, {
        type: 'invoice',
        invoice_id: failedRows[0].invoice_id,
        payment_source_id: 'card',
        payment_method_id: 'pm_card_visa',
      }).expect(409);
      expect(refused.body.code).toBe('invoice_paid_by_provider');
      const paid = k.paypal.sale(subscriptionID, { renewal: true });
      await k.paypal.deliver(paid);
      await k.settle();
      // A failure PayPal reported before that payment, delivered after it, records nothing.
      await k.paypal.deliver(failure(new Date(Date.now() - 10_000)));
      await k.settle();
      const rows = await k.t.db.query(
        `SELECT status, paypal_capture_id, amount FROM invoices WHERE purchase_id = $1`,
        [purchase_id],
      );
      expect(rows).toEqual([{ status: 'completed', paypal_capture_id: paid.resource.id, amount: 900 }]);

      expect((await k.balance(user)).display_balance).toBe(200);
    });

    it('refuses a PayPal webhook whose signature PayPal does not confirm, and accepts a signed one', async () => {
      const event = k.paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: 'I-UNKNOWN' });
      expect((await k.paypal.deliver(event, { badSignature: true })).status).toBe(400);
      expect((await k.paypal.deliver(event)).status).toBe(200);
      await k.settle();
    });
  });
});
