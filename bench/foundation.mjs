// Platform foundation figures: cold start (embedded and PostgreSQL), login requests/s,
// GET /api/users latency at 50 concurrent clients, and the shell's initial JavaScript gzipped.
// Needs the production build first (npm run build). Prints where each figure was measured (read from the backend)
// and exits non-zero when a request failed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REDIS_URL, ROOT, freshDatabase, load, row, signUp, startBackend, whereItRan } from './lib.mjs';

/** JavaScript a browser downloads to show the sign-in page (as served: compressed), measured in Chromium. */
async function shellInitialJs(baseUrl) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    const scripts = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script') scripts.push(request);
    });
    await page.goto(baseUrl + '/login', { waitUntil: 'networkidle' });
    let encoded = 0;
    for (const request of scripts) encoded += (await request.sizes()).responseBodySize;
    return { files: scripts.length, kb: encoded / 1024 };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js'))) throw new Error('Build first: npm run build');
  console.log(`Avatar Studio foundation bench (${new Date().toISOString()}, node ${process.version})\n`);

  // Empty settings, not absent ones: the bench's own environment must not send the 'embedded' runs elsewhere.
  const embeddedEnv = { DATABASE_URL: '', REDIS_URL: '' };
  const embedded = await startBackend(embeddedEnv);
  console.log(
    `ran on: ${await whereItRan(embedded.url, {
      dataDir: embedded.dataDir,
      expect: { database: 'embedded', redis: false },
    })}`,
  );
  row('cold start, embedded PGlite, empty data dir (to /api/health)', embedded.startMs.toFixed(0), 'ms');
  const js = await shellInitialJs(embedded.url);
  row(`sign-in page JavaScript as served (${js.files} files, compressed)`, js.kb.toFixed(1), 'KB');
  await embedded.stop();
  const embeddedAgain = await startBackend({ ...embeddedEnv, DATA_DIR: embedded.dataDir });
  row('start, embedded PGlite, existing data dir', embeddedAgain.startMs.toFixed(0), 'ms');
  await embeddedAgain.stop();

  const db = await freshDatabase();
  try {
    const prefix = `bench-${Date.now()}`;
    const server = await startBackend({ DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: prefix });
    console.log(
      `ran on: ${await whereItRan(server.url, {
        pgUrl: db.url,
        redisPrefix: prefix,
        expect: { database: 'postgresql', redis: true },
      })}`,
    );
    row('cold start, PostgreSQL, empty database (migrations run)', server.startMs.toFixed(0), 'ms');
    const email = `bench-${Date.now()}@example.com`;
    const { access_token } = await signUp(server.url, email);

    const login = await load({
      url: `${server.url}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret123' }),
      connections: 8,
      duration: 10,
    });
    row(
      `POST /api/auth/login, 8 clients, ${login.non2xx} non-2xx`,
      login.requests.average.toFixed(1),
      'req/s',
    );
    row('POST /api/auth/login p50 / p99', `${login.latency.p50}/${login.latency.p99}`, 'ms');

    const me = await load({
      url: `${server.url}/api/users`,
      headers: { authorization: `Bearer ${access_token}` },
      connections: 50,
      duration: 10,
    });
    row(`GET /api/users, 50 clients, ${me.non2xx} non-2xx`, me.requests.average.toFixed(0), 'req/s');
    row('GET /api/users p50 / p99', `${me.latency.p50}/${me.latency.p99}`, 'ms');
    const failed = login.non2xx + login.errors + me.non2xx + me.errors;
    if (failed) {
      console.error(`${failed} requests failed.`);
      process.exitCode = 1;
    }
    await server.stop();
  } finally {
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
