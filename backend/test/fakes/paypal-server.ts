import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local PayPal REST API: OAuth2 client-credentials tokens, Orders v2 (create, approve as the buyer would in
 * PayPal's window, capture), catalog products, billing plans and subscriptions (approve, cancel, renewals), and
 * the webhook signature verification call. Webhook events it sends are signed with a secret per webhook id that
 * only the verification call knows, as with PayPal.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider JSON, read field by field
type Obj = Record<string, any>;

export interface FakePayPal {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  webhookUrl: string | null;
  orders: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  plans: Map<string, Obj>;
  /** Sales made so far (GET /v1/payments/sale/{id} reads them). */
  sales: Map<string, Obj>;
  requests: { method: string; path: string; body: Obj; auth: string }[];
  /** The buyer approves the order in PayPal's window. */
  approveOrder(id: string): void;
  /** The buyer approves the subscription in PayPal's window (custom_id as the JS SDK would pass it). */
  approveSubscription(id: string): void;
  /** A webhook event, signed for `webhookId` (or with a wrong signature), posted to the webhook URL. */
  deliver(
    event: Obj,
    options?: { url?: string; badSignature?: boolean; webhookId?: string },
  ): Promise<{ status: number; body: string }>;
  event(event_type: string, resource: Obj): Obj;
  /**
   * A payment of an active subscription as PayPal records it (a sale): the first one at approval, or the next
   * cycle's (`renewal`, which moves next_billing_time one cycle on). Answers its PAYMENT.SALE.COMPLETED event.
   */
  sale(subscriptionId: string, options?: { renewal?: boolean }): Obj;
  /** A sale refunded (all of it, or `amount` cents): its PAYMENT.SALE.REFUNDED event. */
  refundSale(sale: Obj, amount?: number): Obj;
  /** The headers PayPal sends with `body` (signed for `webhookId`). */
  signedHeaders(body: string, webhookId?: string): Record<string, string>;
  close(): Promise<void>;
}

const signature = (secret: string, transmissionId: string, time: string, webhookId: string, body: string) =>
  createHmac('sha256', secret).update(`${transmissionId}|${time}|${webhookId}|${body}`).digest('base64');

const ppId = (prefix = '') => prefix + randomBytes(8).toString('hex').toUpperCase();

export async function startFakePayPal(): Promise<FakePayPal> {
  const tokens = new Set<string>();
  const webhookSecrets = new Map<string, string>();
  const products = new Map<string, Obj>();
  const fake: FakePayPal = {
    url: '',
    clientId: 'fake-paypal-client',
    clientSecret: 'fake-paypal-secret',
    webhookId: ppId('WH-'),
    webhookUrl: null,
    orders: new Map(),
    subscriptions: new Map(),
    plans: new Map(),
    sales: new Map(),
    requests: [],
    approveOrder(id) {
      const order = fake.orders.get(id);
      if (!order) throw new Error(`no order ${id}`);
      order.status = 'APPROVED';
      order.payer = { payer_id: ppId(), email_address: 'buyer@example.com' };
    },
    approveSubscription(id) {
      const sub = fake.subscriptions.get(id);
      if (!sub) throw new Error(`no subscription ${id}`);
      sub.status = 'ACTIVE';
      sub.status_update_time = new Date().toISOString();
      const plan = fake.plans.get(sub.plan_id)!;
      const regular = plan.billing_cycles.find((c: Obj) => c.tenure_type === 'REGULAR');
      const trial = plan.billing_cycles.find((c: Obj) => c.tenure_type === 'TRIAL');
      const next = new Date();
      const cycle = trial ?? regular;
      const unit = cycle.frequency.interval_unit as string;
      const count = Number(cycle.frequency.interval_count);
      if (unit === 'DAY') next.setUTCDate(next.getUTCDate() + count);
      else if (unit === 'WEEK') next.setUTCDate(next.getUTCDate() + 7 * count);
      else if (unit === 'YEAR') next.setUTCFullYear(next.getUTCFullYear() + count);
      else next.setUTCMonth(next.getUTCMonth() + count);
      sub.billing_info = {
        next_billing_time: next.toISOString(),
        last_payment: trial
          ? null
          : { amount: regular.pricing_scheme.fixed_price, time: new Date().toISOString() },
        failed_payments_count: 0,
      };
    },
    sale(subscriptionId, options = {}) {
      const sub = fake.subscriptions.get(subscriptionId);
      if (!sub?.billing_info) throw new Error(`no approved subscription ${subscriptionId}`);
      const plan = fake.plans.get(sub.plan_id)!;
      const regular = plan.billing_cycles.find((c: Obj) => c.tenure_type === 'REGULAR');
      let billedAt = new Date();
      if (options.renewal) {
        billedAt = new Date(sub.billing_info.next_billing_time);
        const next = new Date(sub.billing_info.next_billing_time);
        const unit = regular.frequency.interval_unit as string;
        const count = Number(regular.frequency.interval_count);
        if (unit === 'DAY') next.setUTCDate(next.getUTCDate() + count);
        else if (unit === 'WEEK') next.setUTCDate(next.getUTCDate() + 7 * count);
        else if (unit === 'YEAR') next.setUTCFullYear(next.getUTCFullYear() + count);
        else next.setUTCMonth(next.getUTCMonth() + count);
        sub.billing_info.next_billing_time = next.toISOString();
      }
      const price = regular.pricing_scheme.fixed_price;
      const sale = {
        id: ppId('SALE-'),
        state: 'completed',
        amount: { total: price.value, currency: price.currency_code },
        billing_agreement_id: subscriptionId,
        // A renewal's sale is made at its cycle's billing time.
        create_time: billedAt.toISOString(),
      };
      fake.sales.set(sale.id, sale);
      return fake.event('PAYMENT.SALE.COMPLETED', { ...sale });
    },
    refundSale(saleEvent, amount) {
      const sale = saleEvent.resource ?? saleEvent;
      const total = amount === undefined ? sale.amount.total : (amount / 100).toFixed(2);
      return fake.event('PAYMENT.SALE.REFUNDED', {
        id: ppId('REFUND-'),
        state: 'completed',
        amount: { total, currency: sale.amount.currency },
        sale_id: sale.id,
        create_time: new Date().toISOString(),
      });
    },
    event(event_type, resource) {
      return {
        id: ppId('WH-EVT-'),
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: event_type.split('.')[0].toLowerCase(),
        event_type,
        summary: event_type,
        resource,
      };
    },
    signedHeaders(body, webhookId = fake.webhookId) {
      const transmissionId = randomUUID();
      const time = new Date().toISOString();
      const secret = webhookSecrets.get(webhookId) ?? 'unknown';
      return {
        'content-type': 'application/json',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': signature(secret, transmissionId, time, webhookId, body),
        'paypal-cert-url': `${fake.url}/certs/fake.pem`,
        'paypal-auth-algo': 'SHA256withRSA',
      };
    },
    async deliver(event, options = {}) {
      const url = options.url ?? fake.webhookUrl;
      if (!url) throw new Error('no webhook url');
      const body = JSON.stringify(event);
      const headers = fake.signedHeaders(body, options.webhookId);
      if (options.badSignature)
        headers['paypal-transmission-sig'] = 'AAAA' + headers['paypal-transmission-sig'].slice(4);
      const res = await fetch(url, { method: 'POST', headers, body });
      return { status: res.status, body: await res.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  webhookSecrets.set(fake.webhookId, randomBytes(16).toString('hex'));

  const fail = (res: ServerResponse, status: number, name: string, message: string, issue?: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        name,
        message,
        debug_id: ppId(),
        details: issue ? [{ issue, description: message }] : [],
      }),
    );
  };
  const ok = (res: ServerResponse, status: number, payload?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(payload === undefined ? '' : JSON.stringify(payload));
  };

  function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const auth = String(req.headers.authorization ?? '');
    let body: Obj = {};
    if (raw && String(req.headers['content-type']).includes('json')) body = JSON.parse(raw);
    else if (raw) body = Object.fromEntries(new URLSearchParams(raw));
    fake.requests.push({ method, path, body, auth });

    // What the buyer does in PayPal's window, for the browser tests' stand-in of PayPal's script.
    const approve = /^\/fake\/approve-order\/([A-Z0-9-]+)$/.exec(path);
    if (approve && method === 'POST') {
      if (!fake.orders.has(approve[1])) return fail(res, 404, 'RESOURCE_NOT_FOUND', 'No such order.');
      fake.approveOrder(approve[1]);
      return ok(res, 200, { id: approve[1], status: 'APPROVED' });
    }
    if (path === '/v1/oauth2/token' && method === 'POST') {
      const expected = 'Basic ' + Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');
      if (auth !== expected) return fail(res, 401, 'invalid_client', 'Client Authentication failed');
      const token = `A21AA${randomBytes(16).toString('hex')}`;
      tokens.add(token);
      return ok(res, 200, {
        scope: 'https://uri.paypal.com/services/payments',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-FAKE',
        expires_in: 32400,
        nonce: ppId(),
      });
    }
    if (!tokens.has(auth.replace(/^Bearer /, '')))
      return fail(
        res,
        401,
        'AUTHENTICATION_FAILURE',
        'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      );

    const parts = path.split('/').filter(Boolean);
    // /v2/checkout/orders[/id[/capture]]
    if (parts[0] === 'v2' && parts[1] === 'checkout' && parts[2] === 'orders') {
      const id = parts[3];
      if (!id && method === 'POST') {
        const unit = body.purchase_units?.[0];
        if (body.intent !== 'CAPTURE' || !unit?.amount?.value)
          return fail(
            res,
            400,
            'INVALID_REQUEST',
            'Request is not well-formed, syntactically incorrect, or violates schema.',
            'MISSING_REQUIRED_PARAMETER',
          );
        const order = {
          id: ppId(),
          intent: 'CAPTURE',
          status: 'CREATED',
          purchase_units: [unit],
          create_time: new Date().toISOString(),
          links: [] as Obj[],
        };
        order.links = [{ href: `${fake.url}/checkoutnow?token=${order.id}`, rel: 'approve', method: 'GET' }];
        fake.orders.set(order.id, order);
        return ok(res, 201, order);
      }
      const order = fake.orders.get(id);
      if (!order)
        return fail(
          res,
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      if (!parts[4] && method === 'GET') return ok(res, 200, order);
      if (parts[4] === 'capture' && method === 'POST') {
        if (order.status === 'COMPLETED')
          return fail(res, 422, 'UNPROCESSABLE_ENTITY', 'Order already captured.', 'ORDER_ALREADY_CAPTURED');
        if (order.status !== 'APPROVED')
          return fail(
            res,
            422,
            'UNPROCESSABLE_ENTITY',
            'Payer has not yet approved the Order for payment.',
            'ORDER_NOT_APPROVED',
          );
        order.status = 'COMPLETED';
        order.purchase_units[0].payments = {
          captures: [
            {
              id: ppId(),
              status: 'COMPLETED',
              amount: order.purchase_units[0].amount,
              custom_id: order.purchase_units[0].custom_id,
              final_capture: true,
              create_time: new Date().toISOString(),
            },
          ],
        };
        return ok(res, 201, order);
      }
    }
    if (parts[0] === 'v1' && parts[1] === 'catalogs' && parts[2] === 'products' && method === 'POST') {
      const product = {
        id: ppId('PROD-'),
        name: body.name,
        type: body.type ?? 'SERVICE',
        create_time: new Date().toISOString(),
      };
      products.set(product.id, product);
      return ok(res, 201, product);
    }
    if (parts[0] === 'v1' && parts[1] === 'billing' && parts[2] === 'plans') {
      if (method === 'POST' && !parts[3]) {
        if (!products.has(body.product_id))
          return fail(res, 422, 'UNPROCESSABLE_ENTITY', 'Invalid product id.', 'INVALID_PRODUCT_ID');
        const plan = {
          id: ppId('P-'),
          product_id: body.product_id,
          name: body.name,
          status: 'ACTIVE',
          billing_cycles: body.billing_cycles,
          payment_preferences: body.payment_preferences,
          create_time: new Date().toISOString(),
        };
        fake.plans.set(plan.id, plan);
        return ok(res, 201, plan);
      }
      const plan = fake.plans.get(parts[3]);
      if (!plan)
        return fail(
          res,
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      return ok(res, 200, plan);
    }
    if (parts[0] === 'v1' && parts[1] === 'payments' && parts[2] === 'sale' && method === 'GET') {
      const sale = fake.sales.get(parts[3]);
      if (!sale)
        return fail(
          res,
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      return ok(res, 200, sale);
    }
    if (parts[0] === 'v1' && parts[1] === 'billing' && parts[2] === 'subscriptions') {
      if (method === 'POST' && !parts[3]) {
        if (!fake.plans.has(body.plan_id))
          return fail(res, 422, 'UNPROCESSABLE_ENTITY', 'Invalid plan id.', 'INVALID_PLAN_ID');
        const sub = {
          id: ppId('I-'),
          plan_id: body.plan_id,
          custom_id: body.custom_id ?? null,
          status: 'APPROVAL_PENDING',
          create_time: new Date().toISOString(),
          billing_info: null,
          links: [] as Obj[],
        };
        sub.links = [{ href: `${fake.url}/webscr?ba_token=${sub.id}`, rel: 'approve', method: 'GET' }];
        fake.subscriptions.set(sub.id, sub);
        return ok(res, 201, sub);
      }
      const sub = fake.subscriptions.get(parts[3]);
      if (!sub)
        return fail(
          res,
          404,
          'RESOURCE_NOT_FOUND',
          'The specified resource does not exist.',
          'INVALID_RESOURCE_ID',
        );
      if (method === 'GET' && !parts[4]) return ok(res, 200, sub);
      if (method === 'POST' && parts[4] === 'cancel') {
        if (sub.status === 'CANCELLED')
          return fail(
            res,
            422,
            'UNPROCESSABLE_ENTITY',
            'The subscription is already cancelled.',
            'SUBSCRIPTION_STATUS_INVALID',
          );
        sub.status = 'CANCELLED';
        sub.status_change_note = body.reason;
        return ok(res, 204);
      }
    }
    if (path === '/v1/notifications/verify-webhook-signature' && method === 'POST') {
      const secret = webhookSecrets.get(body.webhook_id);
      const expected = secret
        ? signature(
            secret,
            body.transmission_id,
            body.transmission_time,
            body.webhook_id,
            JSON.stringify(body.webhook_event),
          )
        : null;
      return ok(res, 200, {
        verification_status: expected && expected === body.transmission_sig ? 'SUCCESS' : 'FAILURE',
      });
    }
    return fail(res, 404, 'NOT_FOUND', `No route ${method} ${path}`);
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (err) {
        fail(res, 500, 'INTERNAL_SERVER_ERROR', (err as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
