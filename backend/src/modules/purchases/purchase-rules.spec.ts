import {
  accessEnd,
  addPeriod,
  adminStatusChoices,
  adminTransitionError,
  cancelReasonValid,
  limitBroken,
  statusesOfGroup,
  wordsToGrant,
} from './purchase-rules';

const product = {
  word_amount: 500,
  free_trial_words: null,
  is_subscription: false,
  subscription_interval: null,
  subscription_period: null,
  free_trial_length: null,
  free_trial_end: null,
};
const now = new Date('2025-01-31T10:00:00Z');

describe('purchase rules', () => {
  it('offers only cancelled and revoked once a purchase is cancelled or revoked', () => {
    expect(adminStatusChoices('cancelled')).toEqual(['cancelled', 'revoked']);
    expect(adminStatusChoices('revoked')).toEqual(['cancelled', 'revoked']);
    expect(adminStatusChoices('pending')).toEqual(['active', 'completed', 'pending', 'cancelled', 'revoked']);
    expect(adminTransitionError('revoked', 'active')).toBe(
      'A revoked purchase can only be cancelled or revoked.',
    );
    expect(adminTransitionError('active', 'revoked')).toBeNull();
    expect(adminTransitionError('active', 'failed')).toMatch(/^status must be one of/);
  });

  it('maps the admin status buttons to stored statuses', () => {
    expect(statusesOfGroup('successful')).toEqual(['active', 'completed', 'success']);
    expect(statusesOfGroup('failed')).toEqual(['failed', 'cancelled']);
    expect(statusesOfGroup('pending')).toEqual(['pending', 'processing', 'on-hold']);
    expect(statusesOfGroup('all')).toBeUndefined();
  });

  it('tells the per-user limit (409) from the overall one (412)', () => {
    const limits = { limit_per_user: 1, user_limit: 10 };
    expect(limitBroken(limits, { byUser: 0, overall: 9 })).toBeNull();
    expect(limitBroken(limits, { byUser: 1, overall: 0 })).toBe('per_user');
    expect(limitBroken(limits, { byUser: 0, overall: 10 })).toBe('overall');
    expect(limitBroken({ limit_per_user: null, user_limit: null }, { byUser: 99, overall: 99 })).toBeNull();
  });

  it('ends access after expiration_days, at the period end, or after the trial', () => {
    expect(accessEnd(product, { expiration_days: null }, now, null)).toBeNull();
    expect(accessEnd(product, { expiration_days: 2 }, now, null)).toEqual(new Date('2025-02-02T10:00:00Z'));
    const sub = { ...product, is_subscription: true, subscription_interval: 1, subscription_period: 'month' };
    expect(accessEnd(sub, { expiration_days: null }, now, null)).toEqual(new Date('2025-02-28T10:00:00Z'));
    expect(accessEnd({ ...sub, free_trial_length: 7 }, { expiration_days: null }, now, null)).toEqual(
      new Date('2025-02-07T10:00:00Z'),
    );
    const end = new Date('2025-03-01T00:00:00Z');
    expect(accessEnd(sub, { expiration_days: null }, now, end)).toBe(end);
    expect(addPeriod(now, 1, 'year')).toEqual(new Date('2026-01-31T10:00:00Z'));
    expect(addPeriod(now, 3, 'day')).toEqual(new Date('2025-02-03T10:00:00Z'));
  });

  it('grants word_amount, the trial words during a trial, and unlimited for null', () => {
    expect(wordsToGrant(product, false)).toEqual({ words: 500 });
    expect(wordsToGrant({ ...product, free_trial_words: 50 }, true)).toEqual({ words: 50 });
    expect(wordsToGrant({ ...product, word_amount: null }, false)).toEqual({ unlimited: true });
  });

  it('needs a cancel reason of at least 10 characters', () => {
    expect(cancelReasonValid('too short')).toBe(false);
    expect(cancelReasonValid('  padded   ')).toBe(false);
    expect(cancelReasonValid('long enough')).toBe(true);
    expect(cancelReasonValid(undefined)).toBe(false);
  });
});
