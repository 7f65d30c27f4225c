import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedDatabase, serveEmbeddedBackups } from './embedded-backup';
import { hearNotifications } from './embedded-notifications';
import { runClientMessagesTogether } from './embedded-socket-batches';
import type { EmbeddedDatabaseMessage, EmbeddedDatabaseRequest } from './embedded-postgres';

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

if (!parentPort) throw new Error('The embedded database runs in a worker thread.');
const port = parentPort;
const send = (message: EmbeddedDatabaseMessage) => port.postMessage(message);

/**
 * The embedded database's thread: PGlite on DATA_DIR/pg, its socket server and the backups' control socket.
 * Every statement the app sends runs here, so the database's work never holds up the app's own thread. The
 * notifications it sends to any client go to the app's thread as messages.
 */
async function serve(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  const db = await openEmbeddedDatabase(dir);
  hearNotifications(db)((notification) => send({ type: 'notification', notification }));
  const { PGLiteSocketServer, PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  runClientMessagesTogether(PGLiteSocketHandler);
  const folder = socketFolder(dataDir);
  const path = join(folder, SOCKET_FILE);
  // A socket file left by a process that died is stale; the app owns this path while it runs.
  rmSync(path, { force: true });
  const server = new PGLiteSocketServer({ db, path, maxConnections: 8 });
  await server.start();
  chmodSync(path, 0o600);
  const backups = await serveEmbeddedBackups(db, dataDir);
  port.on('message', (request: EmbeddedDatabaseRequest) => {
    if (request.type !== 'stop') return;
    void (async () => {
      await new Promise((done) => backups.close(done));
      await server.stop();
      await db.close();
      rmSync(path, { force: true });
      send({ type: 'stopped' });
    })().catch((err: unknown) => send({ type: 'failed', message: String(err) }));
  });
  send({
    type: 'ready',
    dir,
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(folder)}`,
  });
}

serve((workerData as { dataDir: string }).dataDir).catch((err: unknown) =>
  send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
);
