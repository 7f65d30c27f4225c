import { Injectable, OnModuleInit } from '@nestjs/common';
import { PurchasesService, type PurchaseView } from '../purchases/purchases.service';
import { PayPalClient } from './paypal.client';
import { accountOf, StripeAccounts, stripeFailure } from './stripe-accounts';

/** Stripe statuses of a subscription that charges nothing more. */
const ENDED_AT_STRIPE = new Set(['canceled', 'incomplete_expired']);

/** Stops a subscription from renewing at Stripe or PayPal: at the period end when its purchase is cancelled, at once when revoked. */
@Injectable()
export class ProviderCancelAdapters implements OnModuleInit {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly accounts: StripeAccounts,
    private readonly paypal: PayPalClient,
  ) {}

  onModuleInit(): void {
    this.purchases.useProviderCancel('stripe', {
      cancelAtPeriodEnd: async (purchase: PurchaseView) => {
        if (!purchase.stripe_subscription_id) return { period_end: null };
        const account = await this.accounts.get(accountOf(purchase.organization_id));
        try {
          const sub = await account.stripe.subscriptions.update(
            purchase.stripe_subscription_id,
            { cancel_at_period_end: true, metadata: { cancelled_by: 'customer' } },
            { idempotencyKey: `cancel-${purchase.purchase_id}` },
          );
          const end = sub.items?.data?.[0]?.current_period_end;
          return { period_end: end ? new Date(end * 1000) : null };
        } catch (err) {
          throw stripeFailure(err);
        }
      },
      cancelNow: async (purchase: PurchaseView) => {
        if (!purchase.stripe_subscription_id) return false;
        const account = await this.accounts.get(accountOf(purchase.organization_id));
        try {
          const sub = await account.stripe.subscriptions.retrieve(purchase.stripe_subscription_id);
          if (ENDED_AT_STRIPE.has(sub.status)) return false;
          await account.stripe.subscriptions.cancel(
            purchase.stripe_subscription_id,
            { prorate: false, invoice_now: false },
            { idempotencyKey: `revoke-${purchase.purchase_id}` },
          );
          return true;
        } catch (err) {
          throw stripeFailure(err);
        }
      },
    });
    this.purchases.useProviderCancel('paypal', {
      cancelAtPeriodEnd: async (purchase: PurchaseView) => {
        if (purchase.paypal_subscription_id)
          await this.paypal.cancelSubscription(
            purchase.paypal_subscription_id,
            purchase.cancel_reason ?? 'Cancelled by the customer.',
          );
        // PayPal stops billing at once; the period already paid keeps its end (expires_at).
        return { period_end: null };
      },
      cancelNow: async (purchase: PurchaseView) => {
        if (!purchase.paypal_subscription_id) return false;
        const sub = await this.paypal.getSubscription(purchase.paypal_subscription_id);
        if (sub.status === 'CANCELLED' || sub.status === 'EXPIRED') return false;
        await this.paypal.cancelSubscription(
          purchase.paypal_subscription_id,
          purchase.cancel_reason ?? 'Access revoked.',
        );
        return true;
      },
    });
  }
}
