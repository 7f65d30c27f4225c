/** The UI shows this number for an unlimited balance (spec: "Unlimited words balance sentinel 1,000,000"). */
export const UNLIMITED_SENTINEL = 1_000_000;

/** Something that adds words: a grant (or a positive adjustment). Times are epoch microseconds. */
export interface Lot {
  at: number;
  words: number;
  unlimited: boolean;
  /** Null: never expires. Expired at this instant and after. */
  expires_at: number | null;
}

/** Words taken away (debits, negative adjustments, explicit expiries), as a positive amount, at a time. */
export interface Consumption {
  at: number;
  words: number;
}

export interface Balance {
  words: number;
  unlimited: boolean;
}

/**
 * The balance rule. The ledger is replayed in time order:
 * - each grant is a lot of words that is usable from its creation until its `expires_at`;
 * - a debit consumes the usable lots that expire soonest first (never-expiring lots last, older first on ties),
 *   so the words at risk of expiring are the ones spent, and spent words are never counted again;
 * - when a lot expires, whatever is left of it is forfeit (nothing more);
 * - while an unlimited grant is usable, debits consume nothing (they are recorded for statistics only).
 * The balance is what is left of the lots still usable at `now`; it cannot go below zero, because a consumption
 * larger than what is left takes only what is left (debit() never records more than the balance anyway).
 * Events at the same instant apply as: expiries, then new lots, then consumptions.
 */
export function replayBalance(lots: Lot[], consumptions: Consumption[], now: number): Balance {
  type Event =
    | { at: number; order: 0; lot: LiveLot }
    | { at: number; order: 1; lot: LiveLot }
    | { at: number; order: 2; words: number };
  interface LiveLot extends Lot {
    left: number;
    live: boolean;
    seq: number;
  }
  const live: LiveLot[] = lots.map((lot, seq) => ({ ...lot, left: lot.words, live: false, seq }));
  const events: Event[] = [];
  for (const lot of live) {
    events.push({ at: lot.at, order: 1, lot });
    if (lot.expires_at !== null) events.push({ at: lot.expires_at, order: 0, lot });
  }
  for (const c of consumptions) events.push({ at: c.at, order: 2, words: c.words });
  events.sort((a, b) => a.at - b.at || a.order - b.order);

  for (const event of events) {
    if (event.at > now) break;
    if (event.order === 0) {
      event.lot.live = false;
      event.lot.left = 0;
    } else if (event.order === 1) {
      // A lot created already expired never becomes usable.
      if (event.lot.expires_at === null || event.lot.expires_at > event.at) event.lot.live = true;
    } else {
      consume(live, event.words);
    }
  }
  const usable = live.filter((lot) => lot.live);
  return {
    words: usable.reduce((sum, lot) => sum + lot.left, 0),
    unlimited: usable.some((lot) => lot.unlimited),
  };
}

function consume(lots: (Lot & { left: number; live: boolean; seq: number })[], words: number): void {
  const usable = lots.filter((lot) => lot.live);
  if (usable.some((lot) => lot.unlimited)) return;
  usable.sort(
    (a, b) =>
      (a.expires_at ?? Number.MAX_SAFE_INTEGER) - (b.expires_at ?? Number.MAX_SAFE_INTEGER) ||
      a.at - b.at ||
      a.seq - b.seq,
  );
  let rest = words;
  for (const lot of usable) {
    if (rest <= 0) break;
    const take = Math.min(lot.left, rest);
    lot.left -= take;
    rest -= take;
  }
}

/** What the sidebar shows: the sentinel when unlimited, else the words. */
export function displayBalance(balance: Balance): number {
  return balance.unlimited ? UNLIMITED_SENTINEL : balance.words;
}

/** Paid access from words: unlimited, or words left. */
export function hasWordAccess(balance: Balance): boolean {
  return balance.unlimited || balance.words > 0;
}
