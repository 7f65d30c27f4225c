// Faults under load: streamed answers (POST /api/messages, answer on the socket) while the bench kills the server,
// cuts PostgreSQL or Redis, cuts the AI provider, or restarts one of two instances. For each scenario and level of
// concurrent streams it prints: messages sent, failed (refused, errored or interrupted), the time the product took
// to serve again after the fault ended, answers left pending once recovered (must be 0), and words charged beside
// the words of the answers delivered (must be equal: interrupted and failed answers are not charged).
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis; where each scenario ran is read from
// the backend. Exits non-zero when an answer stays pending, a charge differs from what was delivered, or a
// message fails in the baseline scenario (no fault).
//
// Settings (env): BENCH_CONCURRENCY (20,50), BENCH_SCENARIOS (all: baseline,crash,db-2s,db-15s,redis,provider-cut,
// provider-hang,provider-429,provider-5xx,rolling), BENCH_TOKENS (60 words per answer), BENCH_DELAY_MS (20 ms
// between words).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { io } from 'socket.io-client';
import {
  PG_URL,
  REDIS_URL,
  ROOT,
  api,
  freshDatabase,
  mapLimit,
  signUp,
  startBackend,
  table,
  tcpProxy,
  whereItRan,
} from './lib.mjs';

const LEVELS = (process.env.BENCH_CONCURRENCY ?? '20,50').split(',').map(Number);
const SCENARIOS = (
  process.env.BENCH_SCENARIOS ??
  'baseline,crash,db-2s,db-15s,redis,provider-cut,provider-hang,provider-429,provider-5xx,rolling'
).split(',');
const TOKENS = Number(process.env.BENCH_TOKENS ?? 60);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);
/** How long each scenario keeps sending, fault included. */
const LOAD_MS = 8000;
/** When the fault starts after the load began. */
const FAULT_AT_MS = 2000;
/** A stream that has not ended after this is counted as failed (the fault may have eaten its end event). */
const STREAM_TIMEOUT_MS = 30_000;
/** Short leases, so a crash's answers are swept within seconds rather than the default. */
const LEASE_MS = 3000;
/** A silent provider fails an answer after this (and the SDK's one retry after as much again). */
const AI_TIMEOUT_MS = 2000;
const ADMIN = { email: 'faults-admin@example.com', password: 'faults-admin-secret' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const countWords = (text) => (text ? text.trim().split(/\s+/u).filter(Boolean).length : 0);

function startFake() {
  const child = fork(join(ROOT, 'bench/fake-openai.mjs'), [], {
    env: { ...process.env, FAKE_TOKENS: String(TOKENS), FAKE_DELAY_MS: String(DELAY_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    child.once('message', ({ url }) =>
      resolve({
        url,
        /** 'pass', 'hang', '429' or '5xx' for the requests that arrive from now on. */
        mode: (mode) => child.send({ mode }),
        stop: () => {
          child.removeAllListeners('exit');
          child.disconnect();
        },
      }),
    );
  });
}

/** A customer with words, a reconnecting socket in its room, and a conversation. */
async function customer(base, adminToken, index) {
  const session = await signUp(base, `faults-${process.pid}-${Date.now()}-${index}@example.com`);
  const user_id = session.user.user_id;
  await api(base, 'POST', '/api/words/admin/grant', {
    token: adminToken,
    body: { user_id, words: 1_000_000, note: 'faults bench' },
  });
  const { conversation } = await api(base, 'POST', '/api/conversations', {
    token: session.access_token,
    body: { name: `faults ${index}` },
  });
  const socket = io(base, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
    forceNew: true,
    auth: { token: session.access_token },
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return {
    user_id,
    token: session.access_token,
    socket,
    conversation_id: conversation.conversation_id,
    base,
  };
}

/** One message: resolves 'done', 'failed' or 'timeout' (never throws). */
async function oneMessage(user) {
  const { socket, conversation_id } = user;
  let settle;
  const outcome = new Promise((resolve) => (settle = resolve));
  const onEnd = (p) => p.conversation_id === conversation_id && settle('done');
  const onFailure = (p) =>
    (p?.conversation_id === undefined || p.conversation_id === conversation_id) && settle('failed');
  socket.on('message_stream_end', onEnd);
  socket.on('openai-error', onFailure);
  socket.on('error', onFailure);
  socket.on('message_interrupted', onFailure);
  const timer = setTimeout(() => settle('timeout'), STREAM_TIMEOUT_MS);
  try {
    const res = await fetch(`${user.base}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ content: 'Write something.', conversation_id }),
    }).catch(() => null);
    if (!res || !res.ok) {
      await res?.text();
      return 'refused';
    }
    await res.text();
    return await outcome;
  } finally {
    clearTimeout(timer);
    socket.off('message_stream_end', onEnd);
    socket.off('openai-error', onFailure);
    socket.off('error', onFailure);
    socket.off('message_interrupted', onFailure);
  }
}

/** Until `until`, each user sends a message after the previous one ended (or failed, after a short pause). */
async function load(users, until) {
  const counts = { sent: 0, done: 0, refused: 0, failed: 0, timeout: 0 };
  await Promise.all(
    users.map(async (user) => {
      while (Date.now() < until) {
        counts.sent++;
        const outcome = await oneMessage(user);
        counts[outcome]++;
        if (outcome !== 'done') await sleep(250);
      }
    }),
  );
  return counts;
}

/** Until every instance answers health `up` and a signed-in request; the time it took. */
async function recovered(instances, probeToken) {
  const started = Date.now();
  for (;;) {
    const ok = await Promise.all(
      instances.map(async ({ url }) => {
        try {
          const health = await fetch(`${url}/api/health`).then((r) => r.json());
          const me = await fetch(`${url}/api/users`, { headers: { authorization: `Bearer ${probeToken}` } });
          return health.status === 'up' && me.ok;
        } catch {
          return false;
        }
      }),
    );
    if (ok.every(Boolean)) return Date.now() - started;
    if (Date.now() - started > 120_000) return NaN;
    await sleep(100);
  }
}

async function ledger(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pending = async () =>
      Number(
        (await client.query(`SELECT count(*) AS n FROM messages WHERE status = 'generating'`)).rows[0].n,
      );
    // Sweeps run on start and periodically: wait for them, a bounded time, before counting what stays pending.
    const waited = Date.now();
    while ((await pending()) > 0 && Date.now() - waited < LEASE_MS * 4 + 30_000) await sleep(500);
    const charged = Number(
      (await client.query(`SELECT coalesce(-sum(words), 0) AS n FROM word_ledger WHERE kind = 'debit'`))
        .rows[0].n,
    );
    const done = await client.query(
      `SELECT content FROM messages WHERE role = 'assistant' AND status = 'complete'`,
    );
    const delivered = done.rows.reduce((n, r) => n + countWords(r.content), 0);
    const interrupted = Number(
      (await client.query(`SELECT count(*) AS n FROM messages WHERE status = 'interrupted'`)).rows[0].n,
    );
    return { pending: await pending(), charged, delivered, interrupted };
  } finally {
    await client.end();
  }
}

async function scenario(name, concurrency) {
  const database = await freshDatabase('faults');
  const dbProxy = await tcpProxy(database.url);
  const redisProxy = await tcpProxy(REDIS_URL);
  const fake = await startFake();
  const aiProxy = await tcpProxy(fake.url);
  const env = {
    DATABASE_URL: dbProxy.url,
    REDIS_URL: redisProxy.url,
    REDIS_PREFIX: `faults-${database.name}`,
    OPENAI_API_KEY: 'sk-faults',
    OPENAI_BASE_URL: `${aiProxy.url}/v1`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // One secret for every instance and restart: a session signed by one is valid on the others.
    APP_SECRET: randomBytes(32).toString('hex'),
    GENERATION_LEASE_MS: String(LEASE_MS),
    GENERATION_MAX_CONCURRENT_PER_USER: '1000',
    AI_TIMEOUT_MS: String(AI_TIMEOUT_MS),
    OUTBOUND_ALLOW: '127.0.0.1',
  };
  const instances = [await startBackend(env)];
  if (name === 'rolling') instances.push(await startBackend(env));
  try {
    const base = instances[0].url;
    const where = await whereItRan(base, {
      pgUrl: database.url,
      redisPrefix: env.REDIS_PREFIX,
      expect: { database: 'postgresql', redis: true },
    });
    const { access_token: adminToken } = await api(base, 'POST', '/api/auth/login', { body: ADMIN });
    const users = await mapLimit([...Array(concurrency).keys()], 8, (i) =>
      customer(instances[i % instances.length].url, adminToken, i),
    );
    const until = Date.now() + LOAD_MS;
    const running = load(users, until);
    await sleep(FAULT_AT_MS);
    let faultEnded = Date.now();
    if (name === 'crash') {
      instances[0].child.kill('SIGKILL');
      await new Promise((r) => instances[0].child.once('exit', r));
      instances[0] = await startBackend(env, { port: instances[0].port });
      faultEnded = Date.now();
    } else if (name === 'db-2s' || name === 'db-15s') {
      dbProxy.cut();
      await sleep(name === 'db-2s' ? 2000 : 15_000);
      dbProxy.restore();
      faultEnded = Date.now();
    } else if (name === 'redis') {
      redisProxy.cut();
      await sleep(3000);
      redisProxy.restore();
      faultEnded = Date.now();
    } else if (name === 'provider-cut') {
      aiProxy.cut();
      await sleep(1000);
      aiProxy.restore();
      faultEnded = Date.now();
    } else if (name.startsWith('provider-') && name !== 'provider-cut') {
      fake.mode(name.slice('provider-'.length));
      await sleep(3000);
      fake.mode('pass');
      faultEnded = Date.now();
    } else if (name === 'rolling') {
      await instances[0].stop();
      instances[0] = await startBackend(env, { port: instances[0].port });
      faultEnded = Date.now();
    }
    const recoverMs = name === 'baseline' ? 0 : await recovered(instances, users[0].token);
    const counts = await running;
    for (const user of users) user.socket.close();
    const books = await ledger(database.url);
    return { name, concurrency, counts, recoverMs, faultEnded, where, ...books };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    fake.stop();
    await Promise.all([dbProxy.close(), redisProxy.close(), aiProxy.close()]);
    await database.drop();
  }
}

async function main() {
  console.log(
    `Faults bench: ${TOKENS} words per answer, ${DELAY_MS} ms apart; PostgreSQL ${new URL(PG_URL).host} and Redis ${new URL(REDIS_URL).host} through fault proxies; ${LOAD_MS / 1000} s of load per scenario, the fault at ${FAULT_AT_MS / 1000} s.`,
  );
  const rows = [];
  const ranOn = new Set();
  let bad = false;
  for (const name of SCENARIOS) {
    for (const concurrency of LEVELS) {
      const r = await scenario(name, concurrency);
      const failed = r.counts.refused + r.counts.failed + r.counts.timeout;
      // Progress as each scenario ends (a full run takes minutes); the table follows at the end.
      console.error(
        `${name} × ${concurrency}: ${r.counts.sent} sent, ${failed} failed, recovered after ${r.recoverMs} ms, ${r.pending} pending, ${r.charged} / ${r.delivered} words`,
      );
      if (r.pending > 0 || r.charged !== r.delivered || Number.isNaN(r.recoverMs)) bad = true;
      // Without a fault every message must be answered in full.
      if (name === 'baseline' && (failed > 0 || r.counts.done !== r.counts.sent)) bad = true;
      ranOn.add(r.where);
      rows.push([
        name,
        concurrency,
        r.counts.sent,
        `${failed} (${r.counts.refused} refused, ${r.counts.failed} failed, ${r.counts.timeout} timed out)`,
        Number.isNaN(r.recoverMs) ? 'never' : (r.recoverMs / 1000).toFixed(1),
        r.interrupted,
        r.pending,
        `${r.charged} / ${r.delivered}`,
      ]);
    }
  }
  table(
    [
      'scenario',
      'streams',
      'messages',
      'failed',
      'recovered after (s)',
      'interrupted',
      'pending after',
      'words charged / delivered',
    ],
    rows,
  );
  console.log(`ran on: ${[...ranOn].join('; ')} (through the fault proxies)`);
  if (bad) {
    console.error(
      'An answer stayed pending, a charge differed from the words delivered, the app never recovered, or the baseline lost a message.',
    );
    process.exit(1);
  }
}

await main();
