// Streaming overhead of the AI core: the same fake OpenAI-compatible provider called DIRECTLY with the openai SDK,
// and THROUGH THE PRODUCT (POST /api/messages, answer on the socket as message_stream / message_stream_end), at
// several concurrency levels. Prints time to first token (p50/p99), what the product adds, and tokens/s delivered.
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis. Prints figures; never fails a build.
//
// Settings (env): BENCH_TOKENS (200 tokens per answer), BENCH_DELAY_MS (5 ms between tokens),
// BENCH_CONCURRENCY (1,50,200), BENCH_SAMPLES (at least 20 streams per level and mode).
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { io } from 'socket.io-client';
import { fakeAnswer } from './fake-openai.mjs';
import {
  REDIS_URL,
  ROOT,
  api,
  freshDatabase,
  mapLimit,
  percentile,
  signUp,
  startBackend,
  table,
} from './lib.mjs';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 5);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,50,200').split(',').map(Number);
const MIN_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const STREAM_TIMEOUT_MS = 120_000;
const PROMPT = 'Write something.';
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-secret' };
const EXPECTED = fakeAnswer(TOKENS);

/** Streams per worker at a level: enough rounds for MIN_SAMPLES streams, at least two. */
const roundsFor = (concurrency) => Math.max(2, Math.ceil(MIN_SAMPLES / concurrency));
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
  };
}

/** A signed-up customer with unlimited words, a socket in its room, and conversations to send into. */
async function productUser(base, adminToken, index) {
  const session = await signUp(base, `bench-stream-${process.pid}-${index}@example.com`);
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
 * from there to message_stream_end. Events are matched by conversation, since a worker has one stream at a time.
 */
async function productStream(base, user, conversation_id) {
  const { socket } = user;
  let first = null;
  let text = '';
  let onStream, onEnd, onFailure, timer;
  const finished = new Promise((resolve, reject) => {
    onStream = (p) => {
      if (p.conversation_id !== conversation_id) return;
      first ??= performance.now();
      text += p.content;
    };
    onEnd = (p) => {
      if (p.conversation_id === conversation_id) resolve(performance.now());
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
    return {
      ttft: first - started,
      duration: ended - first,
      tokens: countTokens(text),
      complete: text === EXPECTED,
      answered,
    };
  } finally {
    clearTimeout(timer);
    socket.off('message_stream', onStream);
    socket.off('message_stream_end', onEnd);
    socket.off('openai-error', onFailure);
    socket.off('error', onFailure);
  }
}

/** `concurrency` workers, each running `rounds` streams back to back; failures are counted, not fatal. */
async function runLevel(concurrency, rounds, streamOnce) {
  const results = [];
  let failures = 0;
  let firstFailure = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let round = 0; round < rounds; round++) {
        try {
          results.push(await streamOnce(worker, round));
        } catch (err) {
          failures++;
          firstFailure ??= err.message;
        }
      }
    }),
  );
  const wallMs = performance.now() - started;
  const ok = results.filter((r) => r.complete);
  const tokens = results.reduce((n, r) => n + r.tokens, 0);
  return {
    samples: results.length,
    failures: failures + results.length - ok.length,
    firstFailure,
    ttft50: percentile(
      results.map((r) => r.ttft),
      50,
    ),
    ttft99: percentile(
      results.map((r) => r.ttft),
      99,
    ),
    duration50: percentile(
      results.map((r) => r.duration),
      50,
    ),
    // Product only: how long POST /api/messages took to answer (the generation then runs in the background).
    answered50: percentile(
      results.filter((r) => r.answered !== undefined).map((r) => r.answered),
      50,
    ),
    answered99: percentile(
      results.filter((r) => r.answered !== undefined).map((r) => r.answered),
      99,
    ),
    // Per stream: tokens over the time from its first to its last token, summed over streams then divided.
    perStreamTps: tokens / (results.reduce((n, r) => n + r.duration, 0) / 1000),
    // All streams together: every token delivered over the level's wall-clock time (TTFT included).
    totalTps: tokens / (wallMs / 1000),
  };
}

const ms = (v) => (Number.isNaN(v) ? '-' : v.toFixed(1));
const pair = (a, b) => `${ms(a)}/${ms(b)}`;
const rate = (v) => (Number.isFinite(v) ? v.toFixed(0) : '-');

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js'))) {
    console.log('Build first: npx nx run backend:build');
    return;
  }
  console.log(
    `AI core streaming bench (${new Date().toISOString()}, node ${process.version}): ` +
      `${TOKENS} tokens per answer, ${DELAY_MS} ms apart, from a fake OpenAI-compatible server\n`,
  );
  const fake = await startFake();
  const db = await freshDatabase(`bench_stream_${process.pid}`);
  let server = null;
  const users = [];
  try {
    server = await startBackend({
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: `bench-stream-${process.pid}`,
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      XAI_API_KEY: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    const base = server.url;
    const { access_token: adminToken } = await api(base, 'POST', '/api/auth/login', { body: ADMIN });

    // Setup (not measured): one customer per concurrent stream, and a fresh conversation per stream so every
    // request carries the same one-message history as the direct call.
    const maxConcurrency = Math.max(...LEVELS);
    const setupStarted = performance.now();
    users.push(
      ...(await mapLimit([...Array(maxConcurrency).keys()], 8, (i) => productUser(base, adminToken, i))),
    );
    const wanted = new Map();
    for (const c of [5, ...LEVELS])
      for (let w = 0; w < c; w++) wanted.set(w, (wanted.get(w) ?? 0) + roundsFor(c));
    await mapLimit([...wanted], 8, async ([w, count]) => {
      for (let k = 0; k < count; k++) {
        const { conversation } = await api(base, 'POST', '/api/conversations', {
          token: users[w].token,
          body: { name: `Bench ${k}` },
        });
        users[w].conversations.push(conversation.conversation_id);
      }
    });
    console.log(
      `setup: ${maxConcurrency} customers with unlimited words and a socket each, ` +
        `${[...wanted.values()].reduce((a, b) => a + b, 0)} conversations, in ` +
        `${((performance.now() - setupStarted) / 1000).toFixed(1)} s\n`,
    );

    const baseURL = `${fake.url}/v1`;
    const nextConversation = (w) => users[w].conversations.shift();
    // Warm-up (not reported): connection pools, JIT, the product's first-use caches.
    await runLevel(5, roundsFor(5), () => directStream(baseURL));
    await runLevel(5, roundsFor(5), (w) => productStream(base, users[w], nextConversation(w)));

    const rows = [];
    const details = [];
    for (const c of LEVELS) {
      const rounds = roundsFor(c);
      const direct = await runLevel(c, rounds, () => directStream(baseURL));
      const product = await runLevel(c, rounds, (w) => productStream(base, users[w], nextConversation(w)));
      rows.push([
        c,
        pair(direct.ttft50, direct.ttft99),
        pair(product.ttft50, product.ttft99),
        pair(product.ttft50 - direct.ttft50, product.ttft99 - direct.ttft99),
        `${rate(direct.perStreamTps)} / ${rate(direct.totalTps)}`,
        `${rate(product.perStreamTps)} / ${rate(product.totalTps)}`,
      ]);
      details.push([
        c,
        `${direct.samples}/${product.samples}`,
        `${direct.failures}/${product.failures}`,
        pair(direct.duration50, product.duration50),
        pair(product.answered50, product.answered99),
      ]);
      for (const [mode, r] of [
        ['direct', direct],
        ['product', product],
      ])
        if (r.firstFailure) console.log(`  ${mode} at ${c}: first failure: ${r.firstFailure}`);
    }

    table(
      [
        'concurrency',
        'direct TTFT p50/p99 ms',
        'product TTFT p50/p99 ms',
        'added p50/p99 ms',
        'direct tok/s stream / all',
        'product tok/s stream / all',
      ],
      rows,
    );
    console.log('');
    table(
      [
        'concurrency',
        'streams direct/product',
        'failed direct/product',
        'first→last token p50 ms d/p',
        'POST /api/messages answered p50/p99 ms',
      ],
      details,
    );
    console.log(`
Notes:
- direct TTFT: from the SDK call to the first content delta. product TTFT: from sending POST /api/messages to the
  first message_stream event on the socket, so it includes the request (auth, access check, saving the message and
  the pending answer), reading the history and resolving the provider key. The StreamBatcher sends the first delta
  at once, then one event per 50 ms or per 8 deltas.
- added = product percentile minus direct percentile (the runs are not paired stream by stream).
- tok/s stream: tokens over first-to-last-token time, summed over streams; all: every token delivered at the level
  divided by its wall-clock time (all concurrent streams together, TTFT included). product streams end at
  message_stream_end, sent after the answer and its word debit are saved.
- The fake provider runs in its own process; the backend, the fake and this client share the machine.`);
  } finally {
    for (const u of users) u.socket.disconnect();
    await server?.stop();
    await fake.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 0;
});
