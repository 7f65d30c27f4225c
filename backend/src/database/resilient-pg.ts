import * as pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { preparedName } from './prepared-statements';

/**
 * Errors that mean the database could not be reached or went away (restart, failover, network cut), as opposed
 * to an error in a query. Node's socket codes, PostgreSQL's connection-exception class (08) and its shutdown
 * codes (57P01-57P03), and the messages pg uses when a socket ends or a connect times out.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'terminating connection',
  'the database system is starting up',
  'the database system is shutting down',
];

/** Marks an error thrown while getting a connection, so it is told apart from other network errors. */
const UNREACHABLE = Symbol('databaseUnreachable');

function looksUnavailable(e: { code?: unknown; message?: unknown }): boolean {
  if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  const message = e.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

/**
 * Whether an error means the database was unreachable: a connection the pool could not get, a query that
 * failed because its connection ended, or the server refusing work while it shuts down or starts.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { [UNREACHABLE]?: boolean })[UNREACHABLE]) return true;
  if (err instanceof QueryFailedError) return looksUnavailable(err.driverError ?? {});
  if (err instanceof pg.DatabaseError) return looksUnavailable(err);
  return false;
}

type ConnectCallback = (
  err: Error | undefined,
  client?: pg.PoolClient,
  release?: (err?: Error | boolean) => void,
) => void;

/**
 * A connection that runs the statements marked `prepared` (prepared-statements.ts) as named prepared statements:
 * pg parses each once per connection and PostgreSQL may reuse its plan; every other call is unchanged.
 */
class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values, ...rest] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
    const call = super.query as (...a: unknown[]) => never;
    return name ? call.call(this, { name, text, values }, ...rest) : call.apply(this, args);
  }
}

/**
 * pg with a pool whose `connect` keeps trying while the database is unreachable, for at most `retryMs`, so a
 * short outage (a restart, a failover) makes requests wait instead of fail. Only getting a connection is
 * retried: nothing has run on the database yet, so trying again cannot apply a change twice. Its connections
 * run the statements marked `prepared` as prepared statements (PreparingClient).
 */
export function resilientPg(retryMs: number): typeof pg {
  class ResilientPool extends pg.Pool {
    constructor(options?: pg.PoolConfig) {
      super({ ...options, Client: PreparingClient });
    }

    override connect(): Promise<pg.PoolClient>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
      const attempt = this.connectWithRetry();
      if (!callback) return attempt;
      attempt.then(
        (client) => callback(undefined, client, (err) => client.release(err)),
        (err: Error) => callback(err),
      );
    }

    private async connectWithRetry(): Promise<pg.PoolClient> {
      const deadline = Date.now() + retryMs;
      let delay = 100;
      for (;;) {
        try {
          return await super.connect();
        } catch (err) {
          if (!err || typeof err !== 'object' || !looksUnavailable(err)) throw err;
          if (Date.now() + delay > deadline || this.ended) {
            (err as { [UNREACHABLE]?: boolean })[UNREACHABLE] = true;
            throw err;
          }
          await new Promise((resolve) => setTimeout(resolve, delay));
          delay = Math.min(delay * 2, 1000);
        }
      }
    }
  }
  return { ...pg, Pool: ResilientPool } as typeof pg;
}
