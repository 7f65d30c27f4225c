import type { Extension, PGlite } from '@electric-sql/pglite';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request, Server } from 'node:http';
import { join, resolve } from 'node:path';

/**
 * Backups of the embedded database and local files. PGlite is one process's database, so while the app runs
 * the backup asks the app itself for a consistent snapshot over a unix socket in DATA_DIR (reachable only by
 * whoever can read the data folder); when the app is stopped the backup opens the database directly.
 */
export const CONTROL_SOCKET = 'control.sock';
const DATABASE_FILE = 'database.tar.gz';
const MANIFEST_FILE = 'manifest.json';
const BACKUP_FORMAT = 1;
/** What a backup carries besides the database: uploaded files and the generated secret that encrypts stored keys. */
const FILES_DIR = 'files';
const SECRET_FILE = 'app-secret';

export class BackupError extends Error {}

export interface BackupManifest {
  format: number;
  created_at: string;
  app_running: boolean;
  files: number;
  app_secret: boolean;
}

/**
 * PGlite with the extensions the migrations use (pg_trgm for searches, pgvector for avatar retrieval); every
 * opening loads both, since a database that holds an extension's types cannot be read without it. pg_trgm is
 * loaded by name because its subpath is only in the exports map.
 */
async function openPglite(dir: string, loadDataDir?: Blob): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const trigramModule: string = '@electric-sql/pglite/contrib/pg_trgm';
  const { pg_trgm } = (await import(trigramModule)) as { pg_trgm: Extension };
  const { vector } = await import('@electric-sql/pglite-pgvector');
  return PGlite.create(dir, { extensions: { pg_trgm, vector }, ...(loadDataDir ? { loadDataDir } : {}) });
}

export { openPglite as openEmbeddedDatabase };

async function snapshot(db: PGlite): Promise<Buffer> {
  const blob = await db.dumpDataDir('gzip');
  return Buffer.from(await blob.arrayBuffer());
}

/** Started with the embedded database: answers `GET /database` with a gzipped snapshot of its data folder. */
export async function serveEmbeddedBackups(db: PGlite, dataDir: string): Promise<Server> {
  const path = join(dataDir, CONTROL_SOCKET);
  // A socket file left by a process that died is stale; the app owns this path while it runs.
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/database') {
      res.writeHead(404).end();
      return;
    }
    snapshot(db).then(
      (body) => res.writeHead(200, { 'content-type': 'application/gzip' }).end(body),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
    );
  });
  await new Promise<void>((done, fail) => server.once('error', fail).listen(path, () => done()));
  chmodSync(path, 0o600);
  return server;
}

/** The running app's snapshot, or null when no app answers on the control socket. */
function snapshotFromRunningApp(dataDir: string): Promise<Buffer | null> {
  const socketPath = join(dataDir, CONTROL_SOCKET);
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((done, fail) => {
    const req = request({ socketPath, path: '/database', method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) done(body);
        else fail(new BackupError(`The running app could not make a snapshot: ${body.toString('utf8')}`));
      });
      res.on('error', fail);
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? done(null) : fail(err),
    );
    req.end();
  });
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Writes a backup folder: the database snapshot first, then the files, so every file a backed-up row names is
 * there (a file uploaded during the backup may be copied without its row, which is harmless).
 */
export async function createBackup(dataDirInput: string, destInput: string): Promise<BackupManifest> {
  const dataDir = resolve(dataDirInput);
  const dest = resolve(destInput);
  if (!existsSync(join(dataDir, 'pg'))) {
    throw new BackupError(
      `There is no embedded database in ${dataDir} (set DATA_DIR to the app's data folder).`,
    );
  }
  if (!isEmptyOrMissing(dest))
    throw new BackupError(`${dest} is not empty; choose a new folder for the backup.`);
  let database = await snapshotFromRunningApp(dataDir);
  const appRunning = database !== null;
  if (!database) {
    const db = await openPglite(join(dataDir, 'pg'));
    try {
      database = await snapshot(db);
    } finally {
      await db.close();
    }
  }
  mkdirSync(dest, { recursive: true });
  writeFileSync(join(dest, DATABASE_FILE), database, { mode: 0o600 });
  const filesDir = join(dataDir, FILES_DIR);
  if (existsSync(filesDir)) cpSync(filesDir, join(dest, FILES_DIR), { recursive: true });
  const secret = join(dataDir, SECRET_FILE);
  const hasSecret = existsSync(secret);
  if (hasSecret) cpSync(secret, join(dest, SECRET_FILE));
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    created_at: new Date().toISOString(),
    app_running: appRunning,
    files: countFiles(join(dest, FILES_DIR)),
    app_secret: hasSecret,
  };
  writeFileSync(join(dest, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Restores a backup folder into a data folder that holds no database yet (never over a live one). */
export async function restoreBackup(srcInput: string, dataDirInput: string): Promise<BackupManifest> {
  const src = resolve(srcInput);
  const dataDir = resolve(dataDirInput);
  const manifestPath = join(src, MANIFEST_FILE);
  if (!existsSync(manifestPath) || !existsSync(join(src, DATABASE_FILE))) {
    throw new BackupError(
      `${src} is not a backup made by "npm run backup" (no ${MANIFEST_FILE} or ${DATABASE_FILE}).`,
    );
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) {
    throw new BackupError(
      `${src} has backup format ${manifest.format}; this version reads format ${BACKUP_FORMAT}.`,
    );
  }
  for (const part of ['pg', FILES_DIR]) {
    if (!isEmptyOrMissing(join(dataDir, part))) {
      throw new BackupError(
        `${join(dataDir, part)} already holds data; restore into a new data folder (DATA_DIR) and point the app at it.`,
      );
    }
  }
  const secretTarget = join(dataDir, SECRET_FILE);
  const restoredSecret = existsSync(join(src, SECRET_FILE))
    ? readFileSync(join(src, SECRET_FILE), 'utf8')
    : null;
  if (
    restoredSecret !== null &&
    existsSync(secretTarget) &&
    readFileSync(secretTarget, 'utf8') !== restoredSecret
  ) {
    throw new BackupError(
      `${secretTarget} holds another secret; the restored keys would not decrypt with it. Use a new data folder.`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const archive = readFileSync(join(src, DATABASE_FILE));
  const db = await openPglite(join(dataDir, 'pg'), new Blob([archive]));
  await db.close();
  if (existsSync(join(src, FILES_DIR)))
    cpSync(join(src, FILES_DIR), join(dataDir, FILES_DIR), { recursive: true });
  if (restoredSecret !== null) writeFileSync(secretTarget, restoredSecret, { mode: 0o600 });
  return manifest;
}
