// JavaScript a browser downloads on a cold load of the sign-in page and of the signed-in conversations page,
// against the production build served by the backend (npm run build first). Sizes are the compressed bytes as
// served (the backend sends the build's brotli twins); a file the server sent uncompressed is counted at its
// brotli-compressed size instead, so the figure never depends on the server's setting.
//
// Baseline, measured in the same run: the same sources built into a temporary folder with every shared library
// provided whole (`webpack --env shareWhole`: no facades, no split of Mantine), which is what Module Federation
// does without this project's trimming; both builds are served by the same backend build, one after the other.
// Exits non-zero when a page does not load. BENCH_BASELINE=0 skips the reference build (about a minute).
//
// Settings (env): CHROMIUM_PATH (/usr/bin/chromium), BENCH_DATABASE_URL (a fresh database is made beside it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import { REDIS_URL, ROOT, freshDatabase, signUp, startBackend, table } from './lib.mjs';

const KB = 1024;
/** The targets issue 8 set. */
const PAGES = [
  { name: 'sign-in (/login, signed out)', path: '/login', signedIn: false, targetKb: 200 },
  { name: 'conversations (/conversations)', path: '/conversations', signedIn: true, targetKb: 350 },
];
/** What the pages need of the build: the shell, and the customer remote for /conversations. */
const APPS = ['shell', 'customer'];
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function brotli(buffer) {
  return brotliCompressSync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** Opens `path` in a fresh context (cold cache) and sums the JavaScript it downloaded. */
async function measure(browser, base, page, session) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1300, height: 900 } });
  if (session) {
    await context.addInitScript((p) => {
      if (localStorage.getItem('access_token')) return;
      localStorage.setItem('access_token', p.access_token);
      localStorage.setItem('refresh_token', p.refresh_token);
      localStorage.setItem('token_issued_at', String(Date.now()));
    }, session);
  }
  const tab = await context.newPage();
  const scripts = [];
  tab.on('response', (response) => {
    const url = new URL(response.url());
    const type = response.headers()['content-type'] ?? '';
    if (url.origin === base && (url.pathname.endsWith('.js') || type.includes('javascript'))) {
      scripts.push(response);
    }
  });
  await tab.goto(page.path);
  // The page is ready when its main control shows; then every lazy chunk it asked for has to finish.
  if (page.signedIn) await tab.getByRole('button', { name: 'User menu' }).waitFor({ timeout: 30_000 });
  else await tab.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: 30_000 });
  await tab.waitForLoadState('networkidle');
  await tab.waitForTimeout(500);
  await tab.waitForLoadState('networkidle');
  let served = 0;
  let brotliBytes = 0;
  let raw = 0;
  const encodings = new Set();
  const files = [];
  for (const response of scripts) {
    const body = await response.body();
    const encoding = response.headers()['content-encoding'] ?? 'identity';
    const sizes = await response.request().sizes();
    const wire = encoding === 'identity' ? body.length : sizes.responseBodySize;
    const asBrotli = encoding === 'br' ? wire : brotli(body);
    encodings.add(encoding);
    served += wire;
    brotliBytes += asBrotli;
    raw += body.length;
    files.push({ path: new URL(response.url()).pathname, brotli: asBrotli });
  }
  await context.close();
  return { files, served, brotli: brotliBytes, raw, encodings: [...encodings].join(',') };
}

/** Builds the reference (every shared library whole) into a temporary frontends folder; returns the folder. */
function buildReference() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-front-ref-'));
  for (const app of APPS) {
    const started = performance.now();
    const result = spawnSync(
      'npx',
      [
        'webpack',
        '--mode',
        'production',
        '--config',
        join(ROOT, 'frontends', app, 'webpack.config.js'),
        '--output-path',
        join(dir, app, 'dist'),
        '--env',
        'shareWhole',
      ],
      { cwd: join(ROOT, 'frontends', app), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (result.status !== 0) throw new Error(`The reference build of ${app} failed (${result.status})`);
    console.log(`reference build of ${app}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return dir;
}

/** Serves `frontendsDir` (null: the repository's build) and measures every page; figures by page name. */
async function measureBuild(browser, frontendsDir) {
  const db = await freshDatabase('bench_front');
  const server = await startBackend({
    DATABASE_URL: db.url,
    REDIS_URL,
    REDIS_PREFIX: `bench-front-${Date.now()}`,
    ADMIN_EMAIL: 'admin@bench.test',
    ADMIN_PASSWORD: 'bench-admin-123',
    ...(frontendsDir ? { FRONTENDS_DIR: frontendsDir } : {}),
  });
  try {
    const session = await signUp(server.url, `front-${Date.now()}@bench.test`);
    const results = new Map();
    for (const page of PAGES) {
      results.set(page.name, await measure(browser, server.url, page, page.signedIn ? session : null));
    }
    return results;
  } finally {
    await server.stop();
    await db.drop();
  }
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

async function main() {
  if (!existsSync(join(ROOT, 'frontends/shell/dist/index.html'))) {
    throw new Error(
      'Build first: npx nx run-many -t build --projects=shared,shell,customer,admin,org,backend',
    );
  }
  const withBaseline = process.env.BENCH_BASELINE !== '0';
  const referenceDir = withBaseline ? buildReference() : null;
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: FLAGS,
    });
    const current = await measureBuild(browser, null);
    const reference = referenceDir ? await measureBuild(browser, referenceDir) : null;
    const rows = PAGES.map((page) => {
      const r = current.get(page.name);
      const base = reference?.get(page.name);
      return [
        page.name,
        kb(r.brotli),
        r.files.length,
        `${(r.raw / KB).toFixed(0)} KB`,
        r.encodings,
        `<= ${page.targetKb} KB`,
        r.brotli / KB <= page.targetKb ? 'met' : 'NOT met',
        base ? `${kb(base.brotli)} / ${base.files.length} files` : 'not measured (BENCH_BASELINE=0)',
      ];
    });
    console.log(
      'JavaScript transferred on a cold load (brotli as served), production build served by the backend',
    );
    table(
      [
        'page',
        'JS brotli',
        'files',
        'JS raw',
        'served as',
        'target',
        'status',
        'baseline: libraries shared whole',
      ],
      rows,
    );
    if (process.env.BENCH_VERBOSE) {
      for (const [label, results] of [
        ['this build', current],
        ['baseline', reference],
      ]) {
        if (!results) continue;
        for (const [page, { files }] of results) {
          console.log(`\n${page} (${label})`);
          for (const f of files.sort((a, b) => b.brotli - a.brotli)) {
            console.log(`  ${(f.brotli / KB).toFixed(1).padStart(7)} KB  ${f.path}`);
          }
        }
      }
    }
  } finally {
    await browser?.close();
    if (referenceDir) rmSync(referenceDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
