import { Injectable } from '@nestjs/common';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/**
 * A statement without parameters that a transaction may open with: its only values are whole numbers written
 * into its text (`openingStatement` refuses anything else), so it travels with START TRANSACTION in one round
 * trip, which the extended protocol (one statement with parameters per round trip) cannot do.
 */
export interface OpeningStatement {
  readonly sql: string;
}

/**
 * Builds an opening statement whose values are the whole numbers `ids` (written in as literals): anything else
 * throws, so no text from a request can reach the statement.
 */
export function openingStatement(ids: number[], build: (...literals: string[]) => string): OpeningStatement {
  for (const id of ids)
    if (!Number.isSafeInteger(id)) throw new TypeError(`An opening statement takes whole numbers, not ${id}`);
  return { sql: build(...ids.map(String)) };
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
   * Like `run`, with `opening` run first in the transaction, in the same round trip as START TRANSACTION (a
   * lock and the reads made under it, on the way to an answer's first token); the work gets their rows, one
   * array per statement.
   */
  async runOpening<T>(
    opening: OpeningStatement[],
    work: (m: EntityManager, opened: unknown[][]) => Promise<T>,
  ): Promise<T> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    let opened: unknown[][] = [];
    // TypeORM starts the transaction with this one statement; the opening statements ride along with it.
    const query = runner.query.bind(runner);
    runner.query = (async (sql: string, ...rest: unknown[]) => {
      if (sql !== 'START TRANSACTION') return query(sql, ...(rest as []));
      runner.query = query;
      const text = [sql, ...opening.map((s) => s.sql)].join(';\n');
      try {
        const results = (await client.query(text)) as unknown as QueryResult[];
        opened = results.slice(1).map((r) => r.rows as unknown[]);
      } catch (err) {
        const failed = new QueryFailedError(text, [], err as Error);
        this.db.logger.logQueryError(failed, text, [], runner);
        throw failed;
      }
    }) as typeof runner.query;
    try {
      await runner.startTransaction();
      const result = await work(runner.manager, opened);
      await runner.commitTransaction();
      return result;
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }
}
