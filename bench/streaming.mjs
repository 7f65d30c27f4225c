// Streaming overhead of the generation engine: the same fake OpenAI-compatible provider called DIRECTLY with the
// openai SDK (the baseline, measured in the same run) and THROUGH THE PRODUCT (POST /api/messages, the answer on
// the socket as message_stream / message_stream_end), at several concurrency levels, on PostgreSQL + Redis and
// on the embedded database without Redis. Prints, per setup: time to first token (p50/p99) and what the product
// adds, streams delivered complete and in order, backend CPU per answer (the process's CPU time over the answers
// it streamed), and a breakdown of the backend's main-thread time per answer (auth, database, provider, socket
// emit...) from a CPU profile of a separate pass. Where each setup ran is read from the backend and what it left
// behind, not assumed. A stream that fails, arrives incomplete or out of order is an error: it is left out of the
// percentiles, and the bench exits non-zero when there is one. Each level runs twice: a first pass whose first
// round is a burst (every stream sent at the same instant), printed apart, then the measured pass, whose streams
// start evenly over one answer's duration.
//
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis.
// Settings (env): BENCH_SETUPS (postgresql,embedded), BENCH_TOKENS (60 chunks per answer), BENCH_DELAY_MS (5 ms
// between chunks), BENCH_CONCURRENCY (1,50,200,500), BENCH_SAMPLES (at least 100 streams per level and mode),
// BENCH_PROFILE_STREAMS (20 concurrent streams in the profiled pass), BENCH_PROFILE_ANSWERS (100), BENCH_PROFILE_DIR
// (where to write the profiled pass's .cpuprofile; not written without it).
import { fork } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { io } from 'socket.io-client';
import { fakeAnswer } from './fake-openai.mjs';
import {
  REDIS_URL,
  ROOT,
  api,
  cpuMs,
  cpuMsPrecise,
  freePort,
  freshDatabase,
  inspectorProfiler,
  mapLimit,
  percentile,
  signUp,
  startBackend,
  table,
  threadCpuMs,
  wakeUpCostUs,
  whereItRan,
} from './lib.mjs';
import { PARTS, breakdown } from './profile-breakdown.mjs';

const SETUPS = (process.env.BENCH_SETUPS ?? 'postgresql,embedded').split(',');
const TOKENS = Number(process.env.BENCH_TOKENS ?? 60);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 5);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,50,200,500').split(',').map(Number);
const MIN_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const PROFILE_STREAMS = Number(process.env.BENCH_PROFILE_STREAMS ?? 20);
const PROFILE_ANSWERS = Number(process.env.BENCH_PROFILE_ANSWERS ?? 100);
/** How long the backend is left idle, between the warm-up and the levels, to read what it spends doing nothing. */
const IDLE_MS = 10_000;
/** The embedded database's thread as the backend names it (backend/src/database/embedded-postgres.ts). */
const EMBEDDED_DATABASE_THREAD = 'embedded-db';
/** Customers streaming: each has one socket and runs up to (concurrency / USERS) answers at once. */
const MAX_USERS = 50;
const STREAM_TIMEOUT_MS = 120_000;
const PROMPT = 'Write something.';
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-secret' };
const EXPECTED = fakeAnswer(TOKENS);
/** Issue 8's targets for a 60-chunk answer. */
const TARGETS = {
  1: { p50: 5, p99: 20 },
  50: { p50: 30, p99: 100 },
  cpuMs: 6,
};

/** How long the provider takes to send one answer: the measured pass spreads its streams' starts over it. */
const ANSWER_MS = TOKENS * DELAY_MS;
const roundsFor = (concurrency) => Math.max(1, Math.ceil(MIN_SAMPLES / concurrency));
const countTokens = (text) => (text.match(/ w\d+/g) ?? []).length;

/** The fake provider in its own process, so its work does not delay the client being measured. */
function startFake() {
  const child = fork(join(ROOT, 'bench/fake-openai.mjs'), [], {
    env: { ...process.env, FAKE_TOKENS: String(TOKENS), FAKE_DELAY_MS: String(DELAY_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    child.once('message', ({ url }) =>
      resolve({
        url,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', done);
            child.disconnect();
          }),
      }),
    );
  });
}

/**
 * A process that only reads the provider's answers (bench/stream-reader.mjs): the CPU floor of a level, measured
 * beside the backend's.
 */
function startReader() {
  const child = fork(join(ROOT, 'bench/stream-reader.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', resolve);
  });
  return {
    ready,
    /** Runs a level in the reader; its CPU per answer read. */
    async level(baseURL, concurrency, rounds, spreadMs) {
      await ready;
      const before = cpuMs(child.pid);
      const result = await new Promise((resolve) => {
        child.once('message', resolve);
        child.send({ baseURL, concurrency, rounds, spreadMs });
      });
      return { ...result, cpuPerAnswer: (cpuMs(child.pid) - before) / Math.max(1, result.answers) };
    },
    stop: () => child.disconnect(),
  };
}

/** One stream straight from the provider, the way the product calls it (a client per request, usage on). */
async function directStream(baseURL) {
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 0, timeout: STREAM_TIMEOUT_MS });
  const started = performance.now();
  let first = null;
  let text = '';
  const stream = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: PROMPT }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content;
    if (delta) {
      first ??= performance.now();
      text += delta;
    }
  }
  const ended = performance.now();
  return {
    ttft: first - started,
    duration: ended - first,
    tokens: countTokens(text),
    complete: text === EXPECTED,
    problem: text === EXPECTED ? null : `incomplete: ${countTokens(text)} of ${TOKENS} tokens`,
  };
}

/** A signed-up customer with unlimited words and a socket in its room. */
async function productUser(base, adminToken, index) {
  const session = await signUp(base, `bench-stream-${process.pid}-${Date.now()}-${index}@example.com`);
  const user_id = session.user.user_id;
  await api(base, 'POST', '/api/words/admin/grant', {
    token: adminToken,
    body: { user_id, unlimited: true, note: 'streaming bench' },
  });
  const socket = io(base, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token: session.access_token },
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await socket.timeout(10_000).emitWithAck('join_room', `user-${user_id}`);
  return { user_id, token: session.access_token, socket, conversations: [] };
}

/**
 * One message through the product: from just before the POST to the first message_stream event (TTFT), and
 * from there to message_stream_end. Events are matched by conversation (one stream per conversation); every
 * chunk must start where the text so far ends (its `offset`), else the stream is out of order.
 */
async function productStream(base, user, conversation_id) {
  const { socket } = user;
  let first = null;
  let text = '';
  let disorder = 0;
  let events = 0;
  let onStream, onEnd, onFailure, timer;
  const finished = new Promise((resolve, reject) => {
    onStream = (p) => {
      if (p.conversation_id !== conversation_id) return;
      first ??= performance.now();
      events++;
      if (p.offset !== undefined && p.offset !== text.length) disorder++;
      text += p.content;
    };
    onEnd = (p) => {
      if (p.conversation_id !== conversation_id) return;
      // The end event carries the whole saved text, which the stream's last words may come only with.
      const saved = p.message?.content ?? '';
      if (saved.startsWith(text)) text = saved;
      else disorder++;
      resolve(performance.now());
    };
    onFailure = (p) => reject(new Error(`socket reported ${JSON.stringify(p)}`));
    timer = setTimeout(() => reject(new Error('no message_stream_end in time')), STREAM_TIMEOUT_MS);
    socket.on('message_stream', onStream);
    socket.on('message_stream_end', onEnd);
    socket.on('openai-error', onFailure);
    socket.on('error', onFailure);
  });
  try {
    const started = performance.now();
    await api(base, 'POST', '/api/messages', {
      token: user.token,
      body: { content: PROMPT, conversation_id },
    });
    const answered = performance.now() - started;
    const ended = await finished;
    const complete = text === EXPECTED && disorder === 0;
    return {
      ttft: first - started,
      duration: ended - first,
      tokens: countTokens(text),
      complete,
      problem: complete
        ? null
        : disorder
          ? `${disorder} chunks out of order`
          : `incomplete: ${countTokens(text)} of ${TOKENS} tokens`,
      answered,
      events,
    };
  } finally {
    clearTimeout(timer);
    socket.off('message_stream', onStream);
    socket.off('message_stream_end', onEnd);
    socket.off('openai-error', onFailure);
    socket.off('error', onFailure);
  }
}

/**
 * `concurrency` workers, each running `rounds` streams back to back. Failed and incomplete streams are errors,
 * counted and left out of every figure. With `spreadMs`, the workers' first streams start evenly over that time
 * instead of at the same instant.
 */
async function runLevel(concurrency, rounds, streamOnce, spreadMs = 0) {
  const results = [];
  let errors = 0;
  let firstError = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      if (spreadMs) await new Promise((r) => setTimeout(r, (worker * spreadMs) / concurrency));
      for (let round = 0; round < rounds; round++) {
        try {
          const r = await streamOnce(worker, round);
          if (r.complete) results.push(r);
          else {
            errors++;
            firstError ??= r.problem;
          }
        } catch (err) {
          errors++;
          firstError ??= err.message;
        }
      }
    }),
  );
  const wallMs = performance.now() - started;
  const tokens = results.reduce((n, r) => n + r.tokens, 0);
  const of = (key) => results.filter((r) => r[key] !== undefined).map((r) => r[key]);
  return {
    streams: concurrency * rounds,
    ok: results.length,
    errors,
    firstError,
    ttft50: percentile(of('ttft'), 50),
    ttft99: percentile(of('ttft'), 99),
    duration50: percentile(of('duration'), 50),
    answered50: percentile(of('answered'), 50),
    answered99: percentile(of('answered'), 99),
    // Product only: message_stream events per answer (each is a socket write, and a Redis publish with Redis).
    events: of('events').reduce((a, b) => a + b, 0) / Math.max(1, of('events').length),
    // All streams together: every token delivered over the level's wall-clock time (TTFT included).
    totalTps: tokens / (wallMs / 1000),
  };
}

const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const pair = (a, b) => `${ms(a)}/${ms(b)}`;
const rate = (v) => (Number.isFinite(v) ? v.toFixed(0) : '-');

/** Runs every level and the profiled pass on one backend setup; returns { label, rows, errors }. */
async function benchSetup(setup, fake, reader) {
  const postgres = setup === 'postgresql';
  const db = postgres ? await freshDatabase(`bench_stream_${process.pid}`) : null;
  const prefix = `bench-stream-${process.pid}-${setup}`;
  const inspectPort = await freePort();
  let server = null;
  const users = [];
  try {
    server = await startBackend(
      {
        DATABASE_URL: db?.url ?? '',
        REDIS_URL: postgres ? REDIS_URL : '',
        REDIS_PREFIX: prefix,
        OPENAI_API_KEY: 'sk-bench',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        XAI_API_KEY: '',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // Several answers of one customer run at once at the higher levels (the default cap is 3).
        GENERATION_MAX_CONCURRENT_PER_USER: '1000',
      },
      { nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`] },
    );
    const base = server.url;
    const label = await whereItRan(base, {
      pgUrl: db?.url ?? null,
      dataDir: server.dataDir,
      redisPrefix: prefix,
      expect: { database: postgres ? 'postgresql' : 'embedded', redis: postgres },
    });
    console.log(`\n## ${label}\n`);
    const { access_token: adminToken } = await api(base, 'POST', '/api/auth/login', { body: ADMIN });

    // Setup (not measured): customers with a socket each, and a fresh conversation per stream so every request
    // carries the same one-message history as the direct call.
    const setupStarted = performance.now();
    const userCount = Math.min(MAX_USERS, Math.max(...LEVELS, PROFILE_STREAMS));
    users.push(...(await mapLimit([...Array(userCount).keys()], 8, (i) => productUser(base, adminToken, i))));
    const needed = new Array(userCount).fill(0);
    const plan = [
      [5, 2],
      // Each level runs twice: its first pass, then the measured one.
      ...LEVELS.flatMap((c) => [
        [c, roundsFor(c)],
        [c, roundsFor(c)],
      ]),
      [PROFILE_STREAMS, Math.ceil(PROFILE_ANSWERS / PROFILE_STREAMS)],
    ];
    for (const [c, rounds] of plan) for (let w = 0; w < c; w++) needed[w % userCount] += rounds;
    await mapLimit([...needed.entries()], 8, async ([u, count]) => {
      for (let k = 0; k < count; k++) {
        const { conversation } = await api(base, 'POST', '/api/conversations', {
          token: users[u].token,
          body: { name: `Bench ${k}` },
        });
        users[u].conversations.push(conversation.conversation_id);
      }
    });
    console.log(
      `setup: ${userCount} customers with unlimited words and a socket each, ` +
        `${needed.reduce((a, b) => a + b, 0)} conversations, in ` +
        `${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    const baseURL = `${fake.url}/v1`;
    const product = (w) => {
      const user = users[w % userCount];
      return productStream(base, user, user.conversations.shift());
    };
    // Warm-up (not reported): connection pools, JIT, the product's first-use caches.
    await runLevel(5, 2, () => directStream(baseURL));
    await runLevel(5, 2, product);
    // What the backend spends with nothing to do (timers, job queues, Redis): at one stream, where an answer
    // lasts about a third of a second, part of every answer's CPU.
    const idleBefore = cpuMsPrecise(server.child.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idlePerSecond = ((cpuMsPrecise(server.child.pid) - idleBefore) * 1000) / IDLE_MS;
    console.log(
      `the backend idle for ${IDLE_MS / 1000} s (its customers' sockets connected): ` +
        `${idlePerSecond.toFixed(2)} ms of CPU per second`,
    );

    const rows = [];
    const firstRows = [];
    const details = [];
    let errors = 0;
    /**
     * The direct calls, then the same number through the product, with the backend's CPU per answer; with
     * `floor`, then the same again in the process that only reads them (its CPU per answer).
     */
    const pass = async (c, rounds, spreadMs, { floor: withFloor = false } = {}) => {
      const direct = await runLevel(c, rounds, () => directStream(baseURL), spreadMs);
      const cpuBefore = cpuMs(server.child.pid);
      const through = await runLevel(c, rounds, product, spreadMs);
      const cpuPerAnswer = (cpuMs(server.child.pid) - cpuBefore) / Math.max(1, through.ok);
      const floor = withFloor ? await reader.level(baseURL, c, rounds, spreadMs) : null;
      errors += direct.errors + through.errors + (floor?.errors ?? 0);
      return { direct, through, cpuPerAnswer, readerCpuPerAnswer: floor?.cpuPerAnswer };
    };
    for (const c of LEVELS) {
      const rounds = roundsFor(c);
      // Two arrival patterns of the same number of streams in flight. The first pass sends every stream of its
      // first round at the same instant (a burst: the last of them is admitted after all the others), to a
      // backend that has not served this load yet. The second, held against the targets, starts the streams
      // evenly over one answer's duration, as streams in flight arrive when nobody synchronises them.
      const first = await pass(c, rounds, 0);
      firstRows.push([
        c,
        pair(first.through.ttft50 - first.direct.ttft50, first.through.ttft99 - first.direct.ttft99),
        `${first.through.ok}/${first.through.streams}`,
        ms(first.cpuPerAnswer),
      ]);
      const { direct, through, cpuPerAnswer, readerCpuPerAnswer } = await pass(c, rounds, ANSWER_MS, {
        floor: true,
      });
      const target = TARGETS[c];
      const added50 = through.ttft50 - direct.ttft50;
      const added99 = through.ttft99 - direct.ttft99;
      rows.push([
        c,
        pair(direct.ttft50, direct.ttft99),
        pair(through.ttft50, through.ttft99),
        pair(added50, added99),
        target
          ? `<= ${target.p50}/${target.p99}: ${added50 <= target.p50 && added99 <= target.p99 ? 'met' : 'NOT met'}`
          : '',
        `${through.ok}/${through.streams}${through.ok === through.streams ? '' : ' NOT all'}`,
        `${ms(cpuPerAnswer)}${cpuPerAnswer <= TARGETS.cpuMs ? '' : ' (> 6)'}`,
        ms(readerCpuPerAnswer),
        `${rate(direct.totalTps)} / ${rate(through.totalTps)}`,
      ]);
      details.push([
        c,
        `${direct.errors}/${through.errors}`,
        pair(direct.duration50, through.duration50),
        pair(through.answered50, through.answered99),
        through.events.toFixed(1),
      ]);
      for (const [mode, r] of [
        ['direct', direct],
        ['product', through],
        ['direct (first pass)', first.direct],
        ['product (first pass)', first.through],
      ])
        if (r.firstError) console.log(`  ${mode} at ${c}: first error: ${r.firstError}`);
    }
    table(
      [
        'streams',
        'direct TTFT p50/p99 ms',
        'product TTFT p50/p99 ms',
        'added p50/p99 ms',
        'added target',
        'complete in order',
        'backend CPU ms/answer',
        'reading only CPU ms/answer',
        'tok/s direct / product',
      ],
      rows,
    );
    console.log(
      '\nthe first pass at each level, its first round sent at the same instant (not held against the targets):\n',
    );
    table(['streams', 'added p50/p99 ms', 'complete in order', 'backend CPU ms/answer'], firstRows);
    console.log('');
    table(
      [
        'streams',
        'errors direct/product',
        'first→last token p50 ms d/p',
        'POST /api/messages answered p50/p99 ms',
        'stream events/answer',
      ],
      details,
    );

    // The breakdown: a separate pass under the sampling profiler (it slows the backend a little).
    const profiler = await inspectorProfiler(inspectPort);
    const rounds = Math.ceil(PROFILE_ANSWERS / PROFILE_STREAMS);
    await profiler.start();
    const cpuBefore = cpuMs(server.child.pid);
    const databaseThreadBefore = threadCpuMs(server.child.pid, EMBEDDED_DATABASE_THREAD);
    const profiled = await runLevel(PROFILE_STREAMS, rounds, product);
    const cpuPerAnswer = (cpuMs(server.child.pid) - cpuBefore) / Math.max(1, profiled.ok);
    const databaseThreadPerAnswer =
      (threadCpuMs(server.child.pid, EMBEDDED_DATABASE_THREAD) - databaseThreadBefore) /
      Math.max(1, profiled.ok);
    const profile = await profiler.stop();
    profiler.close();
    const parts = breakdown(profile);
    if (process.env.BENCH_PROFILE_DIR) {
      const file = join(process.env.BENCH_PROFILE_DIR, `streaming-${setup}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile written to ${file} (open it in Chrome DevTools)`);
    }
    errors += profiled.errors;
    // Samples measure time on the stack, which on a busy machine includes time the process waited for a core;
    // so each part's share of the main thread's samples is applied to the CPU time the process actually used.
    const sampled = Object.values(parts).reduce((a, b) => a + b, 0) || 1;
    console.log(
      `\nwhere the backend's CPU goes per answer (${profiled.ok} answers at ${PROFILE_STREAMS} streams, ` +
        `profiled): ${ms(cpuPerAnswer)} ms of process CPU (${ms(sampled / Math.max(1, profiled.ok))} ms sampled ` +
        `on the main thread${postgres ? '' : `, ${ms(databaseThreadPerAnswer)} ms on the embedded database's thread`}), ` +
        `split by each part's share of the main thread's samples${postgres ? '' : ", the database's thread in database"}:`,
    );
    // The embedded database's own thread is database time; the rest of the process is split by the main thread's
    // samples (the other threads are V8's and libuv's helpers working for it).
    const databaseThread = postgres ? 0 : databaseThreadPerAnswer;
    const rest = cpuPerAnswer - databaseThread;
    table(PARTS, [
      PARTS.map((p) => ms((rest * parts[p]) / sampled + (p === 'database' ? databaseThread : 0))),
    ]);
    return { label, errors };
  } finally {
    for (const u of users) u.socket.disconnect();
    await server?.stop();
    await db?.drop();
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js'))) {
    throw new Error('Build first: npx nx run backend:build');
  }
  console.log(
    `Generation engine streaming bench (${new Date().toISOString()}, node ${process.version}): ` +
      `${TOKENS} chunks per answer, ${DELAY_MS} ms apart, from a fake OpenAI-compatible server. ` +
      `Baseline: the same provider called directly with the openai SDK, in the same run.`,
  );
  // The machine's load, for reading the latencies: the bench shares the cores with whatever else runs.
  const load = () =>
    loadavg()
      .map((v) => v.toFixed(1))
      .join(' / ');
  console.log(`load average (1/5/15 min) at start: ${load()} on ${cpus().length} cores`);
  // The price of a wake-up here, at the pause of a paced read and at the provider's own chunk interval.
  const afterPause = await wakeUpCostUs(80, 100);
  const afterChunk = await wakeUpCostUs(DELAY_MS, 400);
  console.log(
    `a wake-up on this machine: ${afterPause.toFixed(0)} µs of CPU after 80 ms idle, ` +
      `${afterChunk.toFixed(0)} µs after ${DELAY_MS} ms (a Node.js process woken by a timer, doing nothing else)`,
  );
  const fake = await startFake();
  const reader = startReader();
  let errors = 0;
  try {
    for (const setup of SETUPS) errors += (await benchSetup(setup, fake, reader)).errors;
  } finally {
    reader.stop();
    await fake.stop();
  }
  console.log(`\nload average (1/5/15 min) at the end: ${load()}`);
  console.log(`
Notes:
- direct TTFT: from the SDK call to the first content delta. product TTFT: from sending POST /api/messages to the
  first message_stream event on the socket, so it includes the request (auth, access check, saving the message and
  the pending answer), reading the history and resolving the provider key.
- added = product percentile minus direct percentile (the runs are not paired stream by stream). Percentiles are
  over complete streams only; "complete in order" counts streams whose every chunk arrived at its offset and whose
  text is the provider's.
- Each level runs twice, direct then product each time, with the same number of streams in flight. The first
  pass (printed apart) sends every stream of its first round at the same instant, to a backend that has not
  served this load yet; the second, in the main table and held against the targets, starts the streams evenly
  over one answer's duration (${ANSWER_MS} ms), each then running its next one as soon as it ends.
- backend CPU ms/answer: the backend process's CPU time (user + system, every thread) during the level, over the
  answers it completed. At one stream it is several times the figure under load: every chunk wakes an otherwise
  idle process, where under load one wake-up serves many streams; "a wake-up on this machine" (printed at the
  start) prices each one, and the longer the process slept, the dearer its wake-up. reading only: the same for a process that does
  nothing but read the same answers the product's way (the same SDK, HTTP client and reading pace), at the same
  level (bench/stream-reader.mjs), right after the product's pass: the part of the backend's figure that is
  reading the provider's answers. The breakdown attributes main-thread samples of
  a profiled pass by the innermost part of the product on the stack (bench/profile-breakdown.mjs); gc is garbage
  collection, other is HTTP, Nest, validation and the product's own code. The embedded database (PGlite) runs
  in a thread of the backend's process: its work is in the CPU per answer (every thread counts) and, read from
  that thread's own CPU time, in the breakdown's database share beside the driver's side of it.
- Several answers of one customer run at once above ${MAX_USERS} streams (one socket per customer).
- The fake provider runs in its own process; the backend, the fake and this client share the machine.`);
  if (errors) {
    console.error(`\n${errors} streams failed or arrived incomplete or out of order.`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
