import { Logger } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  NotificationListeners,
  type DatabaseNotification,
  type NotificationListener,
} from './embedded-notifications';

export interface EmbeddedPostgres {
  url: string;
  /** Every notification the database sends, to any of its clients; returns the call that stops listening. */
  onNotification(listener: NotificationListener): () => void;
  stop(): Promise<void>;
}

/** The embedded database of this process once it runs (null with DATABASE_URL, or before it started). */
export interface EmbeddedDatabaseHolder {
  current: EmbeddedPostgres | null;
}
export const EMBEDDED_DATABASE = Symbol('EMBEDDED_DATABASE');

/** What the database's thread tells the app's. */
export type EmbeddedDatabaseMessage =
  | { type: 'ready'; dir: string; url: string }
  | { type: 'notification'; notification: DatabaseNotification }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
/** What the app's thread asks of the database's. */
export type EmbeddedDatabaseRequest = { type: 'stop' };

/** The database thread's name, as the system lists the process's threads (bench/streaming.mjs reads its CPU). */
export const EMBEDDED_DATABASE_THREAD = 'embedded-db';

/** The thread's file beside this one: `.js` once built, `.ts` from source (run with @swc-node/register). */
const WORKER_FILE = join(__dirname, `embedded-postgres.worker${extname(__filename)}`);

/**
 * With no DATABASE_URL we run PGlite (PostgreSQL compiled to WASM) on DATA_DIR/pg and expose it through its
 * socket server, so TypeORM uses its normal `pg` driver. PGlite has no passwords, so it listens on a unix
 * socket only its owner can open, never on a TCP port another local user could reach. The socket server
 * serializes clients; we still keep the pool at one connection.
 *
 * PGlite runs in a thread of its own (`embedded-postgres.worker.ts`): a statement runs synchronously inside
 * PGlite, and on the app's thread every statement held up every stream, request and timer until it ended. The
 * thread inherits this process's options (so `@swc-node/register` when run from source). Once the database has
 * started, its thread ending is fatal: the app cannot work without it, and a new start reopens the same files.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  const worker = new Worker(WORKER_FILE, { name: EMBEDDED_DATABASE_THREAD, workerData: { dataDir } });
  const listeners = new NotificationListeners((err) =>
    logger.error(`A notification listener failed: ${String(err)}`),
  );
  let state: 'starting' | 'running' | 'stopping' = 'starting';
  let started!: { resolve(ready: { dir: string; url: string }): void; reject(err: Error): void };
  const ready = new Promise<{ dir: string; url: string }>((resolve, reject) => {
    started = { resolve, reject };
  });
  let stopped: (() => void) | null = null;
  /** The thread failed or ended: before the start, the start fails; while running, the app stops. */
  const ended = (why: string) => {
    if (state === 'starting') started.reject(new Error(`The embedded database did not start: ${why}`));
    else if (state === 'stopping') stopped?.();
    else {
      logger.error(`The embedded database stopped: ${why}. The app stops with it; start it again.`);
      process.exit(1);
    }
  };
  worker.on('message', (message: EmbeddedDatabaseMessage) => {
    if (message.type === 'ready') started.resolve(message);
    else if (message.type === 'stopped') stopped?.();
    else if (message.type === 'failed') ended(message.message);
    else listeners.deliver(message.notification);
  });
  worker.on('error', (err) => ended(err.stack ?? err.message));
  worker.on('exit', (code) => ended(`its thread ended (code ${code})`));
  const { dir, url } = await ready;
  state = 'running';
  logger.log(`PGlite database in ${dir} (set DATABASE_URL to use PostgreSQL)`);
  return {
    url,
    onNotification: (listener) => listeners.add(listener),
    async stop() {
      if (state === 'stopping') return;
      state = 'stopping';
      await new Promise<void>((done) => {
        stopped = done;
        worker.postMessage({ type: 'stop' } satisfies EmbeddedDatabaseRequest);
      });
      await worker.terminate();
    },
  };
}
