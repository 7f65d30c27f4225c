import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  badInput,
  conflict,
  DomainError,
  notFound,
  preconditionFailed,
} from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { type StatementRead, type TransactionStatement, UnitOfWork } from '../../database/unit-of-work';
import { UserLocksService } from '../users/user-locks.service';
import { Balance, displayBalance, hasWordAccess, replayBalance } from './word-balance';
import type { WordLedgerEntry } from './word-ledger-entry.entity';
import {
  type AdmissionState,
  type ChargeState,
  LotRow,
  type NewLedgerEntry,
  type NewReservation,
  toAdmissionState,
  toChargeState,
  toReservationId,
  WordsRepository,
} from './words.repository';

/** Largest single grant or debit; far above any product, well inside JavaScript's safe integers. */
export const MAX_WORDS = 1_000_000_000;
const LEDGER_PAGE_SIZE = 20;

export interface GrantInput {
  /** Positive whole number; or `unlimited: true` instead. */
  words?: number;
  unlimited?: boolean;
  /** Where the words come from: 'purchase', 'gift', 'trial', 'admin'... */
  source: string;
  /** Makes the grant idempotent: a second grant with the same source and reference returns the first. */
  reference?: string | null;
  expires_at?: Date | null;
  note?: string | null;
  /** The staff member who granted, when one did. */
  created_by?: number | null;
}

export interface DebitInput {
  /** What spent the words: 'generation'... */
  source: string;
  /** Makes the debit idempotent (e.g. the message id). */
  reference?: string | null;
  /** The organization scope the words were spent in, for the organization's usage figures. */
  organization_id?: number | null;
}

export interface DebitResult {
  /** Words recorded against the balance by this debit. */
  charged: number;
  /** Words asked for that the balance could not cover (0 for unlimited users). */
  short: number;
  /** True when the reference had already been debited: nothing new was charged. */
  replayed: boolean;
}

export interface ReserveInput {
  /** Words wanted; capped at what is available (balance minus running reservations). */
  words: number;
  /** Staff use the product without buying words: their reservation holds nothing and is never refused for it. */
  staff: boolean;
  /**
   * Reservations the user may hold at once (their concurrent generations); one more answers 429. Null: the
   * caller bounds its answers itself (a widget), and this one neither is refused by nor counts toward the cap.
   */
  maxConcurrent: number | null;
  /** How long the reservation holds unless renewed. */
  ttlMs: number;
  reference?: string | null;
}

export interface Reservation {
  reservation_id: number;
  user_id: number;
  /** Words reserved; the generation must not produce more. */
  words: number;
  /** False for unlimited users and staff: the generation is not cut at `words`. */
  limited: boolean;
}

/** The sentence of 412 no_access, shared by every feature that spends words. */
export const NO_ACCESS_MESSAGE = 'Creating more content with the product requires an active subscription.';

export interface BalanceView extends Balance {
  display_balance: number;
  has_access: boolean;
}

export interface LedgerEntryView {
  entry_id: number;
  kind: string;
  words: number;
  unlimited: boolean;
  source: string;
  reference: string | null;
  organization_id: number | null;
  expires_at: Date | null;
  createdAt: Date;
}

/**
 * What a caller stores with a reservation (`reserveWith`): the reference the reservation is released by, the
 * statements that store it (written with the commit, before the reservation) and what they stored, from their rows.
 */
export interface StoredWithReservation<T> {
  reference: string;
  statements: TransactionStatement[];
  stored(rows: unknown[][]): T;
}

/**
 * The word ledger: grants, debits and the balance derived from them. Every change to a user's ledger takes a
 * lock on the user's row first, so concurrent debits are checked one after another and the balance never goes
 * below zero; rows are stamped with clock_timestamp() after the lock, so their time order is the order in which
 * they were decided (what replayBalance relies on).
 */
@Injectable()
export class WordsService {
  /** The last queued reservation of each user on this instance (see reserve). */
  private readonly reserving = new Map<number, Promise<void>>();

  constructor(
    private readonly rows: WordsRepository,
    private readonly transactions: UnitOfWork,
    private readonly userLocks: UserLocksService,
  ) {}

  async grant(user_id: number, input: GrantInput, manager?: EntityManager): Promise<LedgerEntryView> {
    const unlimited = input.unlimited === true;
    const words = input.words ?? 0;
    if (unlimited === (input.words !== undefined && input.words !== null))
      throw badInput('Give either a number of words or unlimited.', 'invalid_grant');
    if (!unlimited && !isWordCount(words))
      throw badInput(`words must be a whole number from 1 to ${MAX_WORDS}.`, 'invalid_words');
    if (input.expires_at && input.expires_at.getTime() <= Date.now())
      throw badInput('expires_at must be in the future.', 'invalid_expiry');
    return this.inTransaction(manager, async (m) => {
      await this.lockUser(m, user_id);
      const existing = await this.findByReference(m, 'grant', input.source, input.reference);
      if (existing) {
        if (existing.user_id !== user_id) throw referenceTaken();
        return toEntryView(existing);
      }
      const row = await this.rows.insertEntry(m, {
        user_id,
        kind: 'grant',
        words: unlimited ? 0 : words,
        unlimited,
        source: input.source,
        reference: input.reference ?? null,
        expires_at: input.expires_at ?? null,
        note: input.note ?? null,
        created_by: input.created_by ?? null,
      });
      return toEntryView(row);
    });
  }

  /**
   * Charges words. Pass the caller's transaction manager to charge in the same transaction as what the words
   * paid for (the user's row stays locked until that transaction ends). A debit larger than the balance charges
   * what is left; unlimited users are always charged in full (recorded for statistics, consuming nothing).
   */
  async debit(
    user_id: number,
    words: number,
    input: DebitInput,
    manager?: EntityManager,
  ): Promise<DebitResult> {
    if (!Number.isInteger(words) || words < 0 || words > MAX_WORDS)
      throw badInput(`words must be a whole number from 0 to ${MAX_WORDS}.`, 'invalid_words');
    return this.inTransaction(manager, (m) => this.charge(m, user_id, words, input));
  }

  /**
   * The debit under the user's lock (settling a reservation goes through `settleOpening` and `settleOpened`).
   */
  private async charge(
    m: EntityManager,
    user_id: number,
    words: number,
    input: DebitInput,
  ): Promise<DebitResult> {
    await this.lockUser(m, user_id);
    const state = await this.rows.chargeState(
      m,
      user_id,
      { source: input.source, reference: input.reference ?? null },
      null,
    );
    const { result, entry } = await this.chargeFrom(m, user_id, words, input, state);
    if (entry) await this.rows.appendEntry(m, entry);
    return result;
  }

  /** What a charge records, decided from what was read under the user's lock; no entry when nothing is charged. */
  private async chargeFrom(
    m: EntityManager,
    user_id: number,
    words: number,
    input: DebitInput,
    { existing, lots }: ChargeState,
  ): Promise<{ result: DebitResult; entry: NewLedgerEntry | null }> {
    if (existing) {
      if (existing.user_id !== user_id) throw referenceTaken();
      const charged = -existing.words;
      return { result: { charged, short: Math.max(0, words - charged), replayed: true }, entry: null };
    }
    const balance = await this.balanceOf(m, user_id, lots, { unlimitedSuffices: true });
    const charged = balance.unlimited ? words : Math.min(words, balance.words);
    return {
      result: { charged, short: words - charged, replayed: false },
      // Nothing charged, nothing recorded: a zero row would only hold the reference.
      entry:
        charged > 0
          ? {
              user_id,
              organization_id: input.organization_id ?? null,
              kind: 'debit',
              words: -charged,
              source: input.source,
              reference: input.reference ?? null,
            }
          : null,
    };
  }

  /**
   * Reserves words for one generation, under the user's lock, so concurrent reservations never together exceed
   * the balance: 429 too_many_generations at the concurrency cap, 412 no_access when nothing is available.
   */
  async reserve(user_id: number, input: ReserveInput, manager?: EntityManager): Promise<Reservation> {
    return this.inTurn(user_id, () => this.reserveNow(user_id, input, manager));
  }

  /**
   * Reserves words and, in the same transaction, stores what they pay for (`store`, which names the reference
   * the reservation is released by and gives the statements that store it): one transaction instead of two before
   * a generation starts, the reservation written once with its name. Refused (429, 412), nothing is stored; when
   * storing fails, nothing is reserved. The caller's `reads` (what `store` needs, from other modules) run in the
   * opening round trip and are judged before the words, so a missing target answers 404 whatever the balance. The
   * storing statements and the reservation are sent with the commit: two round trips in all.
   */
  async reserveWith<T, R extends readonly unknown[] = []>(
    user_id: number,
    input: ReserveInput,
    store: (m: EntityManager, read: R) => Promise<StoredWithReservation<T>>,
    reads?: { readonly [K in keyof R]: StatementRead<R[K]> },
  ): Promise<{ reservation: Reservation; stored: T }> {
    const theirs = (reads ?? []) as readonly StatementRead<unknown>[];
    return this.inTurn(user_id, async () => {
      const own = this.admissionOpening(user_id);
      const { value, closed } = await this.transactions.runBatched(
        [...own, ...theirs.map((r) => r.statement)],
        async (m, opened) => {
          const state = this.admissionOpened(opened);
          const target = theirs.map((r, i) => r.read(opened[own.length + i])) as unknown as R;
          const held = await this.admissionFrom(m, user_id, input, state);
          const storing = await store(m, target);
          // What stores the target, then the reservation, are written with the commit.
          const row = this.reservationRow(user_id, { ...input, reference: storing.reference }, held);
          return {
            value: { storing, held },
            closing: [...storing.statements, this.rows.reservationStatement(row)],
          };
        },
      );
      const { storing, held } = value;
      const reservation_id = toReservationId(closed[storing.statements.length]);
      return {
        reservation: { reservation_id, user_id, ...held },
        stored: storing.stored(closed.slice(0, storing.statements.length)),
      };
    });
  }

  /**
   * One user's reservations queue here first, so a burst of requests waits in memory, not holding a database
   * connection each while it waits for the user's row lock.
   */
  private inTurn<T>(user_id: number, work: () => Promise<T>): Promise<T> {
    const previous = this.reserving.get(user_id) ?? Promise.resolve();
    const turn = previous.then(work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.reserving.set(user_id, settled);
    void settled.then(() => {
      if (this.reserving.get(user_id) === settled) this.reserving.delete(user_id);
    });
    return turn;
  }

  private async reserveNow(
    user_id: number,
    input: ReserveInput,
    manager?: EntityManager,
  ): Promise<Reservation> {
    const reserveIn = async (m: EntityManager, state: AdmissionState) =>
      this.insertReservation(m, user_id, input, await this.admissionFrom(m, user_id, input, state));
    if (!manager) {
      const { value } = await this.transactions.runBatched(
        this.admissionOpening(user_id),
        async (m, opened) => ({ value: await reserveIn(m, this.admissionOpened(opened)) }),
      );
      return value;
    }
    await this.lockUser(manager, user_id);
    return reserveIn(manager, await this.rows.admissionState(manager, user_id));
  }

  /**
   * What a transaction that admits a generation opens with, in the round trip that starts it: the user's lock,
   * then the running reservations and the lots read under it.
   */
  private admissionOpening(user_id: number): TransactionStatement[] {
    return [this.userLocks.lockStatement(user_id), this.rows.admissionStatement(user_id)];
  }

  /** What the admission opening read: 404 when the user does not exist, else the admission state. */
  private admissionOpened(opened: unknown[][]): AdmissionState {
    this.lockedBy(opened[0]);
    return toAdmissionState(opened[1]);
  }

  /** The lock statement read no row: the user does not exist. */
  private lockedBy(lockRows: unknown[]): void {
    if (!lockRows.length) throw notFound('User', 'user_not_found');
  }

  /**
   * Under the user's lock (held until the transaction ends), from what was read under it: 429 at the
   * concurrency cap, 412 without words, else how many words the reservation may hold.
   */
  private async admissionFrom(
    m: EntityManager,
    user_id: number,
    input: ReserveInput,
    { held, lots }: AdmissionState,
  ): Promise<{ words: number; limited: boolean }> {
    if (input.maxConcurrent !== null && held.running >= input.maxConcurrent)
      throw new DomainError(
        429,
        'too_many_generations',
        `You already have ${held.running} answers being generated. Wait for one to finish, then try again.`,
      );
    if (input.staff) return { words: input.words, limited: false };
    const balance = await this.balanceOf(m, user_id, lots, { unlimitedSuffices: true });
    if (balance.unlimited) return { words: input.words, limited: false };
    const available = balance.words - Number(held.words);
    if (available <= 0 && balance.words > 0)
      // The words exist but running answers hold them: a wait, not a missing subscription.
      throw new DomainError(
        429,
        'too_many_generations',
        'Your words are reserved by the answers being generated. Wait for one to finish, then try again.',
      );
    if (available <= 0) throw preconditionFailed(NO_ACCESS_MESSAGE, 'no_access');
    return { words: Math.min(input.words, available), limited: true };
  }

  private async insertReservation(
    m: EntityManager,
    user_id: number,
    input: ReserveInput,
    { words, limited }: { words: number; limited: boolean },
  ): Promise<Reservation> {
    const row = this.reservationRow(user_id, input, { words, limited });
    const reservation_id = await this.rows.insertReservation(m, row);
    return { reservation_id, user_id, words, limited };
  }

  /** The reservation's row: an unlimited one holds no words of the balance. */
  private reservationRow(
    user_id: number,
    input: ReserveInput,
    { words, limited }: { words: number; limited: boolean },
  ): NewReservation {
    return {
      user_id,
      words: limited ? words : 0,
      reference: input.reference ?? null,
      ttlMs: input.ttlMs,
      countsTowardUserCap: input.maxConcurrent !== null,
    };
  }

  /**
   * Ends the user's grants of `source` named `reference` (or `reference:…`, e.g. a subscription's periods) at `at`
   * (default: now), under the user's lock: their unspent words are gone from then, as when a grant expires (a
   * revoke or a refund). Grants already ending sooner keep their end. Returns how many grants it ended.
   */
  async endGrants(
    user_id: number,
    source: string,
    reference: string,
    manager?: EntityManager,
    at: Date | null = null,
  ): Promise<number> {
    return this.inTransaction(manager, async (m) => {
      await this.lockUser(m, user_id);
      return this.rows.endGrants(m, user_id, source, reference, at);
    });
  }

  /** Keeps running reservations alive for another `ttlMs` (their generations are still streaming). */
  async renewReservations(ids: number[], ttlMs: number): Promise<void> {
    if (!ids.length) return;
    await this.rows.renewReservations(ids, ttlMs);
  }

  /**
   * What a transaction that settles `reservation` opens with (UnitOfWork.runBatched), in the round trip that
   * starts it: the user's lock, then what charging reads (deleting the reservation).
   */
  settleOpening(reservation: Reservation, input: DebitInput): TransactionStatement[] {
    return [
      this.userLocks.lockStatement(reservation.user_id),
      this.rows.chargeStatement(
        reservation.user_id,
        { source: input.source, reference: input.reference ?? null },
        reservation.reservation_id,
      ),
    ];
  }

  /**
   * Ends a reservation in a transaction opened with `settleOpening` (`opened`: what it read): charges `words`
   * (at most what a limited reservation holds) and frees the rest; the charge's entry is returned as the
   * statement to close the transaction with (recorded with the commit). 0 words releases it without a charge.
   */
  async settleOpened(
    reservation: Reservation,
    words: number,
    input: DebitInput,
    m: EntityManager,
    opened: unknown[][],
  ): Promise<{ result: DebitResult; closing: TransactionStatement[] }> {
    const charge = settledWords(reservation, words);
    this.lockedBy(opened[0]);
    const { result, entry } = await this.chargeFrom(
      m,
      reservation.user_id,
      charge,
      input,
      toChargeState(opened[1]),
    );
    return { result, closing: entry ? [this.rows.appendStatement(entry)] : [] };
  }

  /** Names a reservation after what it pays for (e.g. `message:12`), so it can be released by that name. */
  async labelReservation(
    reservation: Reservation,
    reference: string,
    manager?: EntityManager,
  ): Promise<void> {
    await this.rows.labelReservation(reservation.reservation_id, reference, manager);
  }

  /** Frees the reservations of generations that ended elsewhere (e.g. a crashed instance's, once swept). */
  async releaseByReference(references: string[]): Promise<void> {
    if (!references.length) return;
    await this.rows.deleteReservationsByReference(references);
  }

  /** Frees a reservation without charging (the generation failed or was cancelled). */
  async release(reservation: Reservation): Promise<void> {
    await this.rows.deleteReservation(reservation.reservation_id);
  }

  /** Deletes reservations that lapsed (their instance stopped); they already hold nothing. */
  async purgeLapsedReservations(): Promise<void> {
    await this.rows.purgeLapsedReservations();
  }

  async balance(user_id: number, manager?: EntityManager): Promise<Balance> {
    return this.computeBalance(manager, user_id);
  }

  /** The balance as the API shows it. */
  async view(user_id: number): Promise<BalanceView> {
    const balance = await this.balance(user_id);
    return { ...balance, display_balance: displayBalance(balance), has_access: hasWordAccess(balance) };
  }

  async hasAccess(user_id: number): Promise<boolean> {
    return hasWordAccess(await this.balance(user_id));
  }

  /** Words debited per user in [from, to), optionally only those spent in one organization. Absent = 0. */
  async usage(
    user_ids: number[],
    range: { from: Date; to: Date; organization_id?: number | null },
  ): Promise<Map<number, number>> {
    if (!user_ids.length) return new Map();
    const rows = await this.rows.usage(user_ids, range);
    return new Map(rows.map((r) => [r.user_id, Number(r.words)]));
  }

  /** Words generated by everyone in [from, to) (the back office's dashboard). */
  generated(range: { from: Date; to: Date }): Promise<number> {
    return this.rows.debitedTotal(range);
  }

  /** The user's own entries, newest first. */
  async ledger(
    user_id: number,
    query: { page?: number; limit?: number },
  ): Promise<{ entries: LedgerEntryView[]; total: number; page: number; limit: number }> {
    const { page, limit, skip } = toPage(query, LEDGER_PAGE_SIZE);
    const { rows, total } = await this.rows.page(user_id, { page, limit, skip });
    return { entries: rows.map(toEntryView), total, page, limit };
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Reads the lots (grants, positive adjustments) one by one, but the consumptions only as sums between
   * consecutive lot creations and expiries: inside such an interval the usable lots do not change, so one sum
   * consumes exactly as the single debits would. The cost then grows with the number of grants, not of debits.
   * Times travel as epoch microseconds so that PostgreSQL's precision is kept.
   */
  private async computeBalance(m: EntityManager | undefined, user_id: number): Promise<Balance> {
    return this.balanceOf(m, user_id, await this.rows.lots(m, user_id));
  }

  /** The balance from the user's lots (read by the caller) and, unless an unlimited lot suffices, the sums. */
  private async balanceOf(
    m: EntityManager | undefined,
    user_id: number,
    lots: LotRow[],
    options: { unlimitedSuffices?: boolean } = {},
  ): Promise<Balance> {
    if (!lots.length) return { words: 0, unlimited: false };
    // Charging and reserving only ask "unlimited?" first: a usable unlimited lot answers it without reading the
    // consumptions (words is then not computed: 0).
    if (options.unlimitedSuffices && lots.some((l) => l.unlimited && usableAt(l, Number(l.now))))
      return { words: 0, unlimited: true };
    const bounds = [
      ...new Set(lots.flatMap((l) => (l.expires_at === null ? [l.at] : [l.at, l.expires_at])).map(Number)),
    ].sort((a, b) => a - b);
    // Bucket i (1-based) holds consumptions in [bounds[i-1], bounds[i]); bucket 0 precedes every lot.
    const buckets = await this.rows.consumptionBuckets(m, user_id, bounds);
    return replayBalance(
      lots.map((l) => ({
        at: Number(l.at),
        words: Number(l.words),
        unlimited: l.unlimited,
        expires_at: l.expires_at === null ? null : Number(l.expires_at),
      })),
      buckets.filter((b) => b.bucket > 0).map((b) => ({ at: bounds[b.bucket - 1], words: Number(b.words) })),
      Number(lots[0].now),
    );
  }

  private async lockUser(m: EntityManager, user_id: number): Promise<void> {
    if (!(await this.userLocks.lockForUpdate(user_id, m))) throw notFound('User', 'user_not_found');
  }

  private async findByReference(
    m: EntityManager,
    kind: 'grant' | 'debit',
    source: string,
    reference: string | null | undefined,
  ): Promise<WordLedgerEntry | null> {
    if (reference === undefined || reference === null) return null;
    return this.rows.findByReference(m, kind, source, reference);
  }

  /**
   * Runs in the caller's transaction (a manager passed in is one) or in a new one: a lock taken outside a
   * transaction would not hold.
   */
  private inTransaction<T>(
    manager: EntityManager | undefined,
    work: (m: EntityManager) => Promise<T>,
  ): Promise<T> {
    return manager ? work(manager) : this.transactions.run(work);
  }
}

/** A lot is usable at `now` when it was created by then and has not expired (as replayBalance decides). */
function usableAt(lot: { at: string | number; expires_at: string | number | null }, now: number): boolean {
  const at = Number(lot.at);
  const expires = lot.expires_at === null ? null : Number(lot.expires_at);
  return at <= now && (expires === null || (expires > at && expires > now));
}

/** What settling charges: at most what a limited reservation holds. */
function settledWords(reservation: Reservation, words: number): number {
  const charge = reservation.limited ? Math.min(words, reservation.words) : words;
  if (!Number.isInteger(charge) || charge < 0 || charge > MAX_WORDS)
    throw badInput(`words must be a whole number from 0 to ${MAX_WORDS}.`, 'invalid_words');
  return charge;
}

function isWordCount(words: number): boolean {
  return Number.isInteger(words) && words >= 1 && words <= MAX_WORDS;
}

function referenceTaken() {
  return conflict('This reference is already used by another account.', 'reference_taken');
}

function toEntryView(row: WordLedgerEntry): LedgerEntryView {
  return {
    entry_id: Number(row.entry_id),
    kind: row.kind,
    words: Number(row.words),
    unlimited: row.unlimited,
    source: row.source,
    reference: row.reference,
    organization_id: row.organization_id,
    expires_at: row.expires_at,
    createdAt: row.createdAt,
  };
}
