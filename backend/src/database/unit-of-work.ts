import { Injectable } from '@nestjs/common';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/**
 * A statement whose values are written into its text (see `inlineStatement`), so it needs no parameters and can
 * travel in one round trip with START TRANSACTION or COMMIT, which the extended protocol (one statement with
 * parameters per round trip) cannot do.
 */
export interface InlineStatement {
  readonly sql: string;
}

/** The values a statement may carry in its text: none of them can hold a quote or any text from a request. */
export type InlineValue = number | boolean | null | string;

/** Names the product makes itself ('message', 'message:12', an uuid): letters, digits and _ : . - only. */
const PLAIN_NAME = /^[A-Za-z0-9_:.-]{0,120}$/;

function literal(value: InlineValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new TypeError(`An inline statement takes whole numbers, not ${value}`);
    return String(value);
  }
  if (typeof value === 'string' && PLAIN_NAME.test(value)) return `'${value}'`;
  throw new TypeError('An inline statement takes plain names only (letters, digits and _ : . -)');
}

/** Whether `value` may be written into an inline statement. */
export function isInlineValue(value: InlineValue): boolean {
  try {
    literal(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The statement `sql` with its parameters ($1, $2...) replaced by `values` written as literals: whole numbers,
 * booleans, null, and plain names (see PLAIN_NAME). Anything else throws, so no text from a request can reach
 * the statement; the same text serves with parameters and inline.
 */
export function inlineStatement(sql: string, values: InlineValue[]): InlineStatement {
  const literals = values.map(literal);
  return {
    sql: sql.replace(/\$(\d+)/g, (placeholder, n: string) => {
      const value = literals[Number(n) - 1];
      if (value === undefined) throw new TypeError(`No value for ${placeholder}`);
      return value;
    }),
  };
}

/**
 * Opens a transaction and hands its EntityManager to the work, which passes it explicitly to every repository
 * (its own module's, or another module's through that module's service) that must commit or roll back with it.
 * The one place outside repositories that holds the DataSource, so a transaction is never picked up implicitly.
 */
@Injectable()
export class UnitOfWork {
  constructor(private readonly db: DataSource) {}

  run<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Like `run`, with `opening` run first in the same round trip as START TRANSACTION (a lock and the reads made
   * under it), and the `closing` statements the work answers with run last in the same round trip as COMMIT (the
   * last writes): two round trips less, on the way to an answer's first token and at its end. The work gets the
   * opening statements' rows, the caller the closing ones', one array per statement.
   */
  async runInline<T>(
    opening: InlineStatement[],
    work: (m: EntityManager, opened: unknown[][]) => Promise<{ value: T; closing?: InlineStatement[] }>,
  ): Promise<{ value: T; closed: unknown[][] }> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const send = async (statements: string[]): Promise<unknown[][]> => {
      const text = statements.join(';\n');
      try {
        const answered = (await client.query(text)) as unknown as QueryResult | QueryResult[];
        return (Array.isArray(answered) ? answered : [answered]).map((r) => r.rows as unknown[]);
      } catch (err) {
        const failed = new QueryFailedError(text, [], err as Error);
        this.db.logger.logQueryError(failed, text, [], runner);
        throw failed;
      }
    };
    let opened: unknown[][] = [];
    let closing: InlineStatement[] = [];
    let closed: unknown[][] = [];
    // TypeORM starts and commits the transaction with these single statements; the inline ones ride along.
    const query = runner.query.bind(runner);
    runner.query = (async (sql: string, ...rest: unknown[]) => {
      if (sql === 'START TRANSACTION' && opening.length)
        opened = (await send([sql, ...opening.map((s) => s.sql)])).slice(1);
      else if (sql === 'COMMIT' && closing.length)
        closed = (await send([...closing.map((s) => s.sql), sql])).slice(0, -1);
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
      await runner.release();
    }
  }
}
