import { displayBalance, hasWordAccess, Lot, replayBalance, UNLIMITED_SENTINEL } from './word-balance';

const lot = (at: number, words: number, expires_at: number | null = null, unlimited = false): Lot => ({
  at,
  words,
  unlimited,
  expires_at,
});
const use = (at: number, words: number) => ({ at, words });

describe('replayBalance', () => {
  it('is zero without grants', () => {
    expect(replayBalance([], [use(5, 10)], 100)).toEqual({ words: 0, unlimited: false });
  });

  it('subtracts debits from grants', () => {
    expect(replayBalance([lot(1, 500), lot(2, 100)], [use(3, 120), use(4, 30)], 100)).toEqual({
      words: 450,
      unlimited: false,
    });
  });

  it('drops what is left of a grant once it expires', () => {
    expect(replayBalance([lot(1, 100, 50)], [use(10, 30)], 49).words).toBe(70);
    expect(replayBalance([lot(1, 100, 50)], [use(10, 30)], 50).words).toBe(0);
  });

  it('does not resurrect words spent before an expiry when a new grant arrives', () => {
    // 30 of the first 100 were spent, the rest expired; the new 100 are untouched.
    expect(replayBalance([lot(1, 100, 50), lot(60, 100)], [use(10, 30)], 70).words).toBe(100);
  });

  it('spends the grant that expires soonest first, so later expiries do not take spent words with them', () => {
    // 150 spent from (100 expiring at 50) and (100 never expiring): the expiring lot is used up first.
    expect(replayBalance([lot(1, 100), lot(2, 100, 50)], [use(10, 150)], 40).words).toBe(50);
    expect(replayBalance([lot(1, 100), lot(2, 100, 50)], [use(10, 150)], 60).words).toBe(50);
  });

  it('does not let debits made after an expiry eat the expired grant', () => {
    expect(replayBalance([lot(1, 100, 50), lot(2, 100)], [use(60, 80)], 70).words).toBe(20);
  });

  it('never goes below zero when consumption exceeds the grants', () => {
    expect(replayBalance([lot(1, 10)], [use(2, 25)], 10).words).toBe(0);
  });

  it('ignores consumption that happened before any grant', () => {
    expect(replayBalance([lot(5, 10)], [use(1, 10)], 10).words).toBe(10);
  });

  it('is unlimited while an unlimited grant is usable, and debits then consume no words', () => {
    const lots = [lot(1, 200), lot(2, 0, 50, true)];
    expect(replayBalance(lots, [use(10, 500)], 40)).toEqual({ words: 200, unlimited: true });
    expect(replayBalance(lots, [use(10, 500)], 60)).toEqual({ words: 200, unlimited: false });
    expect(replayBalance(lots, [use(10, 500), use(55, 50)], 60).words).toBe(150);
  });

  it('applies an expiry before a debit at the same instant', () => {
    expect(replayBalance([lot(1, 100, 10), lot(2, 100)], [use(10, 50)], 20).words).toBe(50);
  });

  it('never makes a grant created already expired usable', () => {
    expect(replayBalance([lot(10, 100, 5)], [], 20).words).toBe(0);
  });
});

describe('displayBalance and hasWordAccess', () => {
  it('shows the 1,000,000 sentinel for unlimited and the words otherwise', () => {
    expect(UNLIMITED_SENTINEL).toBe(1_000_000);
    expect(displayBalance({ words: 12, unlimited: true })).toBe(1_000_000);
    expect(displayBalance({ words: 12, unlimited: false })).toBe(12);
  });

  it('gives access with words left or unlimited only', () => {
    expect(hasWordAccess({ words: 0, unlimited: false })).toBe(false);
    expect(hasWordAccess({ words: 1, unlimited: false })).toBe(true);
    expect(hasWordAccess({ words: 0, unlimited: true })).toBe(true);
  });
});
