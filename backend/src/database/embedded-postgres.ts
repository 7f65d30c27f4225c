import { Logger } from '@nestjs/common';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create(dir);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 8 });
  await server.start();
  logger.log(`PGlite database in ${dir} (set DATABASE_URL to use PostgreSQL)`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
