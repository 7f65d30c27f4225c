// The chat widget: what a host page downloads, and visitor answers streamed through one instance.
//
// 1. Sizes of frontends/widget/dist (built first when missing), brotli-compressed as served: the loader
//    (widget.js + widget.css, what every page with the snippet downloads) and the whole widget (with the chat
//    panel loaded on the first click), against the targets (15 KB / 60 KB) and the embeds of other products,
//    measured elsewhere and quoted here as anchors (not measured in this run).
// 2. N visitors at once (BENCH_WIDGET_STREAMS, default 50; 500 for the figure), each with its own
//    session and address, ask one widget; every answer streams back as Server-Sent Events. Beside it, the same
//    fake provider called directly with the same concurrency in the same run. Prints TTFT p50/p99 of both and
//    what the product adds, and the tokens lost (expected minus received, over every stream). Exits non-zero
//    when a stream fails or loses a token.
//
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis.
// Settings (env): BENCH_WIDGET_STREAMS (50), BENCH_TOKENS (60 chunks per answer), BENCH_DELAY_MS (5 ms between
// chunks), BENCH_WIDGET_ROUNDS (2 answers per visitor).
import { fork, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import OpenAI from 'openai';
import { fakeAnswer } from './fake-openai.mjs';
import { REDIS_URL, ROOT, api, freshDatabase, percentile, signUp, startBackend, table } from './lib.mjs';

const STREAMS = Number(process.env.BENCH_WIDGET_STREAMS ?? 50);
const ROUNDS = Number(process.env.BENCH_WIDGET_ROUNDS ?? 2);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 60);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 5);
const EXPECTED = fakeAnswer(TOKENS);
const SITE = 'https://bench-host.example';
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-secret' };
const TIMEOUT_MS = 120_000;
const KB = 1024;
/** Compressed sizes of other products' embeds, measured outside this repository (anchors only). */
const ANCHORS = [
  ['Flowise embed', '~113 KB'],
  ['Crisp chat', '130-232 KB'],
  ['AnythingLLM embed', '~658 KB'],
];
const countTokens = (text) => (text.match(/ w\d+/g) ?? []).length;
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

function sizes() {
  const dist = join(ROOT, 'frontends/widget/dist');
  if (!existsSync(join(dist, 'widget.js'))) {
    const built = spawnSync('npx', ['webpack', '--mode', 'production'], {
      cwd: join(ROOT, 'frontends/widget'),
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the widget build failed');
  }
  const brotli = (file) =>
    brotliCompressSync(readFileSync(join(dist, file)), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  const files = readdirSync(dist).filter((f) => /\.(js|css)$/.test(f));
  const loader = brotli('widget.js') + brotli('widget.css');
  const whole = files.reduce((n, f) => n + brotli(f), 0);
  console.log('## Bundle sizes (brotli, as served)\n');
  table(
    ['what', 'size', 'target'],
    [
      ['loader (widget.js + widget.css)', kb(loader), `<= 15 KB: ${loader <= 15 * KB ? 'met' : 'NOT met'}`],
      [
        `whole widget (${files.length} files)`,
        kb(whole),
        `<= 60 KB: ${whole <= 60 * KB ? 'met' : 'NOT met'}`,
      ],
      ...ANCHORS.map(([name, size]) => [`${name} (anchor, measured elsewhere)`, size, '']),
    ],
  );
  return loader <= 15 * KB && whole <= 60 * KB;
}

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

async function directStream(baseURL) {
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 0, timeout: TIMEOUT_MS });
  const started = performance.now();
  let first = null;
  let text = '';
  const stream = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Hello' }],
    stream: true,
  });
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content;
    if (delta) {
      first ??= performance.now();
      text += delta;
    }
  }
  return { ttft: first - started, received: countTokens(text), complete: text === EXPECTED };
}

/** A visitor from their own address (the backend trusts the loopback proxy header here). */
async function visitorSession(base, key, index) {
  const res = await fetch(`${base}/api/widget/${key}/sessions`, {
    method: 'POST',
    headers: {
      Origin: SITE,
      'Content-Type': 'application/json',
      'X-Forwarded-For': `198.18.${index >> 8}.${index & 255}`,
    },
    body: '{}',
  });
  if (!res.ok) throw new Error(`session answered ${res.status}: ${await res.text()}`);
  return { token: (await res.json()).token, address: `198.18.${index >> 8}.${index & 255}` };
}

/** One visitor message: TTFT to the first `delta` event, every delta checked against its offset. */
async function visitorStream(base, key, visitor) {
  const started = performance.now();
  const res = await fetch(`${base}/api/widget/${key}/messages`, {
    method: 'POST',
    headers: {
      Origin: SITE,
      Authorization: `Bearer ${visitor.token}`,
      'Content-Type': 'application/json',
      'X-Forwarded-For': visitor.address,
    },
    body: JSON.stringify({ text: 'Hello' }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`message answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  let first = null;
  let done = null;
  let disorder = 0;
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (!event || !data) continue;
      const payload = JSON.parse(data);
      if (event === 'delta') {
        first ??= performance.now();
        if (payload.offset !== text.length) disorder++;
        text += payload.content;
      } else if (event === 'done') done = payload.content;
      else if (event === 'error') throw new Error(`stream error: ${data}`);
    }
  }
  return {
    ttft: first - started,
    received: countTokens(text),
    complete: text === EXPECTED && done === EXPECTED && disorder === 0,
  };
}

async function runLevel(concurrency, rounds, once) {
  const results = [];
  let errors = 0;
  let firstError = null;
  let lost = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let round = 0; round < rounds; round++) {
        try {
          const r = await once(worker);
          lost += TOKENS - r.received;
          if (r.complete) results.push(r);
          else errors++;
        } catch (err) {
          errors++;
          lost += TOKENS;
          firstError ??= err.message;
        }
      }
    }),
  );
  const ttfts = results.map((r) => r.ttft);
  return {
    streams: concurrency * rounds,
    ok: results.length,
    errors,
    lost,
    firstError,
    p50: percentile(ttfts, 50),
    p99: percentile(ttfts, 99),
  };
}

async function streams() {
  const db = await freshDatabase(`bench_widget_${process.pid}`);
  const fake = await startFake();
  const prefix = `bench-widget-${process.pid}`;
  let server = null;
  try {
    server = await startBackend({
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      XAI_API_KEY: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The bench's visitors each come from their own address, told by a loopback "proxy".
      TRUST_PROXY: 'loopback',
    });
    const base = server.url;
    const { access_token: adminToken } = await api(base, 'POST', '/api/auth/login', { body: ADMIN });
    const owner = await signUp(base, `bench-widget-${process.pid}-${Date.now()}@example.com`);
    await api(base, 'POST', '/api/words/admin/grant', {
      token: adminToken,
      body: { user_id: owner.user.user_id, unlimited: true, note: 'widget bench' },
    });
    const { avatar } = await api(base, 'POST', '/api/avatars', {
      token: owner.access_token,
      body: { name: 'Bench avatar' },
    });
    const widget = await api(base, 'POST', '/api/widgets', {
      token: owner.access_token,
      body: {
        avatar_id: avatar.avatar_id,
        name: 'Bench widget',
        allowed_origins: [SITE],
        messages_per_minute: 600,
        words_per_day: 10_000_000,
        max_concurrent_streams: 1000,
      },
    });
    const key = widget.public_key;
    const visitors = [];
    for (let i = 0; i < STREAMS; i += 20)
      visitors.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, STREAMS - i) }, (_, j) => visitorSession(base, key, i + j + 1)),
        )),
      );
    const baseURL = `${fake.url}/v1`;
    // Warm-up (not reported).
    await runLevel(5, 1, () => directStream(baseURL));
    await runLevel(5, 1, (w) => visitorStream(base, key, visitors[w]));

    const direct = await runLevel(STREAMS, ROUNDS, () => directStream(baseURL));
    const product = await runLevel(STREAMS, ROUNDS, (w) => visitorStream(base, key, visitors[w]));
    console.log(
      `\n## ${STREAMS} visitors at once, ${ROUNDS} answers each, ${TOKENS} chunks ${DELAY_MS} ms apart ` +
        `(one instance, PostgreSQL + Redis)\n`,
    );
    table(
      ['path', 'TTFT p50/p99 ms', 'added p50/p99 ms', 'complete in order', 'tokens lost'],
      [
        [
          'provider direct',
          `${ms(direct.p50)}/${ms(direct.p99)}`,
          '',
          `${direct.ok}/${direct.streams}`,
          direct.lost,
        ],
        [
          'widget (SSE through the engine)',
          `${ms(product.p50)}/${ms(product.p99)}`,
          `${ms(product.p50 - direct.p50)}/${ms(product.p99 - direct.p99)}`,
          `${product.ok}/${product.streams}`,
          product.lost,
        ],
      ],
    );
    for (const [name, r] of [
      ['direct', direct],
      ['widget', product],
    ])
      if (r.firstError) console.log(`  ${name}: first error: ${r.firstError}`);
    return direct.errors + product.errors + product.lost === 0;
  } finally {
    await server?.stop();
    await fake.stop();
    await db.drop();
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js')))
    throw new Error('Build first: npx nx run backend:build');
  console.log(`Chat widget bench (${new Date().toISOString()}, node ${process.version})\n`);
  const sized = sizes();
  const streamed = await streams();
  if (!sized || !streamed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
