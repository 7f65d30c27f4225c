import Stripe from 'stripe';
import { DomainError } from '../../common/errors/domain-error';
import type { Product } from '../products/product.entity';
import { trialOf } from './checkout.service';
import { paypalCents, paypalValue } from './paypal.client';
import { accountOf, organizationOfAccount, PLATFORM_ACCOUNT, stripeFailure } from './stripe-accounts';

const product = (fields: Partial<Product>) =>
  ({ free_trial_end: null, free_trial_length: null, ...fields }) as Product;

describe('payments rules', () => {
  it('names the Stripe account of a product: the platform or its organization', () => {
    expect(accountOf(null)).toBe(PLATFORM_ACCOUNT);
    expect(accountOf(12)).toBe('org:12');
    expect(organizationOfAccount('org:12')).toBe(12);
    expect(organizationOfAccount(PLATFORM_ACCOUNT)).toBeNull();
    expect(organizationOfAccount('org:12x')).toBeNull();
  });

  it('reads a free trial as days, or as an end date still ahead (which wins)', () => {
    const now = Date.parse('2026-11-25T00:00:00Z');
    expect(trialOf(product({}), now)).toBeNull();
    expect(trialOf(product({ free_trial_length: 7 }), now)).toEqual({ days: 7 });
    const end = new Date('2026-12-01T00:00:00Z');
    expect(trialOf(product({ free_trial_length: 7, free_trial_end: end }), now)).toEqual({
      end: end.getTime() / 1000,
    });
    expect(trialOf(product({ free_trial_end: new Date('2026-11-01T00:00:00Z') }), now)).toBeNull();
  });

  it("converts cents to PayPal's decimal strings and back without float drift", () => {
    expect(paypalValue(1999)).toBe('19.99');
    expect(paypalValue(5)).toBe('0.05');
    expect(paypalCents('19.99')).toBe(1999);
    expect(paypalCents('0.29')).toBe(29);
  });

  it('answers a declined card 402, a missing Stripe object 400, anything else 502', () => {
    const declined = new Stripe.errors.StripeCardError({
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    expect(stripeFailure(declined)).toMatchObject({ status: 402, code: 'payment_declined' });
    const missing = new Stripe.errors.StripeInvalidRequestError({
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: 'No such PaymentMethod',
    });
    expect(stripeFailure(missing)).toMatchObject({ status: 400, code: 'invalid_payment_method' });
    expect(stripeFailure(new Error('socket hang up'))).toMatchObject({
      status: 502,
      code: 'payment_provider_error',
    });
    const own = new DomainError(409, 'purchase_limit_reached', 'x');
    expect(stripeFailure(own)).toBe(own);
  });
});
