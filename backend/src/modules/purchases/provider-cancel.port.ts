import type { Purchase } from './purchase.entity';

/**
 * Stops a provider subscription (implemented by the payment side for Stripe and PayPal, registered with
 * PurchasesService.useProviderCancel). Both throw when the provider refuses or cannot be reached.
 */
export interface ProviderCancel {
  /** No renewal after the period already paid (a cancel by its owner or by staff). */
  cancelAtPeriodEnd(purchase: Purchase): Promise<{ period_end: Date | null }>;
  /** Ended now (a revoke): nothing more is charged. Answers false when the provider had already ended it. */
  cancelNow(purchase: Purchase): Promise<boolean>;
}
