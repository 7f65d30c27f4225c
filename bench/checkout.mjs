// Checkout and webhooks against the fake Stripe API: card checkout (attempt + capture) p50/p99 at 20 concurrent
// buyers, beside a baseline of two cheap authenticated calls (GET /api/payment_sources twice) measured in the same
// run; Stripe webhook events processed per second (renewals: an invoice and a word grant each), beside a baseline
// of events that are stored and ignored.
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis. Prints figures; never fails a build.
//
// Settings (env): BENCH_BUYERS (20), BENCH_CHECKOUTS (10 per buyer), BENCH_EVENTS (1000).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import Stripe from 'stripe';
import {
  REDIS_URL,
  ROOT,
  api,
  freshDatabase,
  mapLimit,
  percentile,
  signUp,
  startBackend,
  table,
} from './lib.mjs';

const BUYERS = Number(process.env.BENCH_BUYERS ?? 20);
const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-1' };

/** The fake Stripe and PayPal APIs in a child process (the TypeScript fakes of the API tests). */
function startFakes() {
  const child = fork(join(ROOT, 'backend/test/fakes/run-fake-payments.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    cwd: join(ROOT, 'backend'),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ ...info, child }));
    child.once('exit', (code) => reject(new Error(`fake payments exited with ${code}`)));
  });
}

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const figures = (name, samples) => [
  name,
  samples.length,
  percentile(samples, 50).toFixed(1),
  percentile(samples, 99).toFixed(1),
];

async function main() {
  const fakes = await startFakes();
  const db = await freshDatabase('bench_checkout');
  const backend = await startBackend({
    DATABASE_URL: db.url,
    REDIS_URL,
    REDIS_PREFIX: `bench-checkout-${Date.now()}`,
    STRIPE_API_BASE: fakes.stripeUrl,
    PAYPAL_API_BASE: fakes.paypalUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    OUTBOUND_ALLOW: '127.0.0.1',
  });
  const client = new pg.Pool({ connectionString: db.url, max: 4 });
  try {
    const admin = await api(backend.url, 'POST', '/api/auth/login', { body: ADMIN });
    await api(backend.url, 'PUT', '/api/appconfig', {
      token: admin.access_token,
      body: {
        password: ADMIN.password,
        config: [
          { key: 'stripe_private_key', value: fakes.stripeKey },
          { key: 'stripe_public_key', value: 'pk_test_bench' },
          { key: 'stripe_webhook_key', value: fakes.stripeWebhookSecret },
        ],
      },
    });
    const [{ product_id }] = (
      await client.query(
        `INSERT INTO products (name, description, price, word_amount) VALUES ('Bench pack', 'Words', 1000, 1000)
         RETURNING product_id`,
      )
    ).rows;
    const [{ product_id: plan_id }] = (
      await client.query(
        `INSERT INTO products (name, description, price, word_amount, is_subscription, subscription_interval,
           subscription_period) VALUES ('Bench plan', 'Words monthly', 1200, 1000, true, 1, 'month') RETURNING product_id`,
      )
    ).rows;
    const buyers = await mapLimit(
      Array.from({ length: BUYERS }, (_, i) => `bench-buyer-${Date.now()}-${i}@example.com`),
      5,
      (email) => signUp(backend.url, email),
    );

    // Warm up: one checkout per buyer (Stripe customer created, connections open).
    await mapLimit(buyers, BUYERS, (b) =>
      api(backend.url, 'POST', '/api/checkout/attempt', {
        token: b.access_token,
        body: { product_id, payment_method_id: 'pm_card_visa' },
      }),
    );

    const baseline = [];
    const checkout = [];
    await Promise.all(
      buyers.map(async (b) => {
        for (let i = 0; i < CHECKOUTS; i++) {
          baseline.push(
            await timed(async () => {
              await api(backend.url, 'GET', '/api/payment_sources', { token: b.access_token });
              await api(backend.url, 'GET', '/api/payment_sources', { token: b.access_token });
            }),
          );
          checkout.push(
            await timed(async () => {
              const attempt = await api(backend.url, 'POST', '/api/checkout/attempt', {
                token: b.access_token,
                body: { product_id, payment_method_id: 'pm_card_visa', payment_source_id: 'card' },
              });
              await api(backend.url, 'POST', '/api/checkout/capture', {
                token: b.access_token,
                body: { purchase_id: attempt.purchase_id },
              });
            }),
          );
        }
      }),
    );
    console.log(`\nCard checkout at ${BUYERS} concurrent buyers (ms)`);
    table(
      ['case', 'n', 'p50', 'p99'],
      [figures('baseline: 2 x GET /api/payment_sources', baseline), figures('attempt + capture', checkout)],
    );

    // Webhooks: renewals of one subscription per buyer, and the same number of events that are only stored.
    const subscriptions = await mapLimit(buyers, BUYERS, async (b) => {
      const attempt = await api(backend.url, 'POST', '/api/checkout/attempt', {
        token: b.access_token,
        body: { product_id: plan_id, payment_method_id: 'pm_card_visa' },
      });
      const { rows } = await client.query(
        `SELECT stripe_subscription_id FROM purchases WHERE purchase_id = $1`,
        [attempt.purchase_id],
      );
      return rows[0].stripe_subscription_id;
    });
    const signer = new Stripe('sk_bench_signer');
    const now = Math.floor(Date.now() / 1000);
    const event = (type, object, i) => ({
      id: `evt_bench_${type}_${i}_${Date.now()}`,
      object: 'event',
      created: now,
      type,
      data: { object },
    });
    const renewal = (i) => {
      const subscription = subscriptions[i % subscriptions.length];
      const period = Math.floor(i / subscriptions.length) + 1;
      const start = now + period * 31 * 86400;
      return event(
        'invoice.paid',
        {
          id: `in_bench_${i}_${Date.now()}`,
          object: 'invoice',
          amount_paid: 1200,
          amount_due: 1200,
          billing_reason: 'subscription_cycle',
          status: 'paid',
          period_start: start,
          period_end: start + 31 * 86400,
          lines: { data: [{ period: { start, end: start + 31 * 86400 } }] },
          parent: { subscription_details: { subscription } },
          status_transitions: { paid_at: now },
        },
        i,
      );
    };
    const ignored = (i) => event('customer.created', { id: `cus_bench_${i}`, object: 'customer' }, i);

    async function deliverAll(events) {
      const started = performance.now();
      await mapLimit(events, 16, async (e) => {
        const payload = JSON.stringify(e);
        const res = await fetch(`${backend.url}/api/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signer.webhooks.generateTestHeaderString({
              payload,
              secret: fakes.stripeWebhookSecret,
            }),
          },
          body: payload,
        });
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
      });
      const accepted = performance.now() - started;
      for (;;) {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM payment_events WHERE status = 'received'`,
        );
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      return { accepted, processed: performance.now() - started };
    }
    const base = await deliverAll(Array.from({ length: EVENTS }, (_, i) => ignored(i)));
    const real = await deliverAll(Array.from({ length: EVENTS }, (_, i) => renewal(i)));
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM invoices WHERE stripe_invoice_id LIKE 'in_bench_%' AND status = 'completed'`,
    );
    console.log(`\nStripe webhooks, ${EVENTS} events each, 16 concurrent deliveries (events/s)`);
    table(
      ['case', 'answered/s', 'processed/s'],
      [
        [
          'baseline: stored and ignored',
          (EVENTS / (base.accepted / 1000)).toFixed(0),
          (EVENTS / (base.processed / 1000)).toFixed(0),
        ],
        [
          'renewals (invoice + word grant)',
          (EVENTS / (real.accepted / 1000)).toFixed(0),
          (EVENTS / (real.processed / 1000)).toFixed(0),
        ],
      ],
    );
    console.log(`renewal invoices recorded: ${rows[0].n} of ${EVENTS}`);
  } finally {
    await client.end().catch(() => undefined);
    await backend.stop();
    fakes.child.kill();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 0;
});
