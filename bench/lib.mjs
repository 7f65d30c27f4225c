// Shared helpers for the bench scripts: start the built backend, wait for health, run a load, print a table.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A TCP port nobody listens on now (the system picks it), so a bench never talks to another process's server
 * left on a fixed port.
 */
export async function freePort() {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts backend/dist/main.js on a free port and resolves once /api/health answers, with the time it took.
 * `port` restarts an instance where it was (sockets reconnect to the same address); `child` is there for kills.
 */
export async function startBackend(env = {}, { port: fixedPort, nodeArgs = [] } = {}) {
  const port = fixedPort ?? (await freePort());
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'backend/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      // Still running: the answer came from this child, not from a server it failed to replace on the port.
      if (res.ok && child.exitCode === null) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - started;
  return {
    url,
    port,
    child,
    dataDir,
    startMs: ms,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
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

/** A new, empty database beside PG_URL's (named `${prefix}_<time>`), with its URL and a drop() that forces it away. */
export async function freshDatabase(prefix = 'bench') {
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A JSON request to the API; throws with the answer's body unless it is 2xx. */
export async function api(base, method, path, { token, body } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Signs a new customer up; resolves with the session ({ access_token, user, ... }). */
export function signUp(base, email) {
  return api(base, 'POST', '/api/auth/signup', {
    body: {
      name: 'Bench',
      last_name: 'User',
      email,
      password: 'secret123',
      phone: '5512345678',
      signup_reason: 'Other',
    },
  });
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Nearest-rank percentile (p in 0-100) of a list of numbers; NaN when empty. */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Prints rows (arrays of cells) under headers, each column as wide as its widest cell; numbers right-aligned. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r, isHeader) =>
    r
      .map((c, i) =>
        isHeader || Number.isNaN(Number(c.split('/')[0])) ? c.padEnd(widths[i]) : c.padStart(widths[i]),
      )
      .join(' | ');
  console.log(line(cells[0], true));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of cells.slice(1)) console.log(line(r, false));
}

/**
 * A TCP proxy for fault injection (the bench's twin of backend/test/fakes/tcp-proxy.ts): `cut()` drops every
 * connection and refuses new ones, `blackhole()` accepts and forwards nothing, `restore()` passes again.
 */
export async function tcpProxy(target) {
  const { createConnection, createServer } = await import('node:net');
  const to = new URL(target);
  let mode = 'pass';
  const open = new Set();
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'refuse') return client.destroy();
    open.add(client);
    client.on('close', () => open.delete(client));
    if (mode === 'blackhole') return;
    const upstream = createConnection(Number(to.port), to.hostname);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(server.address().port);
  return {
    url: url.toString().replace(/\/$/, ''),
    cut() {
      mode = 'refuse';
      for (const socket of open) socket.destroy();
    },
    blackhole() {
      mode = 'blackhole';
    },
    restore() {
      mode = 'pass';
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What a wake-up costs on this machine: the CPU time (user + system) a Node.js process that does nothing else
 * spends per timer wake-up, woken every `everyMs`, in µs. A streamed answer at one stream wakes the backend a few
 * dozen times, most of them after a pause, so this prices the one-stream CPU per answer before any work of ours.
 */
export function wakeUpCostUs(everyMs, wakes) {
  const script = `
    const started = process.cpuUsage();
    let left = ${Number(wakes)};
    const tick = () => {
      if (--left > 0) return void setTimeout(tick, ${Number(everyMs)});
      const used = process.cpuUsage(started);
      process.stdout.write(String((used.user + used.system) / ${Number(wakes)}));
    };
    setTimeout(tick, ${Number(everyMs)});`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], (err, stdout) =>
      err ? reject(err) : resolve(Number(stdout)),
    );
  });
}

/** CPU time (user + system, every thread) the process `pid` has used so far, in ms (Linux /proc). */
export function cpuMs(pid) {
  return (statTicks(`/proc/${pid}/stat`) * 1000) / CLOCK_TICKS;
}
/** User + system CPU ticks from a /proc stat file (a process's or one thread's). */
function statTicks(path) {
  const stat = readFileSync(path, 'utf8');
  // The fields after the command name (which may hold spaces) are space-separated; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
/** CPU time (ms) of a process's threads named `name` (what /proc shows as each thread's comm), 0 when none. */
export function threadCpuMs(pid, name) {
  let ticks = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim() !== name) continue;
      ticks += statTicks(`/proc/${pid}/task/${task}/stat`);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;
/**
 * CPU time (ms) every thread of `pid` has run so far, from the scheduler's own count in nanoseconds
 * (/proc/<pid>/task/<tid>/schedstat): precise enough for an idle process, which uses a few ticks in seconds.
 */
export function cpuMsPrecise(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/**
 * Where a backend ran, from what it answers and what it left behind rather than from the settings it was given:
 * the readiness report (database up, its kind, Redis ping), whether the bench's own PostgreSQL database holds the
 * tables the backend migrated (`pgUrl`) or the embedded database's files are in the backend's data folder
 * (`dataDir`), and how many connections listen on the backend's Redis channels
 * (`redisPrefix`). Throws when the backend did not run where `expect` says ({ database: 'postgresql' |
 * 'embedded', redis: boolean }).
 */
export async function whereItRan(base, { pgUrl = null, dataDir = null, redisPrefix = null, expect } = {}) {
  const health = await (await fetch(`${base}/api/health`)).json();
  // The embedded database keeps its files in <DATA_DIR>/pg (backend/src/database/embedded-postgres.ts).
  const embeddedFiles =
    dataDir && existsSync(join(dataDir, 'pg')) ? readdirSync(join(dataDir, 'pg')).length : 0;
  let pgTables = 0;
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      pgTables = rows[0].n;
    } finally {
      await client.end();
    }
  }
  let redisListeners = 0;
  if (redisPrefix) {
    const { default: IORedis } = await import('ioredis');
    const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    try {
      await redis.connect();
      const channels = await redis.pubsub('CHANNELS', `${redisPrefix}:*`);
      for (const channel of channels) {
        const [, n] = await redis.pubsub('NUMSUB', channel);
        redisListeners += Number(n);
      }
    } catch {
      redisListeners = 0;
    } finally {
      redis.disconnect();
    }
  }
  const database =
    health.database !== 'up'
      ? 'database down'
      : health.database_kind === 'postgresql' && pgTables > 0
        ? `PostgreSQL (the bench's database holds ${pgTables} tables)`
        : health.database_kind === 'embedded' && embeddedFiles > 0
          ? `embedded database (PGlite, ${embeddedFiles} files in its data folder)`
          : `database ${health.database_kind}, ${pgTables} tables in the bench's database`;
  const redis =
    health.redis === 'up' && redisListeners > 0
      ? `Redis (${redisListeners} subscriptions on its channels)`
      : health.redis === 'not_configured'
        ? 'no Redis'
        : `Redis ${health.redis}, ${redisListeners} subscriptions`;
  const label = `${database}, ${redis}`;
  if (expect) {
    const dbOk =
      expect.database === 'postgresql'
        ? health.database_kind === 'postgresql' && pgTables > 0
        : health.database_kind === 'embedded' && embeddedFiles > 0;
    const redisOk = expect.redis
      ? health.redis === 'up' && redisListeners > 0
      : health.redis === 'not_configured';
    if (!dbOk || !redisOk || health.database !== 'up') {
      throw new Error(`The backend did not run where the bench meant it to: ${label}`);
    }
  }
  return label;
}

/**
 * The V8 sampling profiler of a process started with --inspect=127.0.0.1:<port>, over the inspector's WebSocket:
 * start() and stop() (the profile: nodes, samples, timeDeltas).
 */
export async function inspectorProfiler(port) {
  let targets;
  for (let i = 0; ; i++) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      break;
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 500 });
  return {
    start: () => send('Profiler.start'),
    stop: async () => (await send('Profiler.stop')).profile,
    close: () => socket.close(),
  };
}
