import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Purchase } from '../purchases/purchase.entity';
import { PurchasesService } from '../purchases/purchases.service';
import { PayPalClient } from './paypal.client';
import { accountOf, StripeAccounts, stripeFailure } from './stripe-accounts';

/** Stops a subscription from renewing at Stripe or PayPal when its purchase is cancelled (at the period end). */
@Injectable()
export class ProviderCancelAdapters implements OnModuleInit {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly accounts: StripeAccounts,
    private readonly paypal: PayPalClient,
  ) {}

  onModuleInit(): void {
    this.purchases.useProviderCancel('stripe', {
      cancelAtPeriodEnd: async (purchase: Purchase) => {
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
    });
    this.purchases.useProviderCancel('paypal', {
      cancelAtPeriodEnd: async (purchase: Purchase) => {
        if (purchase.paypal_subscription_id)
          await this.paypal.cancelSubscription(
            purchase.paypal_subscription_id,
            purchase.cancel_reason ?? 'Cancelled by the customer.',
          );
        // PayPal stops billing at once; the period already paid keeps its end (expires_at).
        return { period_end: null };
      },
    });
  }
}
