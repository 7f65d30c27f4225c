import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient, QueryResult } from 'pg';
import {
  DataSource,
  EntityManager,
  QueryFailedError,
  type ObjectLiteral,
  type QueryRunner,
  type SelectQueryBuilder,
} from 'typeorm';
import { APP_ENV, type AppEnv } from '../config/env';
import { preparedName } from './prepared-statements';

/**
 * A statement whose values are written into its text (see `inlineStatement`), so it needs no parameters and can
 * travel in one round trip with START TRANSACTION or COMMIT, which the extended protocol (one statement with
 * parameters per round trip) cannot do.
 */
export interface InlineStatement {
  readonly sql: string;
}

/**
 * A statement for `runInline`, as its owner's repository builds it: its text with parameters ($1, $2...) and
 * their values. Without `values` it is already inline.
 */
export interface TransactionStatement {
  readonly sql: string;
  readonly values?: readonly unknown[];
}

/**
 * A read another module's transaction runs in its opening round trip on this module's behalf: the statement, and
 * what its rows mean (which may throw, e.g. 404 when nothing was found).
 */
export interface StatementRead<T> {
  readonly statement: TransactionStatement;
  read(rows: unknown[]): T;
}

/** A query builder's statement as a read to send with others; `read` turns its raw rows into the answer. */
export function builtRead<Row, T>(
  query: Pick<SelectQueryBuilder<ObjectLiteral>, 'getQueryAndParameters'>,
  read: (rows: Row[]) => T,
): StatementRead<T> {
  const [sql, values] = query.getQueryAndParameters();
  return { statement: { sql, values }, read: (rows) => read(rows as Row[]) };
}

/** The values a statement may carry in its text: none of them can hold a quote or any text from a request. */
export type InlineValue = number | boolean | null | string | Date | readonly number[];

/** Names the product makes itself ('message', 'message:12', an uuid): letters, digits and _ : . - only. */
const PLAIN_NAME = /^[A-Za-z0-9_:.-]{0,120}$/;

function wholeNumber(value: number): string {
  if (!Number.isSafeInteger(value))
    throw new TypeError(`An inline statement takes whole numbers, not ${value}`);
  return String(value);
}

function literal(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return wholeNumber(value);
  // An instant in UTC (every timestamp column is timestamptz); an invalid date throws.
  if (value instanceof Date) return `'${value.toISOString()}'`;
  // A list of whole numbers, as an array literal (for `= ANY($1)`).
  if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === 'number'))
      throw new TypeError('An inline statement takes lists of whole numbers only');
    return `'{${value.map(wholeNumber).join(',')}}'`;
  }
  if (typeof value === 'string' && PLAIN_NAME.test(value)) return `'${value}'`;
  throw new TypeError('An inline statement takes plain names only (letters, digits and _ : . -)');
}

/** Whether `value` may be written into an inline statement. */
export function isInlineValue(value: unknown): boolean {
  try {
    literal(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The statement `sql` with its parameters ($1, $2...) replaced by `values` written as literals: whole numbers,
 * booleans, null, plain names (see PLAIN_NAME), instants and lists of whole numbers. Anything else throws, so no text from a request can reach
 * the statement; the same text serves with parameters and inline.
 */
export function inlineStatement(sql: string, values: InlineValue[]): InlineStatement {
  return { sql: withLiterals(sql, values.map(literal)) };
}

/** `sql` with each parameter ($1, $2...) replaced by its literal. */
function withLiterals(sql: string, literals: string[]): string {
  return sql.replace(/\$(\d+)/g, (placeholder, n: string) => {
    const value = literals[Number(n) - 1];
    if (value === undefined) throw new TypeError(`No value for ${placeholder}`);
    return value;
  });
}

/** One statement string on a connection: the rows of each of its statements, in order. */
async function rowsOf(client: PoolClient, text: string, values?: unknown[]): Promise<unknown[][]> {
  const answered = (await client.query(text, values)) as unknown as QueryResult | QueryResult[];
  return (Array.isArray(answered) ? answered : [answered]).map((r) => r.rows as unknown[]);
}

/** pg's record of the named statements prepared on one connection (name to text); its Parse messages fill it. */
type PreparedOnConnection = Record<string, string | undefined>;

/** Names a connection was once asked to prepare: each is tried once per connection, whatever came of it. */
const preparing = new WeakMap<object, Set<string>>();

/**
 * The marked statements (prepared-statements.ts) as one connection runs them inline: a text the connection has
 * prepared runs as `EXECUTE name(values)`, so PostgreSQL neither parses nor plans it again (an inline statement's
 * text is new to the server each time: its values are in it); a text it has not prepared runs as written and is
 * prepared after the transaction (`prepareMarked`), outside it, once per connection. Not `byName` (behind a
 * pooler in transaction mode, whose server connections change between transactions), every text runs as written.
 */
class InlineStatements {
  private readonly later = new Map<string, string>();

  constructor(
    private readonly client: PoolClient,
    private readonly byName: boolean,
  ) {}

  private get prepared(): PreparedOnConnection | undefined {
    return (this.client as unknown as { connection?: { parsedStatements?: PreparedOnConnection } }).connection
      ?.parsedStatements;
  }

  /** The statement's text for a string of statements, or null when one of its values cannot be written inline. */
  text(statement: TransactionStatement): string | null {
    let literals: string[];
    try {
      literals = (statement.values ?? []).map(literal);
    } catch {
      return null;
    }
    const name = this.byName ? preparedName(statement.sql) : undefined;
    if (name && this.prepared?.[name] === statement.sql)
      return literals.length ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`;
    if (name && !preparing.get(this.client)?.has(name)) this.later.set(name, statement.sql);
    return statement.values ? withLiterals(statement.sql, literals) : statement.sql;
  }

  /**
   * Prepares the marked texts this connection ran as written, each in a statement of its own outside any
   * transaction (a prepared statement is not undone by a rollback, so one made inside a transaction that failed
   * would be there without pg knowing it). One that fails is left to run as written on this connection.
   */
  async prepareMarked(): Promise<void> {
    if (!this.later.size || !this.prepared) return;
    const tried = preparing.get(this.client) ?? new Set<string>();
    preparing.set(this.client, tried);
    for (const [name, sql] of this.later) {
      tried.add(name);
      try {
        await rowsOf(this.client, `PREPARE ${name} AS ${sql}`);
        this.prepared[name] = sql;
      } catch {
        // The statement keeps running as written; nothing else depends on it being prepared.
      }
    }
    this.later.clear();
  }
}

/**
 * Opens a transaction and hands its EntityManager to the work, which passes it explicitly to every repository
 * (its own module's, or another module's through that module's service) that must commit or roll back with it.
 * The one place outside repositories that holds the DataSource, so a transaction is never picked up implicitly.
 */
@Injectable()
export class UnitOfWork {
  /** Whether marked inline statements may run as EXECUTE of the connection's prepared statements. */
  private readonly byName: boolean;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.byName = env.databasePoolerMode === 'session';
  }

  run<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Reads of several modules (each built by its owner's repository), sent together: those whose values can be
   * written inline go in one round trip, as one statement string that PostgreSQL runs in one snapshot; any other
   * runs after them on the same connection, with its parameters. Each read's `read` gets its own rows. A request
   * that needs four lists pays one round trip, instead of four pooled connections' worth of writes and waits.
   */
  async readTogether<T extends readonly unknown[]>(reads: {
    readonly [K in keyof T]: StatementRead<T[K]>;
  }): Promise<T> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const inlined = new InlineStatements(client, this.byName);
    try {
      const statements = reads as readonly StatementRead<unknown>[];
      const texts = statements.map((r) => inlined.text(r.statement));
      const rows: unknown[][] = new Array(statements.length);
      const inline = texts.flatMap((text, i) => (text === null ? [] : [i]));
      if (inline.length) {
        const together = await this.send(runner, client, inline.map((i) => texts[i]).join(';\n'));
        inline.forEach((i, n) => (rows[i] = together[n]));
      }
      for (const [i, r] of statements.entries())
        if (texts[i] === null)
          rows[i] = (await this.send(runner, client, r.statement.sql, [...(r.statement.values ?? [])]))[0];
      return statements.map((r, i) => r.read(rows[i])) as unknown as T;
    } finally {
      await inlined.prepareMarked();
      await runner.release();
    }
  }

  /** `rowsOf` on the runner's connection, its failure logged as TypeORM logs a failed query. */
  private async send(runner: QueryRunner, client: PoolClient, text: string, values?: unknown[]) {
    try {
      return await rowsOf(client, text, values);
    } catch (err) {
      const failed = new QueryFailedError(text, values ?? [], err as Error);
      this.db.logger.logQueryError(failed, text, [], runner);
      throw failed;
    }
  }

  /**
   * Like `run`, with `opening` run first in the same round trip as START TRANSACTION (a lock and the reads made
   * under it), and the `closing` statements the work answers with run last in the same round trip as COMMIT (the
   * last writes): two round trips less, on the way to an answer's first token and at its end. A statement whose
   * values cannot be written inline runs on its own, with parameters, in its place in the order. The work gets
   * the opening statements' rows, the caller the closing ones', one array per statement.
   */
  async runInline<T>(
    opening: TransactionStatement[],
    work: (m: EntityManager, opened: unknown[][]) => Promise<{ value: T; closing?: TransactionStatement[] }>,
  ): Promise<{ value: T; closed: unknown[][] }> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const send = (text: string, values?: unknown[]) => this.send(runner, client, text, values);
    const inlined = new InlineStatements(client, this.byName);
    // Statements in order: the inline ones next to `control` (a leading run after START TRANSACTION, a trailing
    // run before COMMIT) share its round trip; the others run alone, with their parameters.
    const runWith = async (control: string, statements: TransactionStatement[], controlFirst: boolean) => {
      const texts = statements.map((s) => inlined.text(s));
      let n = 0;
      while (n < texts.length && texts[controlFirst ? n : texts.length - 1 - n] !== null) n++;
      const ride = (controlFirst ? texts.slice(0, n) : texts.slice(texts.length - n)) as string[];
      const alone = controlFirst ? statements.slice(n) : statements.slice(0, statements.length - n);
      const runAlone = async () => {
        const rows: unknown[][] = [];
        for (const s of alone) rows.push((await send(s.sql, s.values && [...s.values]))[0]);
        return rows;
      };
      if (controlFirst) {
        const together = await send([control, ...ride].join(';\n'));
        return [...together.slice(1), ...(await runAlone())];
      }
      const before = await runAlone();
      const together = await send([...ride, control].join(';\n'));
      return [...before, ...together.slice(0, -1)];
    };
    let opened: unknown[][] = [];
    let closing: TransactionStatement[] = [];
    let closed: unknown[][] = [];
    // TypeORM starts and commits the transaction with these single statements; the inline ones ride along.
    const query = runner.query.bind(runner);
    runner.query = (async (sql: string, ...rest: unknown[]) => {
      if (sql === 'START TRANSACTION' && opening.length) opened = await runWith(sql, opening, true);
      else if (sql === 'COMMIT' && closing.length) closed = await runWith(sql, closing, false);
      else return query(sql, ...(rest as []));
    }) as typeof runner.query;
    try {
      await runner.startTransaction();
      const done = await work(runner.manager, opened);
      closing = done.closing ?? [];
      await runner.commitTransaction();
      return { value: done.value, closed };
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      runner.query = query;
      await inlined.prepareMarked();
      await runner.release();
    }
  }
}
