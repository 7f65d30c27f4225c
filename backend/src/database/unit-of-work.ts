import { Inject, Injectable } from '@nestjs/common';
import * as pg from 'pg';
import type { PoolClient, QueryResult } from 'pg';
import { prepareValue } from 'pg/lib/utils';
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
 * A statement for `runBatched` or `readTogether`, as its owner's repository builds it: its text with parameters
 * ($1, $2...) and their values.
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

/** One statement of a batch as it goes out: by the name of the connection's prepared statement, or parsed. */
interface Outgoing {
  readonly text: string;
  readonly values: unknown[];
  /** Set when the connection has prepared `text` under this name: then it is bound, not parsed again. */
  readonly name?: string;
}

/** The part of pg's connection a batch writes to (its extended-protocol messages). */
interface ProtocolWriter {
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name: string; types: number[] }): void;
  bind(message: {
    portal: string;
    statement: string;
    values: unknown[];
    valueMapper: (value: unknown) => unknown;
  }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * Several statements, each with its parameters, written at once and answered in one round trip: the extended
 * protocol's messages of every statement (Parse unless the connection prepared it, Bind, Describe, Execute) and
 * one Sync at the end. node-postgres sends a Sync after each statement and waits for its answer before the next;
 * its own Query class reads the answers (one result per statement, as for a string of several statements). When
 * one statement fails, PostgreSQL skips the rest up to the Sync, so nothing after it runs.
 */
class StatementBatch extends pg.Query {
  constructor(
    private readonly outgoing: readonly Outgoing[],
    callback: (err: Error | undefined, result: unknown) => void,
  ) {
    // The text only names the batch in errors; the statements go out in `submit`.
    super({ text: outgoing.map((s) => s.text).join(';\n') }, callback);
    this.submit = (connection) => this.write(connection as unknown as ProtocolWriter);
  }

  private write(connection: ProtocolWriter): void {
    // Every message in one write (pg's own Query corks the same way for one statement).
    connection.stream.cork?.();
    try {
      for (const { text, values, name } of this.outgoing) {
        if (!name) connection.parse({ text, name: '', types: [] });
        connection.bind({ portal: '', statement: name ?? '', values, valueMapper: prepareValue });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }
}

/** A batch on a connection: the rows of each of its statements, in order. */
function rowsOfBatch(client: PoolClient, outgoing: readonly Outgoing[]): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    const batch = new StatementBatch(outgoing, (err, answered) => {
      if (err) return reject(err);
      const results = answered as QueryResult | QueryResult[];
      resolve((Array.isArray(results) ? results : [results]).map((r) => r.rows as unknown[]));
    });
    void client.query(batch);
  });
}

/** pg's record of the named statements prepared on one connection (name to text); its Parse messages fill it. */
type PreparedOnConnection = Record<string, string | undefined>;

/** Names a connection was once asked to prepare: each is tried once per connection, whatever came of it. */
const preparing = new WeakMap<object, Set<string>>();

/**
 * The marked statements (prepared-statements.ts) of one connection's batches: a text the connection has prepared
 * is bound by its name, so PostgreSQL neither parses nor plans it again; a text it has not prepared is parsed
 * (unnamed) and prepared after the transaction (`prepareMarked`), outside it, once per connection. Not
 * `preparing` (behind a pooler in transaction mode, which follows only the statements the protocol prepares),
 * nothing is prepared with the SQL command.
 */
class MarkedStatements {
  private readonly later = new Map<string, string>();

  constructor(
    private readonly client: PoolClient,
    private readonly preparingAfter: boolean,
  ) {}

  private get prepared(): PreparedOnConnection | undefined {
    return (this.client as unknown as { connection?: { parsedStatements?: PreparedOnConnection } }).connection
      ?.parsedStatements;
  }

  /** The statement as it goes out in a batch. */
  outgoing(statement: TransactionStatement): Outgoing {
    const text = statement.sql;
    const values = [...(statement.values ?? [])];
    const name = preparedName(text);
    if (name && this.prepared?.[name] === text) return { text, values, name };
    if (name && this.preparingAfter && !preparing.get(this.client)?.has(name)) this.later.set(name, text);
    return { text, values };
  }

  /**
   * Prepares the marked texts this connection parsed unnamed, each in a statement of its own outside any
   * transaction (a prepared statement is not undone by a rollback, so one made inside a transaction that failed
   * would be there without pg knowing it). One that fails is left to be parsed each time on this connection.
   */
  async prepareMarked(): Promise<void> {
    if (!this.later.size || !this.prepared) return;
    const tried = preparing.get(this.client) ?? new Set<string>();
    preparing.set(this.client, tried);
    for (const [name, sql] of this.later) {
      tried.add(name);
      try {
        await rowsOfBatch(this.client, [{ text: `PREPARE ${name} AS ${sql}`, values: [] }]);
        this.prepared[name] = sql;
      } catch {
        // The statement keeps being parsed each time; nothing else depends on it being prepared.
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
  /** Whether the marked statements a connection parsed are prepared after its transaction (see MarkedStatements). */
  private readonly preparingAfter: boolean;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.preparingAfter = env.databasePoolerMode === 'session';
  }

  run<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Reads of several modules (each built by its owner's repository), sent together in one round trip, each with
   * its parameters; each read's `read` gets its own rows. A request that needs four lists pays one round trip,
   * instead of four pooled connections' worth of writes and waits.
   */
  async readTogether<T extends readonly unknown[]>(reads: {
    readonly [K in keyof T]: StatementRead<T[K]>;
  }): Promise<T> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const marked = new MarkedStatements(client, this.preparingAfter);
    try {
      const statements = reads as readonly StatementRead<unknown>[];
      if (!statements.length) return [] as unknown as T;
      const rows = await this.send(
        runner,
        client,
        statements.map((r) => marked.outgoing(r.statement)),
      );
      return statements.map((r, i) => r.read(rows[i])) as unknown as T;
    } finally {
      await marked.prepareMarked();
      await runner.release();
    }
  }

  /** A batch on the runner's connection, its failure logged as TypeORM logs a failed query. */
  private async send(runner: QueryRunner, client: PoolClient, outgoing: readonly Outgoing[]) {
    try {
      return await rowsOfBatch(client, outgoing);
    } catch (err) {
      const text = outgoing.map((s) => s.text).join(';\n');
      const failed = new QueryFailedError(text, [], err as Error);
      this.db.logger.logQueryError(failed, text, [], runner);
      throw failed;
    }
  }

  /**
   * Like `run`, with `opening` sent in the same round trip as START TRANSACTION (a lock and the reads made under
   * it, and any write that needs nothing the work decides), and the `closing` statements the work answers with
   * sent in the same round trip as COMMIT (the last writes): two round trips less, on the way to an answer's first
   * token and at its end. The work gets the opening statements' rows, the caller the closing ones', one array per
   * statement.
   */
  async runBatched<T>(
    opening: TransactionStatement[],
    work: (m: EntityManager, opened: unknown[][]) => Promise<{ value: T; closing?: TransactionStatement[] }>,
  ): Promise<{ value: T; closed: unknown[][] }> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const marked = new MarkedStatements(client, this.preparingAfter);
    const batch = (statements: TransactionStatement[]) =>
      this.send(
        runner,
        client,
        statements.map((s) => marked.outgoing(s)),
      );
    let opened: unknown[][] = [];
    let closing: TransactionStatement[] = [];
    let closed: unknown[][] = [];
    // TypeORM starts and commits the transaction with these single statements; the batches ride with them.
    const query = runner.query.bind(runner);
    runner.query = (async (sql: string, ...rest: unknown[]) => {
      if (sql === 'START TRANSACTION' && opening.length)
        opened = (await batch([{ sql }, ...opening])).slice(1);
      else if (sql === 'COMMIT' && closing.length) closed = (await batch([...closing, { sql }])).slice(0, -1);
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
      await marked.prepareMarked();
      await runner.release();
    }
  }
}
