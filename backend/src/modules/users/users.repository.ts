import { Injectable } from '@nestjs/common';
import { prepared } from '../../database/prepared-statements';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { selectColumns } from '../../common/database/select-columns';
import { builtRead, type StatementRead, type TransactionStatement } from '../../database/unit-of-work';
import type { Page } from '../../common/http/pagination';
import { likePattern } from '../../common/http/pagination';
import type { CustomerSearchField, CustomerSort } from '@avatar-studio/contracts';
import { lifetimeValue, User } from './user.entity';

/** Wrong passwords in a row (typed at sign-in or re-entered) before the account locks; then each doubles the lock. */
export const FAILURES_BEFORE_LOCK = 5;
/** The longest lock: 15 minutes. */
export const LOCK_MAX_SECONDS = 15 * 60;

/** Bookkeeping updates (last use, failed sign-ins) leave "updatedAt", which dates profile changes, as it is. */
const KEEP_UPDATED_AT = { updatedAt: () => '"updatedAt"' };

/** What sign-in needs to know of an account. */
export interface SignInState {
  user_id: number;
  email: string;
  password_hash: string;
  login_locked_until: Date | null;
  totp_enabled: boolean;
}

/** Who a user is, for the principal of a request. */
export interface UserIdentity {
  user_id: number;
  email: string;
  totp_enabled: boolean;
}

export interface ApiKeyOwner extends UserIdentity {
  api_key_expires_at: Date | null;
  api_key_staff: boolean;
}

export interface TwoFactorState {
  email: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled_at: Date | null;
}

export type UserName = Pick<User, 'user_id' | 'name' | 'last_name' | 'email'>;

/** Each sortable column as an expression of the same order that no index serves (see searchedPage). */
const UNINDEXED_SORT: Record<CustomerSort, string> = {
  user_id: 'u.user_id + 0',
  name: "u.name || ''",
  last_name: "u.last_name || ''",
  email: "u.email || ''",
  phone: "u.phone || ''",
  value: 'u.value + 0',
  createdAt: `u."createdAt" + interval '0 seconds'`,
};

/** Text written like a phone number: digits with spaces, dots, dashes, brackets or a leading plus. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/** The columns of the back-office customer list. */
const CUSTOMER_LIST_COLUMNS = [
  'user_id',
  'name',
  'last_name',
  'email',
  'phone',
  'value',
  'createdAt',
] as const;
export type CustomerListRow = Pick<User, (typeof CUSTOMER_LIST_COLUMNS)[number]>;
/** Which page of the customer list, in which order. */
export interface CustomerListPage {
  sort: CustomerSort;
  direction: 'asc' | 'desc';
  skip: number;
  limit: number;
}

/** The columns of a sign-ups list. */
const SIGN_UP_COLUMNS = ['user_id', 'name', 'last_name', 'email', 'createdAt'] as const;
export type SignUpRow = Pick<User, (typeof SIGN_UP_COLUMNS)[number]>;

/** Locks a user's row until the transaction ends ($1: the user); a row when the user exists. */
const LOCK_SQL = prepared('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE');

/** The users table: the only code that reads or writes it. */

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  private repo(tx?: EntityManager): Repository<User> {
    return tx ? tx.getRepository(User) : this.users;
  }

  /** Inserts and answers the new id; a duplicate email fails on the unique index (the caller maps it). */
  async insert(values: Partial<User>, tx?: EntityManager): Promise<number> {
    const result = await this.repo(tx).insert(values as Parameters<Repository<User>['insert']>[0]);
    return (result.identifiers[0] as { user_id: number }).user_id;
  }

  /** `lockForUpdate` as a statement a transaction opens with (UnitOfWork.runBatched): a row when the user exists. */
  lockStatement(user_id: number): TransactionStatement {
    return { sql: LOCK_SQL, values: [user_id] };
  }

  /** Locks the user's row (FOR UPDATE) until the transaction `tx` ends; false: no such user. */
  async lockForUpdate(user_id: number, tx: EntityManager): Promise<boolean> {
    // Hand-written: taken twice on every answer's path (reserving and charging its words), where building the
    // statement with the query builder cost more CPU than running it.
    const rows = (await tx.query(LOCK_SQL, [user_id])) as unknown[];
    return rows.length > 0;
  }

  findById(user_id: number, tx?: EntityManager): Promise<User | null> {
    return this.repo(tx).findOneBy({ user_id });
  }

  findByEmail(email: string, tx?: EntityManager): Promise<User | null> {
    return this.repo(tx).findOneBy({ email });
  }

  findByPhone(phone: string): Promise<User | null> {
    return this.users.findOne({ where: { phone }, order: { user_id: 'ASC' } });
  }

  async namesByIds(ids: number[]): Promise<UserName[]> {
    if (ids.length === 0) return [];
    return this.namesByIdsQuery(ids).getRawMany<UserName>();
  }

  /** namesByIds as a read to send with others. */
  namesByIdsRead(ids: number[]): StatementRead<UserName[]> {
    return builtRead(this.namesByIdsQuery(ids), (rows: UserName[]) => rows);
  }

  private namesByIdsQuery(ids: number[]) {
    return selectColumns(this.users.createQueryBuilder('u'), ['user_id', 'name', 'last_name', 'email']).where(
      'u.user_id = ANY(:ids)',
      { ids },
    );
  }

  /**
   * One page of the users among `ids` (an organization's members), by user_id, whose name, last name, full name
   * or email contains `search`.
   */
  async pageAmong(
    ids: number[],
    search: string | undefined,
    page: Page,
  ): Promise<{ rows: (UserName & { value: number })[]; total: number }> {
    if (ids.length === 0) return { rows: [], total: 0 };
    const qb = this.users
      .createQueryBuilder('u')
      .select(['u.user_id', 'u.name', 'u.last_name', 'u.email', 'u.value'])
      .where('u.user_id = ANY(:ids)', { ids });
    const text = search?.trim();
    if (text) {
      qb.andWhere(
        `(u.name ILIKE :q OR u.last_name ILIKE :q OR u.email ILIKE :q OR (u.name || ' ' || u.last_name) ILIKE :q)`,
        { q: likePattern(text) },
      );
    }
    const [rows, total] = await qb.orderBy('u.user_id').skip(page.skip).take(page.limit).getManyAndCount();
    return { rows, total };
  }

  /**
   * Adds a payment to the user's lifetime value (negative for a refund), in the caller's transaction so the value
   * moves exactly when the payment commits. `cents` are whole cents; `value` is stored in USD.
   */
  async addLifetimeValue(user_id: number, cents: number, tx: EntityManager): Promise<void> {
    await tx
      .getRepository(User)
      .createQueryBuilder()
      .update()
      .set({ value: () => 'GREATEST(value + :usd, 0)', ...KEEP_UPDATED_AT })
      .setParameter('usd', (cents / 100).toFixed(2))
      .where('user_id = :user_id', { user_id })
      .execute();
  }

  /** Ids of users whose name, last name, full name or email contains `text` (at most `limit`, newest first). */
  async searchIds(text: string, limit: number): Promise<number[]> {
    const rows = await this.users
      .createQueryBuilder('u')
      .select('u.user_id', 'user_id')
      .where(
        `(u.name ILIKE :q OR u.last_name ILIKE :q OR u.email ILIKE :q OR (u.name || ' ' || u.last_name) ILIKE :q)`,
        { q: likePattern(text.trim()) },
      )
      .orderBy('u.user_id', 'DESC')
      .limit(limit)
      .getRawMany<{ user_id: number }>();
    return rows.map((r) => r.user_id);
  }

  async signInState(where: { email: string } | { user_id: number }): Promise<SignInState | null> {
    const user = await this.users
      .createQueryBuilder('u')
      .select(['u.user_id', 'u.email', 'u.totp_enabled_at'])
      .addSelect(['u.password_hash', 'u.login_locked_until'])
      .where('email' in where ? 'u.email = :email' : 'u.user_id = :user_id', where)
      .getOne();
    if (!user) return null;
    return {
      user_id: user.user_id,
      email: user.email,
      password_hash: user.password_hash,
      login_locked_until: user.login_locked_until,
      totp_enabled: user.totp_enabled_at !== null,
    };
  }

  async identity(user_id: number): Promise<UserIdentity | null> {
    const user = await this.users.findOne({
      select: { user_id: true, email: true, totp_enabled_at: true },
      where: { user_id },
    });
    return user
      ? { user_id: user.user_id, email: user.email, totp_enabled: user.totp_enabled_at !== null }
      : null;
  }

  async byApiKeyHash(api_key_hash: string): Promise<ApiKeyOwner | null> {
    const user = await this.users.findOne({
      select: {
        user_id: true,
        email: true,
        totp_enabled_at: true,
        api_key_expires_at: true,
        api_key_staff: true,
      },
      where: { api_key_hash },
    });
    if (!user) return null;
    return {
      user_id: user.user_id,
      email: user.email,
      totp_enabled: user.totp_enabled_at !== null,
      api_key_expires_at: user.api_key_expires_at,
      api_key_staff: user.api_key_staff,
    };
  }

  async twoFactorState(user_id: number): Promise<TwoFactorState | null> {
    const user = await this.users
      .createQueryBuilder('u')
      .select(['u.email', 'u.totp_enabled_at'])
      .addSelect(['u.totp_secret', 'u.totp_pending_secret'])
      .where('u.user_id = :user_id', { user_id })
      .getOne();
    return user
      ? {
          email: user.email,
          totp_secret: user.totp_secret,
          totp_pending_secret: user.totp_pending_secret,
          totp_enabled_at: user.totp_enabled_at,
        }
      : null;
  }

  async update(user_id: number, changes: Partial<User>, tx?: EntityManager): Promise<void> {
    await this.repo(tx).update({ user_id }, changes as Parameters<Repository<User>['update']>[1]);
  }

  /** Confirms the pending TOTP secret: it becomes the active one, and the confirming code's step is spent. */
  async confirmPendingTotp(user_id: number, step: number): Promise<void> {
    await this.users
      .createQueryBuilder()
      .update(User)
      .set({
        totp_secret: () => 'totp_pending_secret',
        totp_pending_secret: null,
        totp_enabled_at: () => 'now()',
        totp_last_step: step,
      })
      .where('user_id = :user_id', { user_id })
      .execute();
  }

  /**
   * Spends a code's time step: false when it, or a later one, was used already. One conditional update, so two
   * requests with the same code cannot both pass, whichever instance they reach.
   */
  async spendTotpStep(user_id: number, step: number): Promise<boolean> {
    const result = await this.users
      .createQueryBuilder()
      .update(User)
      .set({ totp_last_step: step })
      .where('user_id = :user_id', { user_id })
      .andWhere('(totp_last_step IS NULL OR totp_last_step < :step)', { step })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Sets email_verified_at unless already set, and answers it. */
  async markEmailVerified(user_id: number, tx?: EntityManager): Promise<Date | null> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({ email_verified_at: () => 'COALESCE(email_verified_at, now())' })
      .where('user_id = :user_id', { user_id })
      .execute();
    const user = await this.repo(tx).findOne({
      select: { user_id: true, email_verified_at: true },
      where: { user_id },
    });
    return user?.email_verified_at ?? null;
  }

  async touchLastUsed(user_id: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({ last_used: () => 'now()', ...KEEP_UPDATED_AT })
      .where('user_id = :user_id', { user_id })
      .execute();
  }

  /** The API key stops working (no-op when there is none). */
  async clearApiKey(user_id: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({ api_key_hash: null, api_key_last4: null, api_key_expires_at: null, api_key_staff: false })
      .where('user_id = :user_id AND api_key_hash IS NOT NULL', { user_id })
      .execute();
  }

  /**
   * One more wrong password; from the FAILURES_BEFORE_LOCK-th in a row the account locks for 2^failures seconds,
   * LOCK_MAX_SECONDS at most. One statement, so concurrent failures all count.
   */
  async recordPasswordFailure(user_id: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({
        ...KEEP_UPDATED_AT,
        login_failures: () => 'login_failures + 1',
        login_locked_until: () =>
          `CASE WHEN login_failures + 1 >= :lockAfter
             THEN now() + make_interval(secs => LEAST(power(2, LEAST(login_failures + 1, 30)), :lockMax))
             ELSE login_locked_until END`,
      })
      .where('user_id = :user_id', { user_id })
      .setParameters({ lockAfter: FAILURES_BEFORE_LOCK, lockMax: LOCK_MAX_SECONDS })
      .execute();
  }

  async resetPasswordFailures(user_id: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({ login_failures: 0, login_locked_until: null, ...KEEP_UPDATED_AT })
      .where('user_id = :user_id AND (login_failures <> 0 OR login_locked_until IS NOT NULL)', { user_id })
      .execute();
  }

  /** Points the user at the organization when they have none chosen. */
  async setDefaultOrganizationIfNone(
    user_id: number,
    organization_id: number,
    tx?: EntityManager,
  ): Promise<void> {
    await this.repo(tx)
      .createQueryBuilder()
      .update(User)
      .set({ default_organization: organization_id })
      .where('user_id = :user_id AND default_organization IS NULL', { user_id })
      .execute();
  }

  /** Clears the default organization when it is this one. */
  async clearDefaultOrganization(
    user_id: number,
    organization_id: number,
    tx?: EntityManager,
  ): Promise<void> {
    await this.repo(tx).update(
      { user_id, default_organization: organization_id },
      { default_organization: null },
    );
  }

  async delete(user_id: number, tx?: EntityManager): Promise<void> {
    await this.repo(tx).delete({ user_id });
  }

  /**
   * The unsearched customer list's page as a read to send with others (UnitOfWork.readTogether): sorted by one
   * column over its index, ties by id in the same direction. Its text carries no value from the request (the
   * column and direction are names the product chose from a fixed list; the offset and limit whole numbers).
   */
  unsearchedPageRead(filter: CustomerListPage): StatementRead<CustomerListRow[]> {
    const direction = filter.direction === 'desc' ? 'DESC' : 'ASC';
    const query = selectColumns(this.users.createQueryBuilder('u'), CUSTOMER_LIST_COLUMNS)
      .orderBy(`u.${filter.sort}`, direction)
      .addOrderBy('u.user_id', direction)
      .offset(filter.skip)
      .limit(filter.limit);
    return builtRead(query, (rows: (Omit<CustomerListRow, 'value'> & { value: string | null })[]) =>
      rows.map((r) => ({ ...r, value: lifetimeValue(r.value) })),
    );
  }

  /**
   * The back-office customer list searched: `text` in one field or in all of them (case-insensitive), sorted by a
   * listed column (then by id, so pages never overlap), one page, and how many accounts match. The sort is by an
   * expression no index serves, so the matching accounts are found through the trigram indexes and then sorted;
   * otherwise the planner may walk the sort column's index over every account to find a page of rare matches.
   * The page and the number of matches come from one scan (a window count); a page past the last match has no
   * row to carry it, so only then are the matches counted on their own. Only the listed columns are read. The
   * list without a search is unsearchedPageRead.
   */
  async searchedPage(
    filter: CustomerListPage & { text: string; field: CustomerSearchField },
  ): Promise<{ rows: CustomerListRow[]; total: number }> {
    const qb = this.users.createQueryBuilder('u').select(CUSTOMER_LIST_COLUMNS.map((c) => `u.${c}`));
    const text = filter.text.trim();
    const direction = filter.direction === 'desc' ? 'DESC' : 'ASC';
    const pattern = likePattern(text.toLowerCase());
    const digits = text.replace(/\D/g, '');
    const clauses: Record<Exclude<CustomerSearchField, 'all'>, string> = {
      name: 'lower(u.name) LIKE :pattern',
      last_name: 'lower(u.last_name) LIKE :pattern',
      email: 'lower(u.email) LIKE :pattern',
      phone: digits ? 'u.phone LIKE :phone' : 'false',
    };
    // All fields: one condition on the name, the last name and the email together (none is null; the line break
    // keeps a pattern from running from the last name into the email) stands for four, over one trigram index
    // (migration CustomerSearchOneIndex). Phones are searched only for text written like a phone number: 'ann2'
    // is not a search for every phone with a 2 in it.
    const where =
      filter.field === 'all'
        ? `(lower(u.name || ' ' || u.last_name || E'\\n' || u.email) LIKE :pattern${
            digits && PHONE_LIKE.test(text) ? ` OR ${clauses.phone}` : ''
          })`
        : clauses[filter.field];
    const params = { pattern, phone: likePattern(digits) };
    const { entities, raw } = await qb
      .addSelect('count(*) OVER ()', 'matches')
      .where(where, params)
      .orderBy(UNINDEXED_SORT[filter.sort], direction)
      .addOrderBy('u.user_id + 0', direction)
      .offset(filter.skip)
      .limit(filter.limit)
      .getRawAndEntities<{ matches: string }>();
    const total = raw.length
      ? Number(raw[0].matches)
      : await this.users.createQueryBuilder('u').where(where, params).getCount();
    return { rows: entities, total };
  }

  /** Accounts created in [from, to): how many, and the newest `limit` of them (over the index on createdAt). */
  async signUps(
    range: { from: Date; to: Date },
    limit: number,
  ): Promise<{ count: number; rows: SignUpRow[] }> {
    const [count, rows] = await Promise.all([this.signUpCount(range), this.newestSignUps(range, limit)]);
    return { count, rows };
  }

  signUpCount(range: { from: Date; to: Date }): Promise<number> {
    return this.users
      .createQueryBuilder('u')
      .where('u."createdAt" >= :from AND u."createdAt" < :to', range)
      .getCount();
  }

  /** The newest `limit` accounts created in [from, to), after skipping the `skip` newest. */
  newestSignUps(range: { from: Date; to: Date }, limit: number, skip = 0): Promise<SignUpRow[]> {
    return this.newestSignUpsQuery(range, limit, skip).getRawMany<SignUpRow>();
  }

  private newestSignUpsQuery(range: { from: Date; to: Date }, limit: number, skip: number) {
    return selectColumns(this.users.createQueryBuilder('u'), SIGN_UP_COLUMNS)
      .where('u."createdAt" >= :from AND u."createdAt" < :to', range)
      .orderBy('u.createdAt', 'DESC')
      .addOrderBy('u.user_id', 'DESC')
      .offset(skip)
      .limit(limit);
  }
}
