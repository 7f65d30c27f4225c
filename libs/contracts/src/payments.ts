/**
 * Payments as both sides speak them: the providers, the checkout payload's kinds, the spec's Spanish sentences of
 * the payment screens, and the error codes of checkout, saved cards and webhooks.
 */

export const PAYMENT_PROVIDERS = ['stripe', 'paypal'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** What a checkout pays: a product, or an open invoice. */
export const CHECKOUT_TYPES = ['product', 'invoice'] as const;
export type CheckoutType = (typeof CHECKOUT_TYPES)[number];

/** The checkout's default payment source: a new card typed into the card form. */
export const NEW_CARD_SOURCE = 'card';

/** The order summary polls a purchase this often until its status is final. */
export const ORDER_SUMMARY_POLL_MS = 2000;
/** After a subscription is cancelled, the purchases list reloads at once and again after this delay. */
export const CANCEL_RELOAD_DELAY_MS = 1500;
/** Statuses after which the order summary stops polling. */
export const FINAL_PURCHASE_STATUSES = ['active', 'completed', 'cancelled', 'revoked', 'failed'] as const;

export const PAYMENT_MESSAGES = {
  /** A checkout for a product that does not exist or is not offered to the caller. */
  productNotFound: 'No encontramos el paquete que quieres comprar.',
  /** A saved card could not be removed. */
  paymentSourceDeleteFailed: 'Hubo un error con tu método de pago, por favor intenta de nuevo.',
  /** A saved card was stored. */
  paymentSourceSaved: 'Método de pago guardado.',
  paymentsNotConfigured: 'Payments are not configured yet. Please contact us to buy this product.',
  cardDeclined: 'Your card was declined. Please try another card.',
  paymentIncomplete: 'The payment is not complete yet.',
} as const;

export const PAYMENT_ERROR_CODES = [
  'invalid_signature',
  'payment_declined',
  'payment_incomplete',
  'payment_provider_error',
  'payment_source_delete_failed',
  'payments_not_configured',
] as const;
