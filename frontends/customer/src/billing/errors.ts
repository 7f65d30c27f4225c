import { ApiError } from '@avatar-studio/shared';
import type { TFunction } from 'i18next';

/**
 * The purchase error catalogue: 400, 412 and 409 have fixed sentences (a PayPal renewal's invoice its own);
 * otherwise the server's, else the default.
 */
export function purchaseErrorText(error: unknown, t: TFunction<'customer'>): string {
  if (error instanceof ApiError) {
    if (error.status === 400 && error.code === 'invalid_payment_method')
      return t('billing.errors.invalidPaymentMethod');
    if (error.status === 412) return t('billing.errors.soldOut');
    if (error.status === 409 && error.code === 'invoice_paid_by_provider')
      return t('billing.errors.paidByPayPal');
    if (error.status === 409) return t('billing.errors.limitReached');
    if (error.hasServerMessage) return error.message;
  }
  if (error instanceof Error && !(error instanceof ApiError) && error.message) return error.message;
  return t('billing.errors.purchaseDefault');
}

/** A discount's failure: its own message when it carries one, 412 exhausted, anything else invalid. */
export function discountErrorText(error: unknown, t: TFunction<'customer'>): string {
  if (error instanceof ApiError && error.status === 412) return t('billing.errors.discountExhausted');
  if (error instanceof ApiError && error.hasServerMessage && error.status !== 404) return error.message;
  return t('billing.errors.discountInvalid');
}

/** cents -> '12.00' (the price label: cents divided by 100, two decimals). */
export { priceLabel } from '@avatar-studio/contracts';
