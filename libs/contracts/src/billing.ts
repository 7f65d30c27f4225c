/**
 * Billing as both sides speak it: purchase and invoice statuses, the admin status groups, payment methods, the
 * spec's purchase and discount sentences, and the money rules the screens repeat (amounts are whole cents).
 */

/** The statuses staff may choose for a purchase in the back office. */
export const PURCHASE_STATUSES = ['active', 'completed', 'pending', 'cancelled', 'revoked'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * Every status a stored purchase can have: the five above, plus those only payments set (a card still being
 * processed, a payment that failed).
 */
export const PURCHASE_STORED_STATUSES = [...PURCHASE_STATUSES, 'processing', 'failed'] as const;
export type PurchaseStoredStatus = (typeof PURCHASE_STORED_STATUSES)[number];

/** Statuses that give access and words. */
export const PURCHASE_GRANTING_STATUSES: readonly PurchaseStoredStatus[] = ['active', 'completed'];

/** Once cancelled or revoked, a purchase may only move between these two. */
export const PURCHASE_FINAL_STATUSES: readonly PurchaseStoredStatus[] = ['cancelled', 'revoked'];

/** The admin purchases filter's status buttons and the stored statuses each one shows. */
export const PURCHASE_STATUS_GROUPS = {
  successful: ['active', 'completed', 'success'],
  failed: ['failed', 'cancelled'],
  pending: ['pending', 'processing', 'on-hold'],
} as const;
export type PurchaseStatusGroup = keyof typeof PURCHASE_STATUS_GROUPS;

export const INVOICE_STATUSES = ['completed', 'active', 'pending', 'failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_DEFAULT_STATUS: InvoiceStatus = 'pending';

/** What a status badge reads: 'succeeded' is shown as active, anything else as it is. */
export function purchaseBadge(status: string): string {
  return status === 'succeeded' ? 'active' : status;
}

export const SUBSCRIPTION_PERIODS = ['day', 'month', 'year'] as const;
export type SubscriptionPeriod = (typeof SUBSCRIPTION_PERIODS)[number];

/** How a purchase was paid. Fixed ids, so stored purchases and invoices keep their meaning. */
export const PAYMENT_METHODS = [
  { payment_method_id: 1, name: 'card' },
  { payment_method_id: 2, name: 'paypal' },
  { payment_method_id: 3, name: 'cash' },
  { payment_method_id: 4, name: 'transfer' },
  { payment_method_id: 5, name: 'gift' },
] as const;
export const PAYMENT_METHOD_IDS = {
  card: 1,
  paypal: 2,
  cash: 3,
  transfer: 4,
  gift: 5,
} as const satisfies Record<(typeof PAYMENT_METHODS)[number]['name'], number>;

export function isPaymentMethodId(id: unknown): boolean {
  return PAYMENT_METHODS.some((m) => m.payment_method_id === id);
}

/** Purchase admin list page size. */
export const ADMIN_PURCHASES_PAGE_SIZE = 12;
/** A subscription cancel needs a reason of at least this many characters. */
export const CANCEL_REASON_MIN_LENGTH = 10;

export const BILLING_MESSAGES = {
  purchaseDefault: 'There was an error processing your purchase.',
  ownSubscriptionRenewing:
    'Your subscription still renews. Cancel it in Billing first, then delete your account.',
  invalidPaymentMethod: 'You have not selected a valid payment method.',
  productSoldOut: "We're sorry, this product cannot be purchase anymore.",
  purchaseLimitReached: "We're sorry, you cannot purchase this product anymore.",
  discountExhausted: "We're sorry, you cannot use this discount code anymore.",
  discountInvalid: "We're sorry, that discount is invalid.",
  cancelReasonRequired: 'You must include a cancel reason.',
  invoiceSaved: 'Cargo guardado.',
  validationErrors: 'Validation Errors:',
} as const;

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** The price label of a plan: cents divided by 100 with two decimals. */
export function priceLabel(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Error codes of billing (added to the API's list of codes). */
export const BILLING_ERROR_CODES = [
  'cancel_reason_required',
  'product_invalid',
  'discount_exhausted',
  'discount_invalid',
  'discount_not_applicable',
  'discount_not_found',
  'invalid_payment_method',
  'invalid_status_transition',
  'invoice_not_found',
  'invoice_paid_by_provider',
  'payment_provider_unavailable',
  'product_not_found',
  'product_sold_out',
  'product_unavailable',
  'purchase_limit_reached',
  'purchase_not_cancellable',
  'purchase_not_found',
] as const;
