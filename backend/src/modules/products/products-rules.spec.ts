import { applyProductFormRules, chargePrice, PRODUCT_ERRORS, validateProduct } from './products-rules';

const valid = { name: 'Plan', description: 'Words', price: 1000, word_amount: 100 };

describe('product rules', () => {
  it('accepts a valid product and an unlimited one', () => {
    expect(validateProduct(valid)).toEqual([]);
    expect(validateProduct({ ...valid, word_amount: null, unlimited: true })).toEqual([]);
  });

  it('lists every broken rule together', () => {
    expect(validateProduct({ price: 'x' as unknown as number, word_amount: 0, unlimited: false })).toEqual([
      PRODUCT_ERRORS.name,
      PRODUCT_ERRORS.description,
      PRODUCT_ERRORS.price,
      PRODUCT_ERRORS.wordAmount,
    ]);
    expect(validateProduct({ ...valid, price: 10.5 })).toEqual([PRODUCT_ERRORS.price]);
  });

  it('needs a Stripe price with a Stripe product, and a recurrence with a Stripe price', () => {
    expect(validateProduct({ ...valid, stripe_product_id: 'prod' })).toEqual([PRODUCT_ERRORS.stripePrice]);
    expect(validateProduct({ ...valid, stripe_product_id: 'prod', stripe_price_id: 'price' })).toEqual([
      PRODUCT_ERRORS.recurring,
    ]);
    expect(
      validateProduct({
        ...valid,
        stripe_product_id: 'prod',
        stripe_price_id: 'price',
        subscription_interval: 1,
        subscription_period: 'month',
      }),
    ).toEqual([]);
  });

  it('clears word_amount for unlimited, defaults a subscription to 1 month, clears a trial that is off', () => {
    expect(applyProductFormRules({ ...valid, unlimited: true }).word_amount).toBeNull();
    expect(applyProductFormRules({ ...valid, is_subscription: true })).toMatchObject({
      subscription_interval: 1,
      subscription_period: 'month',
    });
    expect(
      applyProductFormRules({ ...valid, free_trial_period: false, free_trial_length: 5 }).free_trial_length,
    ).toBeNull();
    expect(validateProduct({ ...valid, free_trial_length: 5, free_trial_end: new Date() })).toEqual([
      PRODUCT_ERRORS.trialBoth,
    ]);
  });

  it('charges the sale price when there is one', () => {
    expect(chargePrice({ price: 1000, sale_price: null })).toBe(1000);
    expect(chargePrice({ price: 1000, sale_price: 800 })).toBe(800);
  });
});
