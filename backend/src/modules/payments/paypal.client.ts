import { Inject, Injectable } from '@nestjs/common';
import { PAYMENT_MESSAGES } from '@avatar-studio/contracts';
import { DomainError } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';

const PAYPAL_TIMEOUT_MS = 20_000;
/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface PayPalAmount {
  currency_code: string;
  value: string;
}
export interface PayPalOrder {
  id: string;
  status: string;
  purchase_units: {
    custom_id?: string;
    amount: PayPalAmount;
    payments?: { captures?: { id: string; status: string; amount: PayPalAmount }[] };
  }[];
}
export interface PayPalSubscription {
  id: string;
  status: string;
  plan_id: string;
  custom_id: string | null;
  billing_info?: { next_billing_time?: string; last_payment?: { amount: PayPalAmount } | null } | null;
}
export interface PayPalSale {
  id: string;
  billing_agreement_id?: string;
  create_time?: string;
}
export type PayPalInterval = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

/** The HTTP status and PayPal's error name of a refused call. */
export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly providerError: string,
    readonly issue: string | null,
  ) {
    super(`PayPal answered ${status} ${providerError}${issue ? ` (${issue})` : ''}`);
  }
}

/** cents -> PayPal's decimal string. */
export const paypalValue = (cents: number) => (cents / 100).toFixed(2);
/** PayPal's decimal string -> cents. */
export const paypalCents = (value: string) => Math.round(Number(value) * 100);

/**
 * PayPal's REST API over plain HTTP: OAuth2 client credentials (client id and secret from app config), Orders
 * v2, catalog products, billing plans and subscriptions, and the webhook signature verification call.
 */
@Injectable()
export class PayPalClient {
  private token: { value: string; until: number; client: string } | null = null;

  constructor(
    private readonly config: AppConfigService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async clientId(): Promise<string | null> {
    return this.config.get('paypal_client_id');
  }

  createOrder(body: {
    amountCents: number;
    currency: string;
    custom_id: string;
    description: string;
  }): Promise<PayPalOrder> {
    return this.call('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: body.custom_id,
          custom_id: body.custom_id,
          description: body.description.slice(0, 127),
          amount: { currency_code: body.currency.toUpperCase(), value: paypalValue(body.amountCents) },
        },
      ],
    });
  }

  getOrder(id: string): Promise<PayPalOrder> {
    return this.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`);
  }

  captureOrder(id: string, idempotencyKey: string): Promise<PayPalOrder> {
    return this.call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, idempotencyKey);
  }

  createProduct(name: string): Promise<{ id: string }> {
    return this.call('POST', '/v1/catalogs/products', { name: name.slice(0, 127), type: 'SERVICE' });
  }

  createPlan(body: {
    product_id: string;
    name: string;
    amountCents: number;
    currency: string;
    interval: PayPalInterval;
    intervalCount: number;
    trialDays: number | null;
  }): Promise<{ id: string }> {
    const regular = {
      frequency: { interval_unit: body.interval, interval_count: body.intervalCount },
      tenure_type: 'REGULAR',
      sequence: body.trialDays ? 2 : 1,
      total_cycles: 0,
      pricing_scheme: {
        fixed_price: { value: paypalValue(body.amountCents), currency_code: body.currency.toUpperCase() },
      },
    };
    const trial = body.trialDays
      ? [
          {
            frequency: { interval_unit: 'DAY', interval_count: body.trialDays },
            tenure_type: 'TRIAL',
            sequence: 1,
            total_cycles: 1,
          },
        ]
      : [];
    return this.call('POST', '/v1/billing/plans', {
      product_id: body.product_id,
      name: body.name.slice(0, 127),
      billing_cycles: [...trial, regular],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
    });
  }

  getSubscription(id: string): Promise<PayPalSubscription> {
    return this.call('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`);
  }

  /** A sale (a subscription's payment): which subscription it paid, and when. Null when PayPal does not know it. */
  async getSale(id: string): Promise<PayPalSale | null> {
    try {
      return await this.call<PayPalSale>('GET', `/v1/payments/sale/${encodeURIComponent(id)}`);
    } catch (err) {
      if (err instanceof PayPalError && err.status === 404) return null;
      throw err;
    }
  }

  async cancelSubscription(id: string, reason: string): Promise<void> {
    try {
      await this.call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
        reason: reason.slice(0, 127),
      });
    } catch (err) {
      // Already cancelled at PayPal: the wanted state.
      if (err instanceof PayPalError && err.issue === 'SUBSCRIPTION_STATUS_INVALID') return;
      throw err;
    }
  }

  async verifyWebhook(input: {
    headers: Record<string, string | undefined>;
    event: unknown;
    webhookId: string;
  }): Promise<boolean> {
    const result = await this.call<{ verification_status: string }>(
      'POST',
      '/v1/notifications/verify-webhook-signature',
      {
        auth_algo: input.headers['paypal-auth-algo'],
        cert_url: input.headers['paypal-cert-url'],
        transmission_id: input.headers['paypal-transmission-id'],
        transmission_sig: input.headers['paypal-transmission-sig'],
        transmission_time: input.headers['paypal-transmission-time'],
        webhook_id: input.webhookId,
        webhook_event: input.event,
      },
    );
    return result.verification_status === 'SUCCESS';
  }

  /** Asks PayPal for a fresh access token with the stored keys (the setup check); throws like any call. */
  async checkCredentials(): Promise<void> {
    this.token = null;
    await this.accessToken();
  }

  private async credentials(): Promise<{ id: string; secret: string }> {
    const keys = await this.config.getMany(['paypal_client_id', 'paypal_client_secret'] as const);
    if (!keys.paypal_client_id || !keys.paypal_client_secret)
      throw new DomainError(503, 'payments_not_configured', PAYMENT_MESSAGES.paymentsNotConfigured);
    return { id: keys.paypal_client_id, secret: keys.paypal_client_secret };
  }

  private async accessToken(): Promise<string> {
    const { id, secret } = await this.credentials();
    if (this.token && this.token.client === id && this.token.until > Date.now()) return this.token.value;
    const res = await this.fetch('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new PayPalError(res.status, 'AUTHENTICATION_FAILURE', null);
    this.token = {
      value: body.access_token,
      until: Date.now() + (body.expires_in ?? 3600) * 1000 - TOKEN_MARGIN_MS,
      client: id,
    };
    return body.access_token;
  }

  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const send = async (token: string) =>
      this.fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'paypal-request-id': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let res = await send(await this.accessToken());
    if (res.status === 401) {
      // The token was revoked or expired early: one fresh token, once.
      this.token = null;
      res = await send(await this.accessToken());
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) {
      const details = parsed.details as { issue?: string }[] | undefined;
      throw new PayPalError(res.status, String(parsed.name ?? 'ERROR'), details?.[0]?.issue ?? null);
    }
    return parsed as T;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.env.paypalApiBase), {
      ...init,
      signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
    });
  }
}
