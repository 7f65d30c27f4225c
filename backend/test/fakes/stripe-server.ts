import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local Stripe API speaking the real wire format (form-encoded requests, JSON answers, Stripe's error shape),
 * talked to by the real `stripe` SDK through its host, port and protocol options. It keeps customers, payment
 * methods, setup and payment intents (3-D Secure included), subscriptions with trials, invoices, products,
 * prices and refunds per secret key (one account per key), and delivers signed webhook events.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider JSON, read field by field
type Obj = Record<string, any>;

/** Test cards, named like Stripe's test payment methods. */
export const TEST_CARDS: Record<
  string,
  { brand: string; last4: string; behaviour: 'ok' | '3ds' | 'decline' }
> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'ok' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'ok' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', behaviour: '3ds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'decline' },
};

export interface FakeStripeRequest {
  method: string;
  path: string;
  key: string;
  body: Obj;
  idempotencyKey: string | undefined;
}

export interface DeliverOptions {
  url?: string;
  secret?: string;
  /** Seconds since the epoch for the signature (a stale one tests the tolerance). */
  timestamp?: number;
}

export interface FakeStripe {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  host: string;
  port: number;
  /** The secret keys the fake accepts (each its own account); add more for organizations. */
  keys: Set<string>;
  requests: FakeStripeRequest[];
  /** Where events go when `autoDeliver` is on, and the secret they are signed with. */
  webhookUrl: string | null;
  webhookSecret: string;
  autoDeliver: boolean;
  objects: Map<string, Obj>;
  /** Events built so far, oldest first. */
  events: Stripe.Event[];
  addProduct(key: string, name: string): Obj;
  addPrice(key: string, product: string, unitAmount: number, interval?: 'day' | 'month' | 'year'): Obj;
  /** What Stripe.js does when the customer enters a card and confirms a SetupIntent. */
  confirmSetupIntent(id: string, card?: string): Obj;
  /** What Stripe.js does after the customer passes 3-D Secure: the PaymentIntent succeeds. */
  completeAction(paymentIntentId: string): Obj;
  /** Bills the next period of a subscription (as Stripe does at renewal) and returns the paid invoice. */
  renew(subscriptionId: string, outcome?: 'paid' | 'failed'): Obj;
  /** A failed renewal's invoice paid on a retry (Stripe's smart retries, or the customer updating the card). */
  payInvoice(invoiceId: string): Obj;
  /** Refunds a PaymentIntent's charge (all that is left, or `amount`) as the dashboard does: charge.refunded. */
  refund(paymentIntentId: string, amount?: number): Obj;
  /** The cardholder disputes a PaymentIntent's charge: charge.dispute.created. */
  dispute(paymentIntentId: string): Obj;
  /** The bank decides a dispute: charge.dispute.closed with status won or lost. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Obj;
  /** Builds an event (not delivered). */
  event(type: string, object: Obj, key?: string): Stripe.Event;
  /** Posts an event to the webhook URL, signed with the SDK's test header. */
  deliver(event: Stripe.Event, options?: DeliverOptions): Promise<{ status: number; body: string }>;
  /** Fails every request whose path starts with `prefix` with `status` (until cleared with null). */
  failNext: { prefix: string; status: number } | null;
  close(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const signer = new Stripe('sk_test_signer');

/** Parses Stripe's bracket form encoding (a[b][0][c]=x, expand[]=y) into nested objects and arrays. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split('[').map((p) => p.replace(/]$/, ''));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks objects and arrays alike
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(parts[i + 1]);
      const keyPart: string | number =
        part === ''
          ? (node as unknown[]).length
          : /^\d+$/.test(part) && Array.isArray(node)
            ? Number(part)
            : part;
      if (last) node[keyPart] = value;
      else {
        if (node[keyPart] === undefined) node[keyPart] = nextIsIndex ? [] : {};
        node = node[keyPart];
      }
    });
  }
  return root;
}

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly payload: Obj,
  ) {
    super(String(payload.message));
  }
}
const missing = (what: string, value: string) =>
  new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${value}'`,
    param: 'id',
  });
const invalid = (message: string, param?: string) =>
  new StripeHttpError(400, { type: 'invalid_request_error', message, param });

const addInterval = (from: number, interval: string, count: number) => {
  const d = new Date(from * 1000);
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + count);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  else d.setUTCMonth(d.getUTCMonth() + count);
  return Math.floor(d.getTime() / 1000);
};

export async function startFakeStripe(
  options: { keys?: string[]; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const objects = new Map<string, Obj>();
  const owner = new Map<string, string>();

  const put = (key: string, o: Obj) => {
    objects.set(o.id, o);
    owner.set(o.id, key);
    return o;
  };
  const get = (key: string, objectId: string, what: string) => {
    const o = objects.get(objectId);
    if (!o || owner.get(objectId) !== key || o.deleted) throw missing(what, objectId);
    return o;
  };
  const list = (key: string, object: string, filter: (o: Obj) => boolean = () => true) => {
    const data = [...objects.values()].filter(
      (o) => o.object === object && owner.get(o.id) === key && !o.deleted && filter(o),
    );
    return { object: 'list', data: data.reverse(), has_more: false, url: `/v1/${object}s` };
  };

  const fake: FakeStripe = {
    url: '',
    host: '127.0.0.1',
    port: 0,
    keys: new Set(options.keys ?? ['sk_test_platform']),
    requests: [],
    webhookUrl: null,
    webhookSecret: options.webhookSecret ?? 'whsec_fake_platform',
    autoDeliver: false,
    objects,
    events: [],
    failNext: null,
    addProduct(key, name) {
      return put(key, {
        id: id('prod'),
        object: 'product',
        name,
        active: true,
        created: now(),
        metadata: {},
      });
    },
    addPrice(key, product, unitAmount, interval) {
      return put(key, {
        id: id('price'),
        object: 'price',
        product,
        unit_amount: unitAmount,
        currency: 'usd',
        active: true,
        type: interval ? 'recurring' : 'one_time',
        recurring: interval ? { interval, interval_count: 1 } : null,
        created: now(),
      });
    },
    confirmSetupIntent(setupIntentId, card = 'pm_card_visa') {
      const si = objects.get(setupIntentId);
      if (!si) throw new Error(`no setup intent ${setupIntentId}`);
      const key = owner.get(setupIntentId)!;
      const pm = paymentMethodFrom(key, card);
      if (si.customer) pm.customer = si.customer;
      si.payment_method = pm.id;
      si.status = 'succeeded';
      emit(key, 'setup_intent.succeeded', si);
      return si;
    },
    completeAction(paymentIntentId) {
      const pi = objects.get(paymentIntentId);
      if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
      const key = owner.get(paymentIntentId)!;
      if (pi.status === 'requires_action') succeed(key, pi);
      return pi;
    },
    renew(subscriptionId, outcome = 'paid') {
      const sub = objects.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      const key = owner.get(subscriptionId)!;
      const item = sub.items.data[0];
      const start = item.current_period_end;
      const end = addInterval(start, item.price.recurring.interval, item.price.recurring.interval_count ?? 1);
      item.current_period_start = start;
      item.current_period_end = end;
      const invoice = billInvoice(
        key,
        sub,
        item.price.unit_amount,
        'subscription_cycle',
        start,
        end,
        outcome,
      );
      return invoice;
    },
    payInvoice(invoiceId) {
      const invoice = objects.get(invoiceId);
      if (!invoice) throw new Error(`no invoice ${invoiceId}`);
      const pi = objects.get(invoice.payments.data[0].payment.payment_intent)!;
      if (pi.status !== 'succeeded') succeed(owner.get(invoiceId)!, pi);
      return invoice;
    },
    refund(paymentIntentId, amount) {
      const pi = objects.get(paymentIntentId);
      if (!pi?.latest_charge) throw new Error(`no charge of ${paymentIntentId}`);
      const key = owner.get(paymentIntentId)!;
      const charge = objects.get(pi.latest_charge)!;
      const cents = amount ?? charge.amount - charge.amount_refunded;
      charge.amount_refunded += cents;
      charge.refunded = charge.amount_refunded === charge.amount;
      emit(key, 'charge.refunded', charge);
      return charge;
    },
    dispute(paymentIntentId) {
      const pi = objects.get(paymentIntentId);
      if (!pi?.latest_charge) throw new Error(`no charge of ${paymentIntentId}`);
      const key = owner.get(paymentIntentId)!;
      const charge = objects.get(pi.latest_charge)!;
      charge.disputed = true;
      const dispute = put(key, {
        id: id('dp'),
        object: 'dispute',
        amount: charge.amount,
        currency: charge.currency,
        charge: charge.id,
        payment_intent: pi.id,
        reason: 'fraudulent',
        status: 'needs_response',
        created: now(),
      });
      emit(key, 'charge.dispute.created', dispute);
      return dispute;
    },
    closeDispute(disputeId, outcome) {
      const dispute = objects.get(disputeId);
      if (!dispute) throw new Error(`no dispute ${disputeId}`);
      dispute.status = outcome;
      emit(owner.get(disputeId)!, 'charge.dispute.closed', dispute);
      return dispute;
    },
    event(type, object, key) {
      const data = JSON.parse(JSON.stringify(object));
      // An invoice's payments are an includable field: Stripe's events leave them out.
      if (data.object === 'invoice') delete data.payments;
      const event = {
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: now(),
        data: { object: data },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      } as unknown as Stripe.Event;
      if (key) (event as Obj).account_key = undefined;
      return event;
    },
    async deliver(event, opts = {}) {
      const url = opts.url ?? fake.webhookUrl;
      if (!url) throw new Error('no webhook url');
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({
        payload,
        secret: opts.secret ?? fake.webhookSecret,
        timestamp: opts.timestamp,
      });
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      });
      return { status: res.status, body: await res.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const emit = (key: string, type: string, object: Obj) => {
    const event = fake.event(type, object, key);
    fake.events.push(event);
    if (fake.autoDeliver && fake.webhookUrl) void fake.deliver(event).catch(() => undefined);
  };

  function paymentMethodFrom(key: string, token: string): Obj {
    const existing = objects.get(token);
    if (existing && owner.get(token) === key) return existing;
    const card = TEST_CARDS[token];
    if (!card) throw missing('PaymentMethod', token);
    return put(key, {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      card: {
        brand: card.brand,
        last4: card.last4,
        exp_month: 12,
        exp_year: new Date().getFullYear() + 3,
        funding: 'credit',
        country: 'US',
      },
      customer: null,
      created: now(),
      metadata: {},
      billing_details: { name: null, email: null },
      _behaviour: card.behaviour,
    });
  }

  function chargeOf(key: string, pi: Obj) {
    const charge = put(key, {
      id: id('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_refunded: 0,
      currency: pi.currency,
      customer: pi.customer,
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      paid: true,
      refunded: false,
      status: 'succeeded',
      metadata: pi.metadata,
      created: now(),
    });
    pi.latest_charge = charge.id;
    return charge;
  }

  function succeed(key: string, pi: Obj) {
    pi.status = 'succeeded';
    pi.next_action = null;
    pi.amount_received = pi.amount;
    chargeOf(key, pi);
    if (pi._invoice) {
      const invoice = objects.get(pi._invoice)!;
      invoice.status = 'paid';
      invoice.amount_paid = invoice.amount_due;
      invoice.amount_remaining = 0;
      invoice.status_transitions.paid_at = now();
      for (const payment of invoice.payments.data)
        if (payment.payment.payment_intent === pi.id) payment.status = 'paid';
      const sub = objects.get(invoice.parent.subscription_details.subscription)!;
      if (sub.status === 'incomplete' || sub.status === 'past_due') sub.status = 'active';
      emit(key, 'payment_intent.succeeded', pi);
      emit(key, 'invoice.paid', invoice);
      emit(key, 'customer.subscription.updated', sub);
    } else emit(key, 'payment_intent.succeeded', pi);
  }

  /** Confirms a PaymentIntent with its payment method: succeeded, requires_action (3-D Secure) or declined. */
  function confirm(key: string, pi: Obj, offSession: boolean) {
    const pm = pi.payment_method ? objects.get(pi.payment_method) : undefined;
    if (!pm) {
      pi.status = 'requires_payment_method';
      return;
    }
    if (pm._behaviour === 'decline') {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      emit(key, 'payment_intent.payment_failed', pi);
      return;
    }
    if (pm._behaviour === '3ds' && !pi._authenticated) {
      if (offSession) {
        pi.status = 'requires_payment_method';
        pi.last_payment_error = {
          type: 'card_error',
          code: 'authentication_required',
          message: 'Your card requires authentication.',
        };
        emit(key, 'payment_intent.payment_failed', pi);
        return;
      }
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return;
    }
    succeed(key, pi);
  }

  function newPaymentIntent(key: string, body: Obj, invoiceId?: string): Obj {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 50)
      throw invalid('Amount must be at least $0.50 usd', 'amount');
    const pi = put(key, {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.currency ?? 'usd',
      customer: body.customer ?? null,
      payment_method: null,
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: null,
      latest_charge: null,
      metadata: body.metadata ?? {},
      created: now(),
      _invoice: invoiceId,
    });
    pi.client_secret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
    if (body.payment_method) pi.payment_method = paymentMethodFrom(key, body.payment_method).id;
    return pi;
  }

  function billInvoice(
    key: string,
    sub: Obj,
    amount: number,
    reason: string,
    start: number,
    end: number,
    outcome: 'paid' | 'failed' = 'paid',
  ) {
    const invoice = put(key, {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      total: amount,
      currency: 'usd',
      billing_reason: reason,
      status: 'open',
      period_start: start,
      period_end: end,
      lines: { object: 'list', data: [{ id: id('il'), amount, period: { start, end } }], has_more: false },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      metadata: {},
      confirmation_secret: null,
      payments: { object: 'list', data: [], has_more: false },
      status_transitions: { paid_at: null, finalized_at: now() },
      created: now(),
    });
    sub.latest_invoice = invoice.id;
    emit(key, 'invoice.created', invoice);
    if (amount === 0) {
      invoice.status = 'paid';
      invoice.status_transitions.paid_at = now();
      emit(key, 'invoice.paid', invoice);
      return invoice;
    }
    const pi = newPaymentIntent(
      key,
      { amount, currency: 'usd', customer: sub.customer, metadata: sub.metadata },
      invoice.id,
    );
    pi.payment_method = sub.default_payment_method;
    invoice.confirmation_secret = { client_secret: pi.client_secret, type: 'payment_intent' };
    invoice.payments.data.push({
      id: id('inpay'),
      object: 'invoice_payment',
      payment: { type: 'payment_intent', payment_intent: pi.id },
      status: 'open',
    });
    if (reason === 'subscription_cycle') {
      if (outcome === 'failed') {
        pi.status = 'requires_payment_method';
        invoice.attempt_count = 1;
        sub.status = 'past_due';
        emit(key, 'invoice.payment_failed', invoice);
        emit(key, 'customer.subscription.updated', sub);
      } else succeed(key, pi);
    } else confirm(key, pi, false);
    return invoice;
  }

  const expandInvoice = (invoice: Obj, expand: string[]) => {
    const out = { ...invoice };
    if (expand.some((e) => e.endsWith('payments')))
      out.payments = {
        ...invoice.payments,
        data: invoice.payments.data.map((p: Obj) => ({
          ...p,
          payment: { ...p.payment, payment_intent: objects.get(p.payment.payment_intent) },
        })),
      };
    return out;
  };
  const expandSubscription = (sub: Obj, expand: string[]) => {
    const out = { ...sub };
    if (expand.some((e) => e.startsWith('latest_invoice')) && sub.latest_invoice) {
      out.latest_invoice = expandInvoice(
        objects.get(sub.latest_invoice)!,
        expand.map((e) => e.replace(/^latest_invoice\./, '')),
      );
    }
    return out;
  };
  const publicView = (o: Obj) => JSON.parse(JSON.stringify(o, (k, v) => (k.startsWith('_') ? undefined : v)));

  async function route(
    method: string,
    path: string,
    key: string,
    body: Obj,
    query: URLSearchParams,
  ): Promise<Obj> {
    const seg = path.replace(/^\/v1\//, '').split('/');
    const expand: string[] = [...(body.expand ?? []), ...query.getAll('expand[]')];
    const [resource, rid, action] = seg;

    switch (resource) {
      case 'customers': {
        if (method === 'POST' && !rid)
          return put(key, {
            id: id('cus'),
            object: 'customer',
            email: body.email ?? null,
            name: body.name ?? null,
            metadata: body.metadata ?? {},
            invoice_settings: { default_payment_method: null },
            created: now(),
          });
        const c = get(key, rid, 'customer');
        if (method === 'GET' && action === 'payment_methods')
          return list(key, 'payment_method', (pm) => pm.customer === rid);
        if (method === 'GET') return c;
        if (method === 'POST') {
          if (body.invoice_settings?.default_payment_method)
            c.invoice_settings.default_payment_method = body.invoice_settings.default_payment_method;
          if (body.metadata) Object.assign(c.metadata, body.metadata);
          return c;
        }
        break;
      }
      case 'payment_methods': {
        if (method === 'GET' && !rid)
          return list(key, 'payment_method', (pm) => pm.customer === query.get('customer'));
        const pm =
          objects.get(rid) && owner.get(rid) === key
            ? objects.get(rid)!
            : TEST_CARDS[rid]
              ? paymentMethodFrom(key, rid)
              : get(key, rid, 'PaymentMethod');
        if (method === 'GET') return pm;
        if (action === 'attach') {
          get(key, body.customer, 'customer');
          if (pm.customer && pm.customer !== body.customer)
            throw invalid('The payment method you provided has already been attached to a customer.');
          pm.customer = body.customer;
          emit(key, 'payment_method.attached', pm);
          return pm;
        }
        if (action === 'detach') {
          if (!pm.customer)
            throw invalid(
              'The payment method you provided is not attached to a customer so detachment is impossible.',
            );
          pm.customer = null;
          emit(key, 'payment_method.detached', pm);
          return pm;
        }
        break;
      }
      case 'setup_intents': {
        if (method === 'POST' && !rid) {
          const si = put(key, {
            id: id('seti'),
            object: 'setup_intent',
            customer: body.customer ?? null,
            payment_method: null,
            status: 'requires_payment_method',
            usage: body.usage ?? 'off_session',
            metadata: body.metadata ?? {},
            created: now(),
          });
          si.client_secret = `${si.id}_secret_${randomBytes(8).toString('hex')}`;
          return si;
        }
        const si = get(key, rid, 'setupintent');
        if (method === 'GET') return si;
        if (action === 'confirm') return fake.confirmSetupIntent(rid, body.payment_method);
        break;
      }
      case 'payment_intents': {
        if (method === 'POST' && !rid) {
          const pi = newPaymentIntent(key, body);
          if (body.customer) get(key, body.customer, 'customer');
          if (String(body.confirm) === 'true') confirm(key, pi, String(body.off_session) === 'true');
          // A declined card answers 402 with the PaymentIntent inside the error, as Stripe does for confirm=true.
          if (pi.last_payment_error)
            throw new StripeHttpError(402, { ...pi.last_payment_error, payment_intent: publicView(pi) });
          return pi;
        }
        const pi = get(key, rid, 'payment_intent');
        if (method === 'GET') return pi;
        if (action === 'confirm') {
          if (body.payment_method) pi.payment_method = paymentMethodFrom(key, body.payment_method).id;
          if (pi.status === 'succeeded') throw invalid('This PaymentIntent has already succeeded.');
          confirm(key, pi, false);
          return pi;
        }
        if (action === 'cancel') {
          pi.status = 'canceled';
          emit(key, 'payment_intent.canceled', pi);
          return pi;
        }
        break;
      }
      case 'subscriptions': {
        if (method === 'POST' && !rid) {
          get(key, body.customer, 'customer');
          const itemIn = body.items?.[0];
          if (!itemIn) throw invalid('Missing required param: items.', 'items');
          let price: Obj;
          if (itemIn.price) price = get(key, itemIn.price, 'price');
          else if (itemIn.price_data) {
            const pd = itemIn.price_data;
            get(key, pd.product, 'product');
            price = put(key, {
              id: id('price'),
              object: 'price',
              product: pd.product,
              unit_amount: Number(pd.unit_amount),
              currency: pd.currency,
              type: 'recurring',
              recurring: {
                interval: pd.recurring.interval,
                interval_count: Number(pd.recurring.interval_count ?? 1),
              },
              active: false,
              created: now(),
            });
          } else throw invalid('Missing price', 'items');
          if (!price.recurring)
            throw invalid(
              'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
            );
          const defaultPm = body.default_payment_method
            ? paymentMethodFrom(key, body.default_payment_method)
            : null;
          const start = now();
          let trialEnd: number | null = null;
          if (body.trial_end) trialEnd = Number(body.trial_end);
          else if (body.trial_period_days)
            trialEnd = addInterval(start, 'day', Number(body.trial_period_days));
          const periodEnd =
            trialEnd ?? addInterval(start, price.recurring.interval, price.recurring.interval_count);
          const sub = put(key, {
            id: id('sub'),
            object: 'subscription',
            customer: body.customer,
            status: 'incomplete',
            cancel_at_period_end: false,
            canceled_at: null,
            ended_at: null,
            trial_start: trialEnd ? start : null,
            trial_end: trialEnd,
            default_payment_method: defaultPm?.id ?? null,
            metadata: body.metadata ?? {},
            items: {
              object: 'list',
              data: [
                {
                  id: id('si'),
                  object: 'subscription_item',
                  price,
                  quantity: 1,
                  current_period_start: start,
                  current_period_end: periodEnd,
                },
              ],
              has_more: false,
            },
            latest_invoice: null,
            created: start,
          });
          const invoice = billInvoice(
            key,
            sub,
            trialEnd ? 0 : price.unit_amount,
            'subscription_create',
            start,
            periodEnd,
          );
          if (trialEnd) sub.status = 'trialing';
          else if (invoice.status === 'paid') sub.status = 'active';
          emit(key, 'customer.subscription.created', sub);
          return expandSubscription(sub, expand);
        }
        const sub = get(key, rid, 'subscription');
        if (method === 'GET') return expandSubscription(sub, expand);
        if (method === 'POST') {
          if (body.cancel_at_period_end !== undefined)
            sub.cancel_at_period_end = String(body.cancel_at_period_end) === 'true';
          if (body.metadata) Object.assign(sub.metadata, body.metadata);
          emit(key, 'customer.subscription.updated', sub);
          return expandSubscription(sub, expand);
        }
        if (method === 'DELETE') {
          sub.status = 'canceled';
          sub.canceled_at = now();
          sub.ended_at = now();
          emit(key, 'customer.subscription.deleted', sub);
          return sub;
        }
        break;
      }
      case 'invoices': {
        if (method === 'GET' && rid) return expandInvoice(get(key, rid, 'invoice'), expand);
        if (method === 'POST' && rid && action === 'pay') {
          const invoice = get(key, rid, 'invoice');
          if (invoice.status === 'paid') throw invalid('Invoice is already paid.');
          const pi = objects.get(invoice.payments.data[0].payment.payment_intent)!;
          if (body.payment_method) {
            const pm = paymentMethodFrom(key, body.payment_method);
            if (pm.customer !== invoice.customer)
              throw invalid(
                'The PaymentMethod must belong to the customer of the invoice.',
                'payment_method',
              );
            pi.payment_method = pm.id;
          }
          pi.last_payment_error = null;
          confirm(key, pi, false);
          if (pi.status === 'requires_action')
            throw new StripeHttpError(402, {
              type: 'card_error',
              code: 'invoice_payment_intent_requires_action',
              message:
                'This payment requires additional user action before it can be completed successfully.',
            });
          if (pi.status !== 'succeeded') throw new StripeHttpError(402, pi.last_payment_error);
          return expandInvoice(invoice, expand);
        }
        break;
      }
      case 'invoice_payments': {
        if (method === 'GET' && !rid) {
          // The SDK sends nested and array parameters in brackets (payment[payment_intent], expand[0]).
          const q = parseStripeForm(query.toString());
          const invoiceId = q.invoice;
          const paymentIntent = q.payment?.payment_intent;
          const status = q.status;
          const withInvoice = Object.values(q.expand ?? {}).includes('data.invoice');
          const withPaymentIntent = Object.values(q.expand ?? {}).includes('data.payment.payment_intent');
          const data: Obj[] = [];
          for (const invoice of list(key, 'invoice').data)
            for (const payment of invoice.payments.data)
              if (
                (!invoiceId || invoice.id === invoiceId) &&
                (!paymentIntent || payment.payment.payment_intent === paymentIntent) &&
                (!status || payment.status === status)
              )
                data.push({
                  ...payment,
                  payment: withPaymentIntent
                    ? {
                        ...payment.payment,
                        payment_intent: publicView(objects.get(payment.payment.payment_intent)!),
                      }
                    : payment.payment,
                  invoice: withInvoice ? publicView(invoice) : invoice.id,
                  amount_requested: invoice.amount_due,
                  amount_paid: payment.status === 'paid' ? invoice.amount_paid : null,
                });
          const limit = Number(q.limit ?? 10);
          return {
            object: 'list',
            data: data.slice(0, limit),
            has_more: data.length > limit,
            url: '/v1/invoice_payments',
          };
        }
        break;
      }
      case 'products': {
        if (method === 'GET' && !rid) return list(key, 'product');
        if (method === 'POST' && !rid) return fake.addProduct(key, body.name);
        if (method === 'GET') return get(key, rid, 'product');
        break;
      }
      case 'prices': {
        if (method === 'GET' && !rid) {
          const product = query.get('product');
          return list(key, 'price', (p) => p.active && (!product || p.product === product));
        }
        if (method === 'GET') return get(key, rid, 'price');
        break;
      }
      case 'refunds': {
        if (method === 'POST' && !rid) {
          const pi = get(key, body.payment_intent, 'payment_intent');
          if (pi.status !== 'succeeded')
            throw invalid('This PaymentIntent does not have a successful charge to refund.');
          const charge = objects.get(pi.latest_charge)!;
          const amount = body.amount ? Number(body.amount) : charge.amount - charge.amount_refunded;
          if (amount > charge.amount - charge.amount_refunded)
            throw invalid(`Refund amount ($${amount / 100}) is greater than unrefunded amount on charge`);
          const refund = put(key, {
            id: id('re'),
            object: 'refund',
            amount,
            charge: charge.id,
            payment_intent: pi.id,
            status: 'succeeded',
            currency: 'usd',
            metadata: body.metadata ?? {},
            created: now(),
          });
          charge.amount_refunded += amount;
          charge.refunded = charge.amount_refunded === charge.amount;
          emit(key, 'charge.refunded', charge);
          return refund;
        }
        break;
      }
    }
    throw new StripeHttpError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(payload));
      };
      const url = new URL(req.url ?? '/', 'http://fake');
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? parseStripeForm(text) : {};
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, key, body, idempotencyKey });
      // Stripe.js in the browser holds only the publishable key: it may confirm an intent whose client secret
      // it was given (after 3-D Secure passed), nothing else.
      if (key.startsWith('pk_')) {
        const match = /^\/v1\/(payment_intents|setup_intents)\/([^/]+)\/confirm$/.exec(url.pathname);
        const target = match ? objects.get(match[2]) : undefined;
        if (!target || req.method !== 'POST' || body.client_secret !== target.client_secret) {
          send(401, { error: { type: 'invalid_request_error', message: 'This call needs a secret key.' } });
          return;
        }
        const owning = owner.get(target.id)!;
        if (match![1] === 'setup_intents') {
          send(200, publicView(fake.confirmSetupIntent(target.id, body.payment_method)));
          return;
        }
        if (target.status === 'requires_action') succeed(owning, target);
        send(200, publicView(target));
        return;
      }
      if (!fake.keys.has(key)) {
        send(401, {
          error: {
            type: 'invalid_request_error',
            message: `Invalid API Key provided: ${key.slice(0, 8)}***`,
          },
        });
        return;
      }
      if (fake.failNext && url.pathname.startsWith(fake.failNext.prefix)) {
        send(fake.failNext.status, { error: { type: 'api_error', message: 'The fake was told to fail.' } });
        return;
      }
      const replayKey = idempotencyKey ? `${key}:${idempotencyKey}` : null;
      if (replayKey && idempotent.has(replayKey)) {
        send(200, idempotent.get(replayKey));
        return;
      }
      route(req.method ?? 'GET', url.pathname, key, body, url.searchParams)
        .then((result) => {
          const view = publicView(result);
          if (replayKey && req.method === 'POST') idempotent.set(replayKey, view);
          send(200, view);
        })
        .catch((err: unknown) => {
          if (err instanceof StripeHttpError) send(err.status, { error: err.payload });
          else send(500, { error: { type: 'api_error', message: (err as Error).message } });
        });
    });
  });
  const idempotent = new Map<string, unknown>();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
