import { amountOff, discountRefusal, type DiscountTerms } from './discount-rules';

const base: DiscountTerms = {
  type: 'percent',
  amount: 10,
  product_id: null,
  organization_id: null,
  usage_limit: null,
  usage_limit_per_user: null,
  times_used: 0,
  starts_at: null,
  expires_at: null,
  active: true,
};
const product = { product_id: 7, organization_id: null };
const now = new Date('2025-06-01T00:00:00Z');

describe('discount rules', () => {
  it('applies to every product of its scope or to its one product', () => {
    expect(discountRefusal(base, product, 0, now)).toBeNull();
    expect(discountRefusal({ ...base, product_id: 8 }, product, 0, now)).toBe('invalid');
    expect(discountRefusal({ ...base, organization_id: 3 }, product, 0, now)).toBe('invalid');
  });

  it('is invalid before its start, from its expiry, and when switched off', () => {
    expect(discountRefusal({ ...base, starts_at: new Date('2025-07-01') }, product, 0, now)).toBe('invalid');
    expect(discountRefusal({ ...base, expires_at: now }, product, 0, now)).toBe('invalid');
    expect(discountRefusal({ ...base, active: false }, product, 0, now)).toBe('invalid');
  });

  it('is used up at its overall or per-user limit', () => {
    expect(discountRefusal({ ...base, usage_limit: 2, times_used: 2 }, product, 0, now)).toBe('exhausted');
    expect(discountRefusal({ ...base, usage_limit_per_user: 1 }, product, 1, now)).toBe('exhausted');
    expect(discountRefusal({ ...base, usage_limit_per_user: 2 }, product, 1, now)).toBeNull();
  });

  it('takes a rounded percent or a fixed amount, never more than the price', () => {
    expect(amountOff(999, { type: 'percent', amount: 15 })).toBe(150);
    expect(amountOff(1000, { type: 'fixed', amount: 300 })).toBe(300);
    expect(amountOff(200, { type: 'fixed', amount: 300 })).toBe(200);
  });
});
