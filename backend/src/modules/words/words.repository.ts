import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { prepared } from '../../database/prepared-statements';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import type { TransactionStatement } from '../../database/unit-of-work';
import { WordLedgerEntry } from './word-ledger-entry.entity';
import { WordReservation } from './word-reservation.entity';

export type NewLedgerEntry = Pick<WordLedgerEntry, 'user_id' | 'kind' | 'words' | 'source'> &
  Partial<
    Pick<
      WordLedgerEntry,
      'unlimited' | 'reference' | 'expires_at' | 'note' | 'created_by' | 'organization_id'
    >
  >;

/** A lot as the balance replay reads it: times as epoch microseconds (strings, bigint). */
export interface LotRow {
  words: string;
  unlimited: boolean;
  at: string;
  expires_at: string | null;
  now: string;
}

function micros(column: string): string {
  return `(extract(epoch FROM ${column}) * 1000000)::bigint`;
}

/** A user's lots ($1: the user), with the database's clock as `now`. */
const LOTS_SQL = `SELECT words, unlimited, ${micros('"createdAt"')} AS at, ${micros('expires_at')} AS expires_at,
                         ${micros('clock_timestamp()')} AS now
                    FROM word_ledger WHERE user_id = $1 AND (words > 0 OR unlimited)`;

/** What admitting a generation reads under the user's lock ($1: the user). */
const ADMISSION_SQL = prepared(`SELECT h.running, h.words AS held_words, l.*
         FROM (SELECT count(*) FILTER (WHERE counts_toward_user_cap)::int AS running,
                      COALESCE(sum(words), 0)::bigint AS words
                 FROM word_reservations WHERE user_id = $1 AND expires_at > now()) h
         LEFT JOIN LATERAL (${LOTS_SQL}) l ON true`);

export interface AdmissionState {
  held: { running: number; words: number };
  lots: LotRow[];
}

/** The rows of the admission statement as the running reservations and the lots. */
export function toAdmissionState(rows: unknown[]): AdmissionState {
  const read = rows as (LotRow & { running: number; held_words: string })[];
  return {
    held: { running: read[0].running, words: Number(read[0].held_words) },
    lots: read.filter((r) => r.at !== null).map(toLot),
  };
}

/**
 * What charging reads under the user's lock ($1 the user, $2 the source, $3 the reference, $4 the reservation
 * to delete): the debit already recorded under the reference (a replay) and the lots.
 */
const CHARGE_SQL = prepared(`WITH released AS (DELETE FROM word_reservations WHERE reservation_id = $4)
       SELECT e.user_id AS existing_user_id, e.words AS existing_words, l.*
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (SELECT user_id, words FROM word_ledger
                             WHERE kind = 'debit' AND source = $2 AND reference = $3 LIMIT 1) e ON true
         LEFT JOIN LATERAL (${LOTS_SQL}) l ON true`);

export interface ChargeState {
  existing: { user_id: number; words: number } | null;
  lots: LotRow[];
}

/** The rows of the charge statement as the earlier debit under the reference (if any) and the lots. */
export function toChargeState(rows: unknown[]): ChargeState {
  const read = rows as (LotRow & { existing_user_id: number | null; existing_words: string | null })[];
  const first = read[0];
  return {
    existing:
      first.existing_user_id === null
        ? null
        : { user_id: first.existing_user_id, words: Number(first.existing_words) },
    lots: read.filter((r) => r.at !== null).map(toLot),
  };
}

/** Records a ledger entry; createdAt keeps the table's default (clock_timestamp()). */
const APPEND_SQL = prepared(`INSERT INTO word_ledger
         (user_id, organization_id, kind, words, unlimited, source, reference, expires_at, note, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`);

function appendValues(entry: NewLedgerEntry): unknown[] {
  return [
    entry.user_id,
    entry.organization_id ?? null,
    entry.kind,
    entry.words,
    entry.unlimited ?? false,
    entry.source,
    entry.reference ?? null,
    entry.expires_at ?? null,
    entry.note ?? null,
    entry.created_by ?? null,
  ];
}

export interface NewReservation {
  user_id: number;
  words: number;
  reference: string | null;
  ttlMs: number;
  countsTowardUserCap: boolean;
}

/** Records a reservation that holds until now + $5 milliseconds. */
const RESERVE_SQL =
  prepared(`INSERT INTO word_reservations (user_id, words, reference, counts_toward_user_cap, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5 / 1000.0))
       RETURNING reservation_id`);

function reserveValues(input: NewReservation): unknown[] {
  return [input.user_id, input.words, input.reference, input.countsTowardUserCap, Math.round(input.ttlMs)];
}

/** The id of the reservation the reservation statement recorded. */
export function toReservationId(rows: unknown[]): number {
  return Number((rows as { reservation_id: string }[])[0].reservation_id);
}

function toLot(row: LotRow): LotRow {
  return { words: row.words, unlimited: row.unlimited, at: row.at, expires_at: row.expires_at, now: row.now };
}

/** The word_ledger and word_reservations tables. */
@Injectable()
export class WordsRepository {
  constructor(
    @InjectRepository(WordLedgerEntry) private readonly ledger: Repository<WordLedgerEntry>,
    @InjectRepository(WordReservation) private readonly reservations: Repository<WordReservation>,
  ) {}

  private ledgerRepo(m?: EntityManager): Repository<WordLedgerEntry> {
    return m ? m.getRepository(WordLedgerEntry) : this.ledger;
  }

  private reservationRepo(m?: EntityManager): Repository<WordReservation> {
    return m ? m.getRepository(WordReservation) : this.reservations;
  }

  findByReference(
    m: EntityManager,
    kind: 'grant' | 'debit',
    source: string,
    reference: string,
  ): Promise<WordLedgerEntry | null> {
    return this.ledgerRepo(m).findOneBy({ kind, source, reference });
  }

  /** Records an entry whose row the caller does not need back (a debit): one statement, no read after it. */
  async appendEntry(m: EntityManager, entry: NewLedgerEntry): Promise<void> {
    // Hand-written: every answer's charge goes here, where the repository's insert cost more CPU than the
    // statement; createdAt keeps the table's default (clock_timestamp()).
    await this.ledgerRepo(m).query(APPEND_SQL, appendValues(entry));
  }

  /** `appendEntry` as a statement a transaction closes with (UnitOfWork.runBatched). */
  appendStatement(entry: NewLedgerEntry): TransactionStatement {
    return { sql: APPEND_SQL, values: appendValues(entry) };
  }

  async insertEntry(m: EntityManager, entry: NewLedgerEntry): Promise<WordLedgerEntry> {
    const repo = this.ledgerRepo(m);
    const result = await repo.insert(repo.create(entry));
    const entry_id = (result.identifiers[0] as { entry_id: string }).entry_id;
    return (await repo.findOneBy({ entry_id }))!;
  }

  /**
   * Ends the user's grants of `source` whose reference is `reference` or starts with `reference:` at `at` (those
   * ending later or never): from then on their unspent words are gone, as when a grant expires. `at` null: the
   * database's clock now (the clock the balance is read with).
   */
  async endGrants(
    m: EntityManager,
    user_id: number,
    source: string,
    reference: string,
    at: Date | null,
  ): Promise<number> {
    const result = await this.ledgerRepo(m)
      .createQueryBuilder()
      .update()
      .set({ expires_at: () => 'COALESCE(:at, clock_timestamp())' })
      .setParameter('at', at)
      .where('user_id = :user_id AND kind = :kind AND source = :source', { user_id, kind: 'grant', source })
      .andWhere(
        new Brackets((w) =>
          w
            .where('reference = :reference', { reference })
            .orWhere('starts_with(reference, :prefix)', { prefix: `${reference}:` }),
        ),
      )
      .andWhere('(expires_at IS NULL OR expires_at > COALESCE(:at, clock_timestamp()))', { at })
      .execute();
    return result.affected ?? 0;
  }

  /**
   * What admitting a generation reads under the user's lock, in one round trip (it is on the way to every
   * answer's first token): the running reservations (how many, the words they hold) and the lots.
   */
  async admissionState(m: EntityManager, user_id: number): Promise<AdmissionState> {
    return toAdmissionState(await this.reservationRepo(m).query(ADMISSION_SQL, [user_id]));
  }

  /**
   * `admissionState` as a statement a transaction opens with (UnitOfWork.runBatched), after the user's lock;
   * read its rows with `toAdmissionState`.
   */
  admissionStatement(user_id: number): TransactionStatement {
    return { sql: ADMISSION_SQL, values: [user_id] };
  }

  /**
   * What charging reads under the user's lock, in one round trip: the debit already recorded under the
   * reference (a replay), the lots; and it deletes the reservation being settled, when there is one.
   */
  async chargeState(
    m: EntityManager,
    user_id: number,
    debit: { source: string; reference: string | null },
    releaseReservationId: number | null,
  ): Promise<ChargeState> {
    return toChargeState(
      await this.ledgerRepo(m).query(CHARGE_SQL, [
        user_id,
        debit.source,
        debit.reference,
        releaseReservationId === null ? null : String(releaseReservationId),
      ]),
    );
  }

  /**
   * `chargeState` as a statement a transaction opens with (UnitOfWork.runBatched), after the user's lock. Read
   * its rows with `toChargeState`.
   */
  chargeStatement(
    user_id: number,
    debit: { source: string; reference: string | null },
    releaseReservationId: number,
  ): TransactionStatement {
    return { sql: CHARGE_SQL, values: [user_id, debit.source, debit.reference, releaseReservationId] };
  }

  async insertReservation(m: EntityManager, input: NewReservation): Promise<number> {
    // Hand-written: on every answer's path to its first token, where the query builder cost more CPU than the
    // statement.
    return toReservationId(await this.reservationRepo(m).query(RESERVE_SQL, reserveValues(input)));
  }

  /**
   * `insertReservation` as a statement a transaction closes with (UnitOfWork.runBatched). Read the id from its
   * rows with `toReservationId`.
   */
  reservationStatement(input: NewReservation): TransactionStatement {
    return { sql: RESERVE_SQL, values: reserveValues(input) };
  }

  async renewReservations(ids: number[], ttlMs: number): Promise<void> {
    await this.reservations
      .createQueryBuilder()
      .update()
      .set({ expires_at: () => 'now() + make_interval(secs => :secs)' })
      .where('reservation_id IN (:...ids)', { ids: ids.map(String) })
      .setParameter('secs', ttlMs / 1000)
      .execute();
  }

  async deleteReservation(reservation_id: number, m?: EntityManager): Promise<void> {
    await this.reservationRepo(m).delete({ reservation_id: String(reservation_id) });
  }

  async labelReservation(reservation_id: number, reference: string, m?: EntityManager): Promise<void> {
    await this.reservationRepo(m).update({ reservation_id: String(reservation_id) }, { reference });
  }

  async deleteReservationsByReference(references: string[]): Promise<void> {
    await this.reservations.delete({ reference: In(references) });
  }

  async purgeLapsedReservations(): Promise<void> {
    await this.reservations
      .createQueryBuilder()
      .delete()
      .where(`expires_at < now() - interval '1 hour'`)
      .execute();
  }

  /**
   * The user's lots (grants, positive adjustments) with epoch-microsecond times and the database's clock. Raw SQL
   * because the times must keep PostgreSQL's microseconds, which a JavaScript Date would cut to milliseconds.
   */
  lots(m: EntityManager | undefined, user_id: number): Promise<LotRow[]> {
    return this.ledgerRepo(m).query(prepared(LOTS_SQL), [user_id]) as Promise<LotRow[]>;
  }

  /**
   * Consumptions summed per interval between consecutive `bounds` (epoch microseconds); bucket 0 precedes them.
   * Raw SQL: width_bucket over an array sums thousands of debits in the database instead of reading each one.
   */
  consumptionBuckets(
    m: EntityManager | undefined,
    user_id: number,
    bounds: number[],
  ): Promise<{ bucket: number; words: string }[]> {
    return this.ledgerRepo(m).query(
      `SELECT width_bucket(${micros('"createdAt"')}, $2::bigint[]) AS bucket, -sum(words)::bigint AS words
         FROM word_ledger WHERE user_id = $1 AND words < 0 GROUP BY 1`,
      [user_id, bounds.map(String)],
    ) as Promise<{ bucket: number; words: string }[]>;
  }

  async usage(
    user_ids: number[],
    range: { from: Date; to: Date; organization_id?: number | null },
  ): Promise<{ user_id: number; words: string }[]> {
    const qb = this.ledger
      .createQueryBuilder('l')
      .select('l.user_id', 'user_id')
      .addSelect('-sum(l.words)::bigint', 'words')
      .where(`l.kind = 'debit' AND l.user_id IN (:...user_ids)`, { user_ids })
      .andWhere('l."createdAt" >= :from AND l."createdAt" < :to', { from: range.from, to: range.to });
    if (range.organization_id !== undefined && range.organization_id !== null)
      qb.andWhere('l.organization_id = :org', { org: range.organization_id });
    return qb.groupBy('l.user_id').getRawMany();
  }

  /** Words debited (generated) by everyone in [from, to), over the partial index of debits by time. */
  async debitedTotal(range: { from: Date; to: Date }): Promise<number> {
    const row = await this.ledger
      .createQueryBuilder('l')
      .select('COALESCE(-sum(l.words), 0)::bigint', 'words')
      .where(`l.kind = 'debit'`)
      .andWhere('l."createdAt" >= :from AND l."createdAt" < :to', range)
      .getRawOne<{ words: string }>();
    return Number(row?.words ?? 0);
  }

  async page(user_id: number, page: Page): Promise<{ rows: WordLedgerEntry[]; total: number }> {
    const [rows, total] = await this.ledger.findAndCount({
      where: { user_id },
      order: { createdAt: 'DESC', entry_id: 'DESC' },
      skip: page.skip,
      take: page.limit,
    });
    return { rows, total };
  }
}
