// Shared helpers for the bench scripts: start the built backend, wait for health, run a load, print a table.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let nextPort = 3900;

/** Starts backend/dist/main.js and resolves once /api/health answers, with the time it took. */
export async function startBackend(env = {}) {
  const port = nextPort++;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'backend/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - started;
  return {
    url,
    dataDir,
    startMs: ms,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: 10, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

export function row(name, value, unit) {
  console.log(`${name.padEnd(58)} ${String(value).padStart(10)} ${unit}`);
}
