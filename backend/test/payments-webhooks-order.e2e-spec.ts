import type Stripe from 'stripe';
import type { TestUser } from './harness';
import { startPaymentsKit, PaymentsKit } from './payments-kit';

/** A seeded shuffle, so a failure can be replayed. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const PRICE = 1200;
const WORDS = 1000;
const RENEWALS = 3;
const FULL_REFUND_FIRST_PART = 700;
const PARTIAL_REFUND = 300;

/** Where each case must end, whatever order its events arrive in (value in cents). */
const EXPECTED = {
  renewed: { status: 'active', paid: RENEWALS, failed: 0, refunded: 0, words: WORDS * 4, value: PRICE * 4 },
  cancelled: { status: 'cancelled', paid: 0, failed: 0, refunded: 0, words: WORDS, value: PRICE },
  failed: { status: 'active', paid: 0, failed: 1, refunded: 0, words: WORDS, value: PRICE },
  // Three renewals; the first given back in full (its period's words gone), the second in part.
  refunded: {
    status: 'active',
    paid: RENEWALS,
    failed: 0,
    refunded: PRICE + PARTIAL_REFUND,
    words: WORDS * 3,
    value: PRICE * 4 - PRICE - PARTIAL_REFUND,
  },
  // Two renewals, the second disputed and lost: access ended, that renewal's money back.
  disputed: { status: 'revoked', paid: 2, failed: 0, refunded: PRICE, words: 0, value: PRICE * 3 - PRICE },
  // A renewal that failed, then was paid on a retry.
  latePaid: { status: 'active', paid: 1, failed: 0, refunded: 0, words: WORDS * 2, value: PRICE * 2 },
} as const;

describe('Stripe webhooks in any order and repeated', () => {
  let k: PaymentsKit;

  beforeAll(async () => {
    k = await startPaymentsKit();
  });
  afterAll(() => k.close());

  it('leaves purchases, invoices, refunds, lifetime values and the word ledger exact after 1,000 shuffled, duplicated events', async () => {
    const product_id = await k.product({
      is_subscription: true,
      subscription_interval: 1,
      subscription_period: 'month',
      price: PRICE,
      word_amount: WORDS,
    });
    type Kind = 'renewed' | 'cancelled' | 'failed' | 'refunded' | 'disputed' | 'latePaid';
    type Case = { user: TestUser; purchase_id: number; subscription: string; kind: Kind };
    const cases: Case[] = [];
    const from = k.stripe.events.length;
    const kinds: Kind[] = ['renewed', 'renewed', 'cancelled', 'failed', 'refunded', 'disputed', 'latePaid'];
    type BilledInvoice = { payments: { data: { payment: { payment_intent: string } }[] } };
    const paymentIntentOf = (invoice: object) =>
      (invoice as BilledInvoice).payments.data[0].payment.payment_intent;
    for (let i = 0; i < 42; i++) {
      const user = await k.t.createUser();
      // Half confirm 3-D Secure and never capture: only the webhooks activate them.
      const card = i % 2 ? 'pm_card_threeDSecure2Required' : 'pm_card_visa';
      const res = await k.t
        .http()
        .post('/api/checkout/attempt')
        .set('Authorization', user.auth)
        .send({ product_id, payment_method_id: card })
        .expect(200);
      const purchase = await k.purchase(res.body.purchase_id);
      if (res.body.requires_action) k.stripe.completeAction(res.body.client_secret.split('_secret_')[0]);
      const kind = kinds[i % kinds.length];
      const subscription = purchase.stripe_subscription_id as string;
      if (kind === 'renewed') for (let r = 0; r < RENEWALS; r++) k.stripe.renew(subscription);
      if (kind === 'failed') k.stripe.renew(subscription, 'failed');
      if (kind === 'cancelled') {
        const sub = k.stripe.objects.get(subscription)!;
        sub.cancel_at_period_end = true;
        k.stripe.events.push(k.stripe.event('customer.subscription.updated', sub));
      }
      if (kind === 'refunded') {
        const renewals = Array.from({ length: RENEWALS }, () => k.stripe.renew(subscription));
        // The first renewal refunded in full in two parts, the second in part.
        k.stripe.refund(paymentIntentOf(renewals[0]), FULL_REFUND_FIRST_PART);
        k.stripe.refund(paymentIntentOf(renewals[0]));
        k.stripe.refund(paymentIntentOf(renewals[1]), PARTIAL_REFUND);
      }
      if (kind === 'disputed') {
        k.stripe.renew(subscription);
        const dispute = k.stripe.dispute(paymentIntentOf(k.stripe.renew(subscription)));
        k.stripe.closeDispute(dispute.id, 'lost');
      }
      if (kind === 'latePaid') k.stripe.payInvoice(k.stripe.renew(subscription, 'failed').id);
      cases.push({ user, purchase_id: res.body.purchase_id, subscription, kind });
    }
    // What billing listens to (customers, cards and setup intents change nothing here).
    const ours = k.stripe.events
      .slice(from)
      .filter((e) => /^(payment_intent|invoice|customer\.subscription|charge)\./.test(e.type));
    // Every event at least once, and repeats up to 1,000 deliveries.
    const deliveries: Stripe.Event[] = [...ours];
    let n = 0;
    while (deliveries.length < 1000) deliveries.push(ours[n++ % ours.length]);
    const order = shuffle(deliveries, 20261125);

    const started = Date.now();
    const queue = [...order];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) statuses.push((await k.postStripe(e)).status);
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await k.settle(120_000);
    console.log(`${order.length} deliveries of ${ours.length} events settled in ${Date.now() - started} ms`);

    const [{ stored }] = await k.t.db.query(`SELECT count(*)::int AS stored FROM payment_events`);
    expect(stored).toBe(new Set(ours.map((e) => e.id)).size);
    const [{ failed }] = await k.t.db.query(
      `SELECT count(*)::int AS failed FROM payment_events WHERE status = 'failed'`,
    );
    expect(failed).toBe(0);

    for (const c of cases) {
      const purchase = await k.purchase(c.purchase_id);
      const balance = await k.balance(c.user);
      const [{ value }] = await k.t.db.query(`SELECT value FROM users WHERE user_id = $1`, [c.user.user_id]);
      const [{ paid, failedInvoices }] = await k.t.db.query(
        `SELECT count(*) FILTER (WHERE status = 'completed')::int AS paid,
                count(*) FILTER (WHERE status = 'failed')::int AS "failedInvoices"
         FROM invoices WHERE purchase_id = $1 AND stripe_invoice_id IS NOT NULL`,
        [c.purchase_id],
      );
      const want = EXPECTED[c.kind];
      const [{ refunded }] = await k.t.db.query(
        `SELECT COALESCE(sum(refunded_amount), 0)::int AS refunded FROM invoices WHERE purchase_id = $1`,
        [c.purchase_id],
      );
      expect({ kind: c.kind, status: purchase.status, paid, failedInvoices, refunded }).toEqual({
        kind: c.kind,
        status: want.status,
        paid: want.paid,
        failedInvoices: want.failed,
        refunded: want.refunded,
      });
      expect({ kind: c.kind, words: balance.display_balance }).toEqual({ kind: c.kind, words: want.words });
      expect({ kind: c.kind, value: Number(value) }).toEqual({ kind: c.kind, value: want.value / 100 });
    }
  }, 240_000);
});
