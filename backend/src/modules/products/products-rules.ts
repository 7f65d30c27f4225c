import { SUBSCRIPTION_PERIODS, type SubscriptionPeriod } from '@avatar-studio/contracts';

/** What the product form sends (POST/PUT /products), before the form rules are applied. */
export interface ProductInput {
  name?: string | null;
  description?: string | null;
  short_description?: string | null;
  price?: number | null;
  sale_price?: number | null;
  word_amount?: number | null;
  /** The form's Unlimited switch; when absent, a null word_amount means unlimited. */
  unlimited?: boolean | null;
  free_trial_words?: number | null;
  is_subscription?: boolean | null;
  subscription_interval?: number | null;
  subscription_period?: string | null;
  expiration_days?: number | null;
  limit_per_user?: number | null;
  user_limit?: number | null;
  free_trial_period?: boolean | null;
  free_trial_length?: number | null;
  free_trial_end?: Date | null;
  available?: boolean | null;
  stripe_product_id?: string | null;
  stripe_price_id?: string | null;
  paypal_product_id?: string | null;
  paypal_plan_id?: string | null;
  webhook_url?: string | null;
  product_sku?: string | null;
}

export const PRODUCT_ERRORS = {
  name: 'Name is required.',
  description: 'Description is required.',
  price: 'Price must be a number greater than 0 (whole cents).',
  wordAmount: 'Word amount must be a positive number unless Unlimited is on.',
  stripePrice: 'Stripe price is required when a Stripe product is given.',
  recurring: 'Subscription interval and period are required when a Stripe price is given.',
  period: `Subscription period must be one of ${SUBSCRIPTION_PERIODS.join(', ')}.`,
  trialBoth: 'Give the free trial as days or as an end date, not both.',
  trialMissing: 'Give the free trial as days or as an end date.',
  salePrice: 'Sale price must be a number greater than 0 (whole cents).',
} as const;

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
/** A whole number above 0 (prices are cents, words are counted). */
const positive = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * The product form's rules: Unlimited on clears word_amount; a subscription defaults to every 1 month; without a
 * free trial its length and end are cleared. Applied to the product as it will be saved (existing merged with
 * the changes), before validateProduct.
 */
export function applyProductFormRules(input: ProductInput): ProductInput {
  const out = { ...input };
  if (out.unlimited === true) out.word_amount = null;
  if (out.is_subscription) {
    out.subscription_period ??= 'month';
    out.subscription_interval ??= 1;
  }
  if (out.free_trial_period === false) {
    out.free_trial_length = null;
    out.free_trial_end = null;
  } else if (out.free_trial_length || out.free_trial_end) {
    out.free_trial_period = true;
  }
  for (const key of [
    'short_description',
    'stripe_product_id',
    'stripe_price_id',
    'paypal_product_id',
    'paypal_plan_id',
    'webhook_url',
    'product_sku',
  ] as const) {
    const value = out[key];
    if (typeof value === 'string') out[key] = value.trim() === '' ? null : value.trim();
  }
  return out;
}

/**
 * The save rules, every broken one listed (the form shows them together after 'Validation Errors:'): name,
 * description, price > 0, word_amount > 0 unless unlimited, a Stripe price with a Stripe product, interval and
 * period with a Stripe price; and a free trial as days or as a date.
 */
export function validateProduct(input: ProductInput): string[] {
  const errors: string[] = [];
  if (blank(input.name)) errors.push(PRODUCT_ERRORS.name);
  if (blank(input.description)) errors.push(PRODUCT_ERRORS.description);
  if (!positive(input.price)) errors.push(PRODUCT_ERRORS.price);
  if (input.sale_price !== undefined && input.sale_price !== null && !positive(input.sale_price))
    errors.push(PRODUCT_ERRORS.salePrice);
  const unlimited = input.unlimited ?? (input.word_amount === null || input.word_amount === undefined);
  if (!unlimited && !positive(input.word_amount)) errors.push(PRODUCT_ERRORS.wordAmount);
  if (!blank(input.stripe_product_id) && blank(input.stripe_price_id))
    errors.push(PRODUCT_ERRORS.stripePrice);
  if (
    !blank(input.stripe_price_id) &&
    (!positive(input.subscription_interval) || blank(input.subscription_period))
  )
    errors.push(PRODUCT_ERRORS.recurring);
  if (
    !blank(input.subscription_period) &&
    !(SUBSCRIPTION_PERIODS as readonly string[]).includes(input.subscription_period as string)
  )
    errors.push(PRODUCT_ERRORS.period);
  if (input.free_trial_length && input.free_trial_end) errors.push(PRODUCT_ERRORS.trialBoth);
  else if (input.free_trial_period && !input.free_trial_length && !input.free_trial_end)
    errors.push(PRODUCT_ERRORS.trialMissing);
  return errors;
}

/** What a product costs before a discount: its sale price when it has one, else its price (cents). */
export function chargePrice(product: { price: number; sale_price: number | null }): number {
  return product.sale_price ?? product.price;
}

export function isSubscriptionPeriod(value: unknown): value is SubscriptionPeriod {
  return (SUBSCRIPTION_PERIODS as readonly unknown[]).includes(value);
}
