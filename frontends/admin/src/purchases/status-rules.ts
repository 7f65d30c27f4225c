/**
 * The purchase status rules of the admin edit form: from cancelled or revoked only those two stay selectable, and
 * each change that matters says what it does before it is saved (the server applies the same rules).
 */
import {
  PURCHASE_FINAL_STATUSES,
  PURCHASE_GRANTING_STATUSES,
  PURCHASE_STATUSES,
  type PurchaseStatus,
} from '@avatar-studio/contracts/billing';

/** The statuses the form offers for a purchase whose stored status is `original`. */
export function selectableStatuses(original: string): PurchaseStatus[] {
  return PURCHASE_FINAL_STATUSES.includes(original as PurchaseStatus)
    ? (['cancelled', 'revoked'] as PurchaseStatus[])
    : [...PURCHASE_STATUSES];
}

export type StatusWarning = 'cancelled' | 'revoked' | 'granted' | null;

/** Which warning the form shows when `next` is chosen for a purchase stored as `original`. */
export function statusWarning(original: string, next: string): StatusWarning {
  if (next === original) return null;
  if (next === 'cancelled') return 'cancelled';
  if (next === 'revoked') return 'revoked';
  if (
    PURCHASE_GRANTING_STATUSES.includes(next as PurchaseStatus) &&
    !PURCHASE_GRANTING_STATUSES.includes(original as PurchaseStatus)
  )
    return 'granted';
  return null;
}
