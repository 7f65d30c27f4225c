import type { DiscountType } from '@avatar-studio/contracts';

export interface DiscountTerms {
  type: DiscountType;
  amount: number;
  product_id: number | null;
  organization_id: number | null;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  times_used: number;
  starts_at: Date | null;
  expires_at: Date | null;
  active: boolean;
}

/** Why a code cannot be used: 'invalid' (400: not for this, not now) or 'exhausted' (412: used up). */
export type DiscountRefusal = 'invalid' | 'exhausted';

/**
 * Whether a discount applies to a product now for a user who has used it `usesByUser` times. A code for one
 * product applies to that product only; a code for all applies to every product of its organization (or, with
 * none, to platform products).
 */
export function discountRefusal(
  discount: DiscountTerms,
  product: { product_id: number; organization_id: number | null },
  usesByUser: number,
  now: Date,
): DiscountRefusal | null {
  if (!discount.active) return 'invalid';
  if (discount.starts_at && discount.starts_at > now) return 'invalid';
  if (discount.expires_at && discount.expires_at <= now) return 'invalid';
  if (discount.product_id !== null && discount.product_id !== product.product_id) return 'invalid';
  if ((discount.organization_id ?? null) !== (product.organization_id ?? null)) return 'invalid';
  if (discount.usage_limit !== null && discount.times_used >= discount.usage_limit) return 'exhausted';
  if (discount.usage_limit_per_user !== null && usesByUser >= discount.usage_limit_per_user)
    return 'exhausted';
  return null;
}

/** Cents taken off `price`: a percent rounded to the nearest cent, or a fixed amount; never more than the price. */
export function amountOff(price: number, discount: { type: DiscountType; amount: number }): number {
  const off = discount.type === 'percent' ? Math.round((price * discount.amount) / 100) : discount.amount;
  return Math.max(0, Math.min(price, off));
}
