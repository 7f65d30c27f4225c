import { Inject, Injectable } from '@nestjs/common';
import { PAYMENT_MESSAGES } from '@avatar-studio/contracts';
import Stripe from 'stripe';
import { DomainError } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';
import { OrganizationsService } from '../organizations/organizations.service';

/** The platform's Stripe account, or the account of one organization (its own keys). */
export const PLATFORM_ACCOUNT = 'platform';
export const organizationAccount = (organization_id: number) => `org:${organization_id}`;

export function accountOf(organization_id: number | null | undefined): string {
  return organization_id ? organizationAccount(organization_id) : PLATFORM_ACCOUNT;
}

export function organizationOfAccount(account: string): number | null {
  const match = /^org:(\d+)$/.exec(account);
  return match ? Number(match[1]) : null;
}

export interface StripeAccount {
  account: string;
  stripe: Stripe;
  publishableKey: string | null;
  webhookSecret: string | null;
}

const STRIPE_TIMEOUT_MS = 20_000;

/**
 * Stripe clients: platform products are sold with the app config keys, organization products with the
 * organization's stored keys. One SDK client per secret key, kept while the key is unchanged.
 */
@Injectable()
export class StripeAccounts {
  private readonly clients = new Map<string, Stripe>();

  constructor(
    private readonly config: AppConfigService,
    private readonly organizations: OrganizationsService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /** The account's keys, or null when it has no secret key. */
  async find(account: string): Promise<StripeAccount | null> {
    const organization_id = organizationOfAccount(account);
    let secret: string | null;
    let publishableKey: string | null;
    let webhookSecret: string | null;
    if (organization_id) {
      const keys = await this.organizations.secrets(organization_id);
      secret = keys.stripe_secret;
      publishableKey = keys.stripe_public;
      webhookSecret = keys.stripe_webhook_secret;
    } else {
      const keys = await this.config.getMany([
        'stripe_private_key',
        'stripe_public_key',
        'stripe_webhook_key',
      ] as const);
      secret = keys.stripe_private_key;
      publishableKey = keys.stripe_public_key;
      webhookSecret = keys.stripe_webhook_key;
    }
    if (!secret) return null;
    return { account, stripe: this.client(secret), publishableKey, webhookSecret };
  }

  /** The account's keys; without a secret key, card payments answer that payments are not configured. */
  async get(account: string): Promise<StripeAccount> {
    const found = await this.find(account);
    if (!found) throw new DomainError(503, 'payments_not_configured', PAYMENT_MESSAGES.paymentsNotConfigured);
    return found;
  }

  private client(secret: string): Stripe {
    let client = this.clients.get(secret);
    if (!client) {
      const base = this.env.stripeApiBase ? new URL(this.env.stripeApiBase) : null;
      client = new Stripe(secret, {
        timeout: STRIPE_TIMEOUT_MS,
        maxNetworkRetries: 2,
        ...(base
          ? {
              host: base.hostname,
              port: base.port ? Number(base.port) : undefined,
              protocol: base.protocol.replace(':', '') as 'http' | 'https',
            }
          : {}),
      });
      if (this.clients.size > 100) this.clients.clear();
      this.clients.set(secret, client);
    }
    return client;
  }
}

/** Turns a Stripe SDK failure into the API's answer: a card problem is the buyer's (402), the rest 502. */
export function stripeFailure(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof Stripe.errors.StripeCardError)
    return new DomainError(402, 'payment_declined', err.message || PAYMENT_MESSAGES.cardDeclined);
  if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing')
    return new DomainError(400, 'invalid_payment_method', 'You have not selected a valid payment method.');
  return new DomainError(
    502,
    'payment_provider_error',
    'The payment provider did not answer as expected. Please try again in a moment.',
  );
}
