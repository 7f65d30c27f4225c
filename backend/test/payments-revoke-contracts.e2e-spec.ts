import type { TestUser } from './harness';
import { SecretBox } from '../src/common/crypto/secret-box';
import { JobQueue } from '../src/common/jobs/job-queue';
import { addPeriod } from '../src/modules/purchases/purchase-rules';
import { startPaymentsKit, ORG_KEY, PaymentsKit } from './payments-kit';

/**
 * Revoking a subscription at its provider, PayPal renewal periods and early refunds, invoices staff issue paid
 * through checkout (contract_invoice_id), and the key an organization's renewal is paid with.
 */
describe('Payments: revoke at the provider, PayPal periods, contract invoices, invoice keys', () => {
  let k: PaymentsKit;
  let other: TestUser;

  beforeAll(async () => {
    k = await startPaymentsKit();
    other = await k.t.createUser();
  });
  afterAll(() => k.close());

  const attempt = (who: TestUser, body: Record<string, unknown>) =>
    k.t.http().post('/api/checkout/attempt').set('Authorization', who.auth).send(body);
  const capture = (who: TestUser, body: Record<string, unknown>) =>
    k.t.http().post('/api/checkout/capture').set('Authorization', who.auth).send(body);
  const value = async (user: TestUser) =>
    Number((await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [user.user_id]))[0].value);
  /** PurchasesService's PROVIDER_STOP_JOB (importing the service first here would start a circular import). */
  const PROVIDER_STOP_JOB = 'purchase-provider-stop';
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
      await sleep(100);
    }
  }
  const auditOf = (action: string, purchase_id: number) =>
    k.t.db.query(
      `SELECT * FROM audit_events WHERE action = $1 AND target_type = 'purchase' AND target_id = $2`,
      [action, String(purchase_id)],
    );
  const revoke = (purchase_id: number) =>
    k.t
      .http()
      .put('/api/users/revokeAccess')
      .set('Authorization', k.admin.auth)
      .send({ purchase_id, reason: 'Chargeback risk' });

  async function stripeSubscription(user: TestUser) {
    const product_id = await k.product({
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
      price: 1200,
      word_amount: 1000,
    });
    const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
    expect(res.body.status).toBe('active');
    const purchase = await k.purchase(res.body.purchase_id);
    return { purchase_id: res.body.purchase_id as number, subscription: purchase.stripe_subscription_id };
  }

  let paypalCount = 0;
  async function paypalSubscription(user: TestUser, price = 1500) {
    const product_id = await k.product({
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
      price,
      word_amount: 4000,
    });
    const created = await k.t
      .http()
      .post('/api/paypal/subscription')
      .set('Authorization', user.auth)
      .send({ product_id })
      .expect(201);
    const subscriptionID = `I-REVOKETEST${++paypalCount}`;
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
    const first = k.paypal.sale(subscriptionID);
    expect((await k.paypal.deliver(first)).status).toBe(200);
    await k.settle();
    return { purchase_id, subscriptionID };
  }

  describe('revoking access', () => {
    it('ends a renewing Stripe subscription at Stripe in a job that retries while Stripe fails, and audits it', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await stripeSubscription(user);
      const queued = jest.spyOn(k.t.app.get(JobQueue), 'add');
      k.stripe.failNext = { prefix: '/v1/subscriptions', status: 500 };
      try {
        const res = await revoke(purchase_id).expect(200);
        // The job carries ids only: the provider's keys are read when it runs.
        const stops = queued.mock.calls.filter(([name]) => name === PROVIDER_STOP_JOB);
        expect(stops.map(([, data]) => data)).toEqual([{ purchase_id, requested_by: k.admin.user_id }]);
        queued.mockRestore();
        expect(res.body.purchase.status).toBe('revoked');
        // Access ends at once, whatever the provider does.
        expect(await k.balance(user)).toMatchObject({ display_balance: 0, has_access: false });
        await sleep(1500);
        expect(k.stripe.objects.get(subscription)!.status).toBe('active');
        expect(await auditOf('purchase.subscription_stopped', purchase_id)).toHaveLength(0);
      } finally {
        k.stripe.failNext = null;
      }
      await until(
        () => k.stripe.objects.get(subscription)!.status,
        (s) => s === 'canceled',
      );
      const [audit] = await until(
        () => auditOf('purchase.subscription_stopped', purchase_id),
        (rows) => rows.length > 0,
      );
      expect(audit.details).toMatchObject({
        outcome: 'stopped',
        provider: 'stripe',
        subscription,
        requested_by: k.admin.user_id,
      });
      const cancels = k.stripe.requests.filter(
        (r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription}`,
      );
      expect(cancels.length).toBeGreaterThan(0);
      expect(new Set(cancels.map((r) => r.idempotencyKey))).toEqual(new Set([`revoke-${purchase_id}`]));
      // Stripe's own deletion event changes nothing more.
      const deleted = k.stripe.events.filter(
        (e) =>
          e.type === 'customer.subscription.deleted' && (e.data.object as { id: string }).id === subscription,
      );
      for (const e of deleted) expect((await k.postStripe(e)).status).toBe(200);
      await k.settle();
      expect((await k.purchase(purchase_id)).status).toBe('revoked');
    });

    it('ends a cancelled subscription still running to its period end, and a PayPal one', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscription } = await stripeSubscription(user);
      await k.t
        .http()
        .post(`/api/purchases/cancel/${purchase_id}`)
        .set('Authorization', user.auth)
        .send({ cancel_reason: 'Too expensive for me now', status: 'cancelled' })
        .expect((r) => expect(r.status).toBeLessThan(300));
      expect(k.stripe.objects.get(subscription)!.status).toBe('active');
      // Through the back office's purchase edit this time.
      await k.t
        .http()
        .put('/api/purchases/admin')
        .set('Authorization', k.admin.auth)
        .send({ purchase_id, status: 'revoked', cancel_reason: 'Abuse of the service' })
        .expect(200);
      await until(
        () => k.stripe.objects.get(subscription)!.status,
        (s) => s === 'canceled',
      );

      const payer = await k.t.createUser();
      const pp = await paypalSubscription(payer);
      await revoke(pp.purchase_id).expect(200);
      await until(
        () => k.paypal.subscriptions.get(pp.subscriptionID)!.status,
        (s) => s === 'CANCELLED',
      );
      const [audit] = await until(
        () => auditOf('purchase.subscription_stopped', pp.purchase_id),
        (rows) => rows.length > 0,
      );
      expect(audit.details).toMatchObject({ outcome: 'stopped', provider: 'paypal' });
    });

    it('queues nothing for a purchase without a provider subscription', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 500, word_amount: 100 });
      const res = await attempt(user, { product_id, payment_method_id: 'pm_card_visa' }).expect(200);
      const before = k.stripe.requests.length;
      await revoke(res.body.purchase_id).expect(200);
      await sleep(500);
      expect(k.stripe.requests.slice(before).filter((r) => r.path.startsWith('/v1/subscriptions'))).toEqual(
        [],
      );
      expect(await auditOf('purchase.subscription_stopped', res.body.purchase_id)).toHaveLength(0);
    });
  });

  describe('PayPal renewals', () => {
    it("gives each renewal the period from its own sale's time, in any arrival order", async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscriptionID } = await paypalSubscription(user);
      const second = k.paypal.sale(subscriptionID, { renewal: true });
      const third = k.paypal.sale(subscriptionID, { renewal: true });
      // Delivered late and the later one first: PayPal's next billing time is two cycles on by now.
      await k.paypal.deliver(third);
      await k.paypal.deliver(second);
      await k.settle();
      const rows = await k.t.db.query(
        `SELECT paypal_capture_id, period_end FROM invoices WHERE purchase_id = $1 ORDER BY period_end`,
        [purchase_id],
      );
      // The product's rule (unit-tested in purchase-rules.spec): a month from the 29th, 30th or 31st ends on the
      // last day of a shorter month, where Date's own month arithmetic runs into the next one.
      const monthAfter = (iso: string) => addPeriod(new Date(iso), 1, 'month').getTime();
      expect(rows.map((r: { paypal_capture_id: string }) => r.paypal_capture_id)).toEqual([
        second.resource.id,
        third.resource.id,
      ]);
      expect(new Date(rows[0].period_end).getTime()).toBe(monthAfter(second.resource.create_time));
      expect(new Date(rows[1].period_end).getTime()).toBe(monthAfter(third.resource.create_time));
      const purchase = await k.purchase(purchase_id);
      expect(new Date(purchase.expires_at).getTime()).toBe(monthAfter(third.resource.create_time));
      expect((await k.balance(user)).display_balance).toBe(3 * 4000);
    });

    it('keeps a refund that arrives before its sale waiting, then applies it once the sale is in', async () => {
      const user = await k.t.createUser();
      const { purchase_id, subscriptionID } = await paypalSubscription(user);
      const renewal = k.paypal.sale(subscriptionID, { renewal: true });
      const refund = k.paypal.refundSale(renewal);
      expect(refund.resource.billing_agreement_id).toBeUndefined();
      expect((await k.paypal.deliver(refund)).status).toBe(200);
      await sleep(1500);
      const [waiting] = await k.t.db.query(`SELECT status FROM payment_events WHERE event_id = $1`, [
        refund.id,
      ]);
      expect(waiting.status).toBe('received');
      await k.paypal.deliver(renewal);
      await k.settle();
      const [invoice] = await k.t.db.query(`SELECT * FROM invoices WHERE paypal_capture_id = $1`, [
        renewal.resource.id,
      ]);
      expect(invoice).toMatchObject({ purchase_id, status: 'completed', refunded_amount: 1500 });
      expect((await k.balance(user)).display_balance).toBe(4000);
      expect(await value(user)).toBe(15);
    });
  });

  describe('invoices staff issue, paid through checkout (contract_invoice_id)', () => {
    async function issue(user: TestUser, amount: number) {
      const res = await k.t
        .http()
        .post('/api/invoices/admin')
        .set('Authorization', k.admin.auth)
        .send({ user_id: user.user_id, amount, description: 'Annual contract' })
        .expect(201);
      expect(res.body.invoice.status).toBe('pending');
      return res.body.invoice.invoice_id as number;
    }
    const invoiceRow = async (invoice_id: number) =>
      (await k.t.db.query(`SELECT * FROM invoices WHERE invoice_id = $1`, [invoice_id]))[0];

    it("charges the invoice's amount for the product, pays the invoice and grants the product's words once", async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 1000, word_amount: 5000 });
      const invoice_id = await issue(user, 2500);
      // Not another customer's, and no discount on top of a contract.
      await attempt(other, {
        product_id,
        contract_invoice_id: invoice_id,
        payment_method_id: 'pm_card_visa',
      }).expect(404);
      const discounted = await attempt(user, {
        product_id,
        contract_invoice_id: invoice_id,
        discountCode: 'ANY',
        payment_method_id: 'pm_card_visa',
      }).expect(400);
      expect(discounted.body.code).toBe('discount_not_applicable');
      const res = await attempt(user, {
        product_id,
        contract_invoice_id: invoice_id,
        payment_method_id: 'pm_card_visa',
      }).expect(200);
      expect(res.body).toMatchObject({ status: 'completed', amount: 2500 });
      const charged = k.stripe.objects.get(
        (await k.purchase(res.body.purchase_id)).stripe_payment_intent_id,
      )!;
      expect(charged.amount).toBe(2500);
      expect(await invoiceRow(invoice_id)).toMatchObject({
        status: 'completed',
        purchase_id: res.body.purchase_id,
        payment_method_id: 1,
      });
      expect((await k.balance(user)).display_balance).toBe(5000);
      // The money is counted once, by the purchase.
      expect(await value(user)).toBe(25);
      const [audit] = await k.t.db.query(
        `SELECT details FROM audit_events WHERE action = 'invoice.status_changed' AND target_id = $1`,
        [String(invoice_id)],
      );
      expect(audit.details).toMatchObject({ from: 'pending', to: 'completed' });
      // Paid: it cannot be paid again.
      await attempt(user, {
        product_id,
        contract_invoice_id: invoice_id,
        payment_method_id: 'pm_card_visa',
      }).expect(404);
    });

    it('pays the invoice after 3-D Secure, and a declined card leaves it open for another try', async () => {
      const user = await k.t.createUser();
      const product_id = await k.product({ price: 1000, word_amount: 700 });
      const invoice_id = await issue(user, 4000);
      const declined = await attempt(user, {
        product_id,
        contract_invoice_id: invoice_id,
        payment_method_id: 'pm_card_chargeDeclined',
      });
      expect(declined.status).toBe(402);
      expect((await invoiceRow(invoice_id)).status).toBe('pending');
      const res = await attempt(user, {
        product_id,
        contract_invoice_id: invoice_id,
        payment_method_id: 'pm_card_threeDSecure2Required',
      }).expect(200);
      expect(res.body.requires_action).toBe(true);
      expect((await invoiceRow(invoice_id)).status).toBe('pending');
      const purchase = await k.purchase(res.body.purchase_id);
      k.stripe.completeAction(purchase.stripe_payment_intent_id);
      const done = await capture(user, { purchase_id: res.body.purchase_id }).expect(200);
      expect(done.body.status).toBe('completed');
      expect(await invoiceRow(invoice_id)).toMatchObject({
        status: 'completed',
        purchase_id: res.body.purchase_id,
      });
      expect((await k.balance(user)).display_balance).toBe(700);
      expect(await value(user)).toBe(40);
    });
  });

  describe('the key an invoice is paid with', () => {
    it("answers an organization's renewal with its own publishable key, pays it with its saved card, and a staff invoice with the platform's", async () => {
      const organization_id = await k.t.createOrganization();
      const box = new SecretBox(k.t.env.appSecret);
      await k.t.db.query(
        `UPDATE organizations SET stripe_public = 'pk_test_org', stripe_secret = $2, stripe_webhook_secret = $3
         WHERE organization_id = $1`,
        [organization_id, box.encrypt(ORG_KEY), box.encrypt('whsec_revoke_org')],
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
      const from = k.stripe.events.length;
      const failed = k.stripe.renew(purchase.stripe_subscription_id, 'failed');
      for (const e of k.stripe.events.slice(from))
        expect(
          (
            await k.postStripe(e, {
              path: `/api/stripe/webhook/organization/${organization_id}`,
              secret: 'whsec_revoke_org',
            })
          ).status,
        ).toBe(200);
      await k.settle();
      const [row] = await k.t.db.query(`SELECT * FROM invoices WHERE stripe_invoice_id = $1`, [failed.id]);
      expect(row.status).toBe('failed');
      const keys = await k.t
        .http()
        .get(`/api/checkout/invoice_keys/${row.invoice_id}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(keys.body).toEqual({ stripe_publishable_key: 'pk_test_org', organization_id });
      await k.t
        .http()
        .get(`/api/checkout/invoice_keys/${row.invoice_id}`)
        .set('Authorization', other.auth)
        .expect(404);

      // A card saved in the organization's scope pays its renewal.
      const setup = await k.t
        .http()
        .post('/api/payment_sources/setup')
        .query({ organization_id })
        .set('Authorization', user.auth)
        .expect(201);
      expect(setup.body.publishable_key).toBe('pk_test_org');
      k.stripe.confirmSetupIntent(setup.body.setup_intent_id, 'pm_card_mastercard');
      const saved = await k.t
        .http()
        .post('/api/payment_sources')
        .query({ organization_id })
        .set('Authorization', user.auth)
        .send({ setup_intent_id: setup.body.setup_intent_id })
        .expect(201);
      expect(saved.body.payment_source.organization_id).toBe(organization_id);
      const paid = await attempt(user, {
        type: 'invoice',
        invoice_id: row.invoice_id,
        payment_source_id: String(saved.body.payment_source.payment_source_id),
      }).expect(200);
      expect(paid.body).toMatchObject({ invoice_id: row.invoice_id, status: 'completed' });
      expect(k.stripe.objects.get(failed.id)!.status).toBe('paid');

      const staffInvoice = await k.t
        .http()
        .post('/api/invoices/admin')
        .set('Authorization', k.admin.auth)
        .send({ user_id: user.user_id, amount: 900 })
        .expect(201);
      const platform = await k.t
        .http()
        .get(`/api/checkout/invoice_keys/${staffInvoice.body.invoice.invoice_id}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(platform.body).toEqual({ stripe_publishable_key: 'pk_test_platform', organization_id: null });
      // A paid invoice has nothing left to pay.
      await k.t
        .http()
        .get(`/api/checkout/invoice_keys/${row.invoice_id}`)
        .set('Authorization', user.auth)
        .expect(404);
    });
  });
});
