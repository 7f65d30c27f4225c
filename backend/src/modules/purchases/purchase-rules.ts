import {
  PURCHASE_FINAL_STATUSES,
  PURCHASE_GRANTING_STATUSES,
  PURCHASE_STATUS_GROUPS,
  PURCHASE_STATUSES,
  type PurchaseStatus,
  type PurchaseStatusGroup,
  type PurchaseStoredStatus,
} from '@avatar-studio/contracts';

/** The statuses staff may choose for a purchase now in `from`: once cancelled or revoked, only those two. */
export function adminStatusChoices(from: PurchaseStoredStatus): readonly PurchaseStatus[] {
  return PURCHASE_FINAL_STATUSES.includes(from)
    ? (PURCHASE_FINAL_STATUSES as readonly PurchaseStatus[])
    : PURCHASE_STATUSES;
}

/** Null when staff may move a purchase from `from` to `to`, else the sentence saying why not. */
export function adminTransitionError(from: PurchaseStoredStatus, to: string): string | null {
  if (!(PURCHASE_STATUSES as readonly string[]).includes(to))
    return `status must be one of ${PURCHASE_STATUSES.join(', ')}.`;
  if (!adminStatusChoices(from).includes(to as PurchaseStatus))
    return `A ${from} purchase can only be cancelled or revoked.`;
  return null;
}

export function grantsAccess(status: string): boolean {
  return PURCHASE_GRANTING_STATUSES.includes(status as PurchaseStoredStatus);
}

/** The stored statuses an admin status button shows; undefined (all) for an unknown or absent group. */
export function statusesOfGroup(group: string | undefined): readonly string[] | undefined {
  if (!group || !(group in PURCHASE_STATUS_GROUPS)) return undefined;
  return PURCHASE_STATUS_GROUPS[group as PurchaseStatusGroup];
}

/** Which limit a new purchase would break: 'per_user' (409), 'overall' (412), or none. */
export function limitBroken(
  product: { limit_per_user: number | null; user_limit: number | null },
  counts: { byUser: number; overall: number },
): 'per_user' | 'overall' | null {
  if (product.limit_per_user !== null && counts.byUser >= product.limit_per_user) return 'per_user';
  if (product.user_limit !== null && counts.overall >= product.user_limit) return 'overall';
  return null;
}

/** `start` moved forward by `interval` periods; a month from Jan 31 ends on the last day of February. */
export function addPeriod(start: Date, interval: number, period: string): Date {
  const d = new Date(start.getTime());
  if (period === 'day') {
    d.setUTCDate(d.getUTCDate() + interval);
    return d;
  }
  const months = period === 'year' ? 12 * interval : interval;
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export interface GrantProduct {
  word_amount: number | null;
  free_trial_words: number | null;
  is_subscription: boolean;
  subscription_interval: number | null;
  subscription_period: string | null;
  free_trial_length: number | null;
  free_trial_end: Date | null;
}

/**
 * When a purchase made at `now` ends: a subscription at the end of its paid (or trial) period as the provider
 * says, or else its trial's end, or one interval later; a one-off after `expiration_days`, else never.
 */
export function accessEnd(
  product: GrantProduct,
  purchase: { expiration_days: number | null },
  now: Date,
  periodEnd: Date | null | undefined,
): Date | null {
  if (periodEnd) return periodEnd;
  if (product.is_subscription) {
    const trial = trialEnd(product, now);
    if (trial) return trial;
    return addPeriod(now, product.subscription_interval ?? 1, product.subscription_period ?? 'month');
  }
  if (purchase.expiration_days) return new Date(now.getTime() + purchase.expiration_days * 86_400_000);
  return null;
}

/** The end of the product's free trial for a purchase at `now` (null: no trial, or its date has passed). */
export function trialEnd(product: GrantProduct, now: Date): Date | null {
  if (product.free_trial_length) return new Date(now.getTime() + product.free_trial_length * 86_400_000);
  if (product.free_trial_end && product.free_trial_end > now) return product.free_trial_end;
  return null;
}

/** What a purchase grants: the trial's words while in a trial (when set), else word_amount; null = unlimited. */
export function wordsToGrant(
  product: GrantProduct,
  inTrial: boolean,
): { words: number } | { unlimited: true } {
  const words = inTrial && product.free_trial_words ? product.free_trial_words : product.word_amount;
  return words === null ? { unlimited: true } : { words };
}

/** Cents as the USD of users.value (numeric with 2 decimals). */
export function centsToUsd(cents: number): number {
  return Math.round(cents) / 100;
}

export const CANCEL_REASON_MIN = 10;

export function cancelReasonValid(reason: unknown): reason is string {
  return typeof reason === 'string' && reason.trim().length >= CANCEL_REASON_MIN;
}
