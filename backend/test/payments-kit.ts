import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { AppConfigService } from '../src/modules/app-config/app-config.service';
import { startFakePayPal, FakePayPal } from './fakes/paypal-server';
import { startFakeStripe, FakeStripe } from './fakes/stripe-server';
import { FakeWebhook } from './fakes/webhook';
import { startTestApp, TestApp, TestUser } from './harness';

export const PLATFORM_KEY = 'sk_test_platform';
export const ORG_KEY = 'sk_test_organization';

export interface PaymentsKit {
  t: TestApp;
  stripe: FakeStripe;
  paypal: FakePayPal;
  mail: FakeWebhook;
  /** The app's own base URL (it listens, so the fakes can post webhooks to it). */
  appUrl: string;
  admin: TestUser;
  product(fields?: Record<string, unknown>): Promise<number>;
  discount(fields: Record<string, unknown>): Promise<number>;
  /** A Stripe event posted to our webhook, signed (by default with the platform's secret). */
  postStripe(
    event: unknown,
    options?: { secret?: string; timestamp?: number; path?: string },
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Waits until no stored event waits for processing. */
  settle(timeoutMs?: number): Promise<void>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a purchases row as the database answers it
  purchase(purchase_id: number): Promise<Record<string, any>>;
  balance(user: TestUser): Promise<{ display_balance: number; has_access: boolean }>;
  close(): Promise<void>;
}

const signer = new Stripe('sk_test_signer');

export async function startPaymentsKit(extraEnv: Record<string, string> = {}): Promise<PaymentsKit> {
  const stripe = await startFakeStripe({ keys: [PLATFORM_KEY, ORG_KEY] });
  const paypal = await startFakePayPal();
  const mail = new FakeWebhook();
  await mail.start();
  const t = await startTestApp({
    STRIPE_API_BASE: stripe.url,
    PAYPAL_API_BASE: paypal.url,
    ...extraEnv,
  });
  await t.app.listen(0, '127.0.0.1');
  const appUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  stripe.webhookUrl = `${appUrl}/api/stripe/webhook`;
  paypal.webhookUrl = `${appUrl}/api/paypal/webhook`;
  const admin = await t.createUser({ staff: 'admin' });
  await t.app.get(AppConfigService).update(
    [
      { key: 'stripe_private_key', value: PLATFORM_KEY },
      { key: 'stripe_public_key', value: 'pk_test_platform' },
      { key: 'stripe_webhook_key', value: stripe.webhookSecret },
      { key: 'paypal_client_id', value: paypal.clientId },
      { key: 'paypal_client_secret', value: paypal.clientSecret },
      { key: 'paypal_webhook_id', value: paypal.webhookId },
      { key: 'payment_failed_email_webhook_url', value: `${mail.url}/payment-failed` },
    ],
    admin.user_id,
  );
  let productCount = 0;
  const kit: PaymentsKit = {
    t,
    stripe,
    paypal,
    mail,
    appUrl,
    admin,
    async product(fields = {}) {
      const row = {
        name: `Plan ${++productCount}`,
        description: 'Words for writing',
        price: 1000,
        word_amount: 5000,
        is_subscription: false,
        ...fields,
      };
      const columns = Object.keys(row);
      const [{ product_id }] = await t.db.query(
        `INSERT INTO products (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING product_id`,
        Object.values(row),
      );
      return product_id;
    },
    async discount(fields) {
      const columns = Object.keys(fields);
      const [{ discount_id }] = await t.db.query(
        `INSERT INTO discounts (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING discount_id`,
        Object.values(fields),
      );
      return discount_id;
    },
    async postStripe(event, options = {}) {
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? stripe.webhookSecret,
        timestamp: options.timestamp,
      });
      const res = await t
        .http()
        .post(options.path ?? '/api/stripe/webhook')
        .set('content-type', 'application/json')
        .set('stripe-signature', header)
        .send(payload);
      return { status: res.status, body: res.body };
    },
    async settle(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const [{ waiting }] = await t.db.query(
          `SELECT count(*)::int AS waiting FROM payment_events WHERE status = 'received'`,
        );
        if (waiting === 0) return;
        if (Date.now() > until) throw new Error(`${waiting} payment events still waiting`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async purchase(purchase_id) {
      const [row] = await t.db.query(`SELECT * FROM purchases WHERE purchase_id = $1`, [purchase_id]);
      return row;
    },
    async balance(user) {
      const res = await t.http().get('/api/words/balance').set('Authorization', user.auth).expect(200);
      return res.body.balance;
    },
    async close() {
      await t.close();
      await stripe.close();
      await paypal.close();
      await mail.stop();
    },
  };
  return kit;
}
