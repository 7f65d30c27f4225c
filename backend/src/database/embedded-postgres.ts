import { Logger } from '@nestjs/common';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase, serveEmbeddedBackups } from './embedded-backup';
import { hearNotifications, type NotificationListener } from './embedded-notifications';

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

/** The file name PostgreSQL clients look for in a socket folder (port 5432). */
const SOCKET_FILE = '.s.PGSQL.5432';
/** Unix socket paths are limited to about 107 bytes on Linux (103 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * The folder of the database's unix socket: DATA_DIR/pg-socket, reachable only by the folder's owner; when that
 * path is too long for a socket, a fresh private folder in the system's temporary folder.
 */
function socketFolder(dataDir: string): string {
  const preferred = join(dataDir, 'pg-socket');
  if (join(preferred, SOCKET_FILE).length <= MAX_SOCKET_PATH) {
    mkdirSync(preferred, { recursive: true, mode: 0o700 });
    chmodSync(preferred, 0o700);
    return preferred;
  }
  return mkdtempSync(join(tmpdir(), 'avatar-pg-'));
}

/**
 * With no DATABASE_URL we run PGlite (PostgreSQL compiled to WASM) on DATA_DIR/pg and expose it through its
 * socket server, so TypeORM uses its normal `pg` driver. PGlite has no passwords, so it listens on a unix
 * socket only its owner can open, never on a TCP port another local user could reach. The socket server
 * serializes clients; we still keep the pool at one connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  const db = await openEmbeddedDatabase(dir);
  const onNotification = hearNotifications(db);
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const folder = socketFolder(dataDir);
  const path = join(folder, SOCKET_FILE);
  // A socket file left by a process that died is stale; the app owns this path while it runs.
  rmSync(path, { force: true });
  const server = new PGLiteSocketServer({ db, path, maxConnections: 8 });
  await server.start();
  chmodSync(path, 0o600);
  const backups = await serveEmbeddedBackups(db, dataDir);
  logger.log(`PGlite database in ${dir} (set DATABASE_URL to use PostgreSQL)`);
  return {
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(folder)}`,
    onNotification,
    async stop() {
      await new Promise((done) => backups.close(done));
      await server.stop();
      await db.close();
      rmSync(path, { force: true });
    },
  };
}
