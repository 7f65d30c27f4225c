import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { EnvError, loadEnv } from './config/env';
import { GenerationService } from './modules/generation/generation.service';
import { RealtimeService } from './modules/realtime/realtime.service';

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp(env);
  await app.listen(env.port);
  const logger = new Logger('Main');
  // The host only: a database URL may carry a password.
  const database = env.databaseUrl
    ? `PostgreSQL at ${new URL(env.databaseUrl).host}`
    : `embedded PostgreSQL (PGlite) in ${env.dataDir}`;
  const jobs = env.redisUrl ? `Redis at ${new URL(env.redisUrl).host}` : 'in-process (no REDIS_URL)';
  logger.log(`Avatar Studio on ${env.publicUrl} · role ${env.role} · database: ${database} · jobs: ${jobs}`);

  // Graceful shutdown: stop accepting generations (503 with Retry-After), let running streams finish for up to
  // SHUTDOWN_DRAIN_MS and end the rest as interrupted, close the sockets as a transport close (clients reconnect
  // elsewhere and resume), let requests in flight finish (10 s at most), then close jobs and the database.
  // Nest's own shutdown hooks would close the database under requests still running.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: draining generations, then finishing requests in flight`);
    await app.get(GenerationService).drain();
    app.get(RealtimeService).closeAllSockets();
    const server = app.getHttpServer();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

void main();
