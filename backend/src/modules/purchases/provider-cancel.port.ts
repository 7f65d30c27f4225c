import type { Purchase } from './purchase.entity';

/**
 * Stops a provider subscription from renewing at its period end (implemented by the payment side for Stripe and
 * PayPal, registered with PurchasesService.useProviderCancel). Throws when the provider refuses.
 */
export interface ProviderCancel {
  cancelAtPeriodEnd(purchase: Purchase): Promise<{ period_end: Date | null }>;
}
