import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import Stripe from 'stripe';
import { DomainError } from '../../common/errors/domain-error';
import { JobQueue } from '../../common/jobs/job-queue';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';
import { PaymentEventsProcessor } from './payment-events.processor';
import { PayPalClient } from './paypal.client';
import { PaymentsRepository } from './payments.repository';
import { accountOf, PLATFORM_ACCOUNT, StripeAccounts } from './stripe-accounts';

export const PAYMENT_EVENT_JOB = 'payment-event';
/**
 * An event that arrives before the one it builds on (a renewal before the first payment) waits and is tried
 * again: 250 ms, 500 ms, 1 s ... up to about four minutes in all.
 */
export const PAYMENT_EVENT_RETRY = { attempts: 10, backoffMs: 250 };

export interface PaymentEventJob {
  payment_event_id: string;
}

const badSignature = () =>
  new DomainError(400, 'invalid_signature', 'The webhook signature could not be verified.');

/** Only the header names PayPal's verification call needs (never a secret). */
const PAYPAL_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

/**
 * Webhooks: each event is verified on the raw body (Stripe's signature with a tolerance, PayPal's verification
 * call), stored once by its event id and processed in a job, so a duplicate is answered without a second effect.
 */
@Injectable()
export class PaymentWebhooksService implements OnModuleInit {
  private readonly logger = new Logger('PaymentWebhooks');
  private readonly verifier = new Stripe('sk_verify_only');

  constructor(
    private readonly repo: PaymentsRepository,
    private readonly accounts: StripeAccounts,
    private readonly paypal: PayPalClient,
    private readonly config: AppConfigService,
    private readonly jobs: JobQueue,
    private readonly processor: PaymentEventsProcessor,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  onModuleInit(): void {
    this.jobs.register<PaymentEventJob>(PAYMENT_EVENT_JOB, (job, attempt) =>
      this.processor.process(job.payment_event_id, attempt >= PAYMENT_EVENT_RETRY.attempts),
    );
  }

  /** Webhook events received since `since` that failed for good (the back office's dashboard). */
  failedEvents(since: Date): Promise<{ count: number; last: Date | null }> {
    return this.repo.failedSince(since);
  }

  /** A Stripe event for the platform (organization_id null) or an organization's own account. */
  async receiveStripe(
    organization_id: number | null,
    rawBody: Buffer | undefined,
    signature: string | undefined,
  ): Promise<{ fresh: boolean }> {
    const account = accountOf(organization_id);
    const keys = organization_id ? await this.accounts.find(account) : null;
    const secret = organization_id ? keys?.webhookSecret : await this.config.get('stripe_webhook_key');
    if (!secret || !rawBody || !signature) throw badSignature();
    let event: Stripe.Event;
    try {
      event = this.verifier.webhooks.constructEvent(
        rawBody,
        signature,
        secret,
        this.env.stripeWebhookToleranceSeconds,
      );
    } catch {
      throw badSignature();
    }
    return this.store(
      'stripe',
      account,
      event.id,
      event.type,
      event as unknown as Record<string, unknown>,
      event.created,
    );
  }

  async receivePayPal(
    rawBody: Buffer | undefined,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ fresh: boolean }> {
    const webhookId = await this.config.get('paypal_webhook_id');
    if (!webhookId || !rawBody) throw badSignature();
    let event: { id?: unknown; event_type?: unknown; create_time?: unknown };
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw badSignature();
    }
    if (typeof event.id !== 'string' || typeof event.event_type !== 'string') throw badSignature();
    const picked: Record<string, string | undefined> = {};
    for (const name of PAYPAL_HEADERS) {
      const value = headers[name];
      picked[name] = Array.isArray(value) ? value[0] : value;
    }
    if (PAYPAL_HEADERS.some((h) => !picked[h])) throw badSignature();
    let valid: boolean;
    try {
      valid = await this.paypal.verifyWebhook({ headers: picked, event, webhookId });
    } catch (err) {
      if (err instanceof DomainError) throw err;
      // PayPal did not answer: 502 makes PayPal deliver the event again later.
      this.logger.warn(`PayPal webhook verification failed: ${(err as Error).message}`);
      throw new DomainError(502, 'payment_provider_error', 'PayPal could not verify the event now.');
    }
    if (!valid) throw badSignature();
    const created = typeof event.create_time === 'string' ? Date.parse(event.create_time) / 1000 : null;
    return this.store(
      'paypal',
      PLATFORM_ACCOUNT,
      event.id,
      event.event_type,
      event as Record<string, unknown>,
      created,
    );
  }

  private async store(
    provider: 'stripe' | 'paypal',
    account: string,
    event_id: string,
    type: string,
    payload: Record<string, unknown>,
    createdSeconds: number | null,
  ): Promise<{ fresh: boolean }> {
    const stored = await this.repo.storeEvent({
      provider,
      account,
      event_id: event_id.slice(0, 255),
      type: type.slice(0, 100),
      payload,
      provider_created_at:
        createdSeconds && Number.isFinite(createdSeconds) ? new Date(createdSeconds * 1000) : null,
    });
    // Only the id goes into the job; the event itself stays in the table.
    if (stored.fresh)
      await this.jobs.add<PaymentEventJob>(
        PAYMENT_EVENT_JOB,
        { payment_event_id: stored.payment_event_id },
        PAYMENT_EVENT_RETRY,
      );
    return { fresh: stored.fresh };
  }
}
