import { Logger } from '@nestjs/common';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openEmbeddedDatabase, serveEmbeddedBackups } from './embedded-backup';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * With no DATABASE_URL we run PGlite (PostgreSQL compiled to WASM) on DATA_DIR/pg and expose it on a
 * loopback port through its socket server, so TypeORM uses its normal `pg` driver. The socket server
 * serializes clients; we still keep the pool at one connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  const db = await openEmbeddedDatabase(dir);
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // A random loopback port below Linux's ephemeral range (32768+), where outgoing connections take theirs; tried
  // again on the rare collision with a listener.
  let port = 0;
  let server: InstanceType<typeof PGLiteSocketServer> | undefined;
  for (let attempt = 1; !server; attempt++) {
    port = 20000 + Math.floor(Math.random() * 12000);
    const candidate = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 8 });
    try {
      await candidate.start();
      server = candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw err;
    }
  }
  const backups = await serveEmbeddedBackups(db, dataDir);
  logger.log(`PGlite database in ${dir} (set DATABASE_URL to use PostgreSQL)`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await new Promise((done) => backups.close(done));
      await server.stop();
      await db.close();
    },
  };
}
