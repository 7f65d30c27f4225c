// The back office's analytics calls and the customers list at a realistic volume: p50/p99 latency and requests/s
// of each, at 20 concurrent clients, first without the analytics indexes (the baseline, measured in the same run
// on the same data), then with them, then with each client asking its own range (identical calls at once share
// one computation in the backend, so this shows what the calls cost when nothing is shared), then one client.
// The indexes are read from their migrations, so the two stay in step. The per-day summary tables (AnalyticsDailyFigures) are in place in both: the seed's inserts fill them through their
// triggers, as any write does.
// Needs the built backend (npx nx run backend:build), PostgreSQL and Redis. Exits non-zero when a request failed.
//
// Settings (env): BENCH_USERS (100000), BENCH_PURCHASES (200000), BENCH_MESSAGES (1000000), BENCH_LEDGER
// (1000000), BENCH_DURATION (5 s per case), BENCH_CONNECTIONS (20), BENCH_KEEP_DATABASE=1 leaves the seeded
// database in place (its name is printed).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  REDIS_URL,
  ROOT,
  api,
  freshDatabase,
  load,
  signUp,
  startBackend,
  table,
  whereItRan,
} from './lib.mjs';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 200_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGET_ANALYTICS_P99 = 100;
const TARGET_LIST_P99 = 50;
/** Every row is spread over this many days before now, so a month holds about 1/24 of them. */
const SPREAD_DAYS = 730;

const MIGRATIONS = [
  '1764670000000-AnalyticsIndexes.ts',
  '1795750000000-AnalyticsActivityIndexes.ts',
  '1795760000000-AnalyticsDailyFigures.ts',
  '1795770000001-FreeTrialCoveringIndexes.ts',
  '1795780000000-AvatarUsageCoveringIndex.ts',
  '1795790000000-AvatarUsagePreviousConversation.ts',
];

/**
 * The index statements of the analytics migrations' up(), in order (a later one may drop an earlier index), and
 * the names of every index they create (the baseline drops them all).
 */
function analyticsIndexes() {
  const statements = [];
  for (const file of MIGRATIONS) {
    const source = readFileSync(join(ROOT, 'backend/src/database/migrations', file), 'utf8');
    const up = source.slice(source.indexOf('async up('), source.indexOf('async down('));
    for (const [, sql] of up.matchAll(/`((?:CREATE|DROP) INDEX [^`]+)`/g))
      statements.push(sql.replace(/\s+/g, ' '));
  }
  const names = [...new Set(statements.flatMap((sql) => /^CREATE INDEX (\w+)/.exec(sql)?.[1] ?? []))];
  return { statements, names };
}

/** Users, products, purchases, invoices, the word ledger, avatars, conversations, messages and tutorial plays. */
async function seed(client, staffUserId) {
  const spread = `now() - interval '${SPREAD_DAYS} days' * random()`;
  await client.query(`SELECT setseed(0.42)`);
  await client.query(
    `INSERT INTO users (name, last_name, email, uid, password_hash, "createdAt")
     SELECT 'Customer', 'N' || i, 'customer' || i || '@bench.example', 'bench-' || i, 'x', ${spread}
       FROM generate_series(1, $1::int) i`,
    [USERS],
  );
  const { rows: range } = await client.query(
    `SELECT min(user_id)::int AS lo, max(user_id)::int AS hi FROM users WHERE uid LIKE 'bench-%'`,
  );
  const { lo, hi } = range[0];
  const someone = `(${lo} + floor(random() * ${hi - lo + 1}))::int`;
  await client.query(
    `INSERT INTO products (name, description, price, word_amount, is_subscription, subscription_interval,
                           subscription_period, free_trial_period, free_trial_length)
     SELECT 'Product ' || i, 'Words', 1000 + i * 100, 10000, i % 2 = 0, CASE WHEN i % 2 = 0 THEN 1 END,
            CASE WHEN i % 2 = 0 THEN 'month' END, i % 4 = 0, CASE WHEN i % 4 = 0 THEN 7 END
       FROM generate_series(1, 20) i`,
  );
  const { rows: products } = await client.query(`SELECT min(product_id)::int AS p FROM products`);
  const firstProduct = products[0].p;
  // Statuses as a live shop has them: most paid, some running subscriptions, some cancelled, failed or pending.
  await client.query(
    `INSERT INTO purchases (user_id, product_id, status, amount, payment_method_id, subscription_interval,
                            subscription_period, free_trial_length, current_period_end, cancel_at_period_end,
                            cancelled_at, cancel_reason, paid_at, expires_at, "createdAt", "updatedAt")
     SELECT s.user_id, s.product_id, s.status, s.amount, 1 + (s.i % 5),
            CASE WHEN s.sub THEN 1 END, CASE WHEN s.sub THEN 'month' END,
            CASE WHEN s.sub AND s.product_id % 4 = 0 THEN 7 END,
            CASE WHEN s.sub AND s.status = 'active' THEN now() + interval '30 days' * random() END,
            s.sub AND s.status = 'active' AND s.r < 0.05,
            CASE WHEN s.status = 'cancelled' THEN s.created + interval '20 days' END,
            CASE WHEN s.status = 'cancelled' THEN 'Too expensive for now' END,
            CASE WHEN s.status IN ('active', 'completed', 'cancelled') THEN s.created END,
            CASE WHEN NOT s.sub THEN s.created + interval '365 days' END,
            s.created, s.created
       FROM (SELECT i, ${someone} AS user_id, ${firstProduct} + (i % 20) AS product_id, (i % 2) = 1 AS sub,
                    1000 + (i % 20) * 100 AS amount, random() AS r, ${spread} AS created,
                    (ARRAY['completed','completed','completed','active','active','active','cancelled',
                           'failed','pending','completed'])[1 + (i % 10)] AS status
               FROM generate_series(1, $1::int) i) s`,
    [PURCHASES],
  );
  // Renewals of running subscriptions (paid) and invoices staff made (some still open, due soon).
  await client.query(
    `INSERT INTO invoices (purchase_id, user_id, amount, status, payment_method_id, paid_at, period_end,
                           expiration_date, "createdAt", "updatedAt")
     SELECT p.purchase_id, p.user_id, p.amount, CASE WHEN random() < 0.9 THEN 'completed' ELSE 'pending' END,
            p.payment_method_id, p."createdAt" + interval '30 days', p."createdAt" + interval '60 days',
            now() + interval '20 days' * random(), p."createdAt" + interval '30 days',
            p."createdAt" + interval '30 days'
       FROM purchases p WHERE p.subscription_interval IS NOT NULL AND p.status IN ('active', 'cancelled')`,
  );
  await client.query(`UPDATE invoices SET paid_at = NULL, period_end = NULL WHERE status = 'pending'`);
  await client.query(
    `INSERT INTO word_ledger (user_id, kind, words, source, "createdAt")
     SELECT ${someone}, CASE WHEN i % 10 = 0 THEN 'grant' ELSE 'debit' END,
            CASE WHEN i % 10 = 0 THEN 10000 ELSE -(1 + floor(random() * 500))::int END,
            CASE WHEN i % 10 = 0 THEN 'purchase' ELSE 'generation' END, ${spread}
       FROM generate_series(1, $1::int) i`,
    [LEDGER],
  );
  await client.query(
    `INSERT INTO avatars (assistant_id, user_id, name, public, "createdAt")
     SELECT 'bench_' || i, ${someone}, 'Avatar ' || i, i % 10 = 0, ${spread} FROM generate_series(1, 2000) i`,
  );
  const { rows: avatars } = await client.query(`SELECT min(avatar_id)::int AS a FROM avatars`);
  const conversations = Math.max(1, Math.round(MESSAGES / 10));
  await client.query(
    `INSERT INTO conversations (user_id, name, avatar_id, "createdAt", "updatedAt")
     SELECT ${someone}, 'Conversation ' || c.i,
            CASE WHEN c.i % 3 = 0 THEN ${avatars[0].a} + (c.i % 2000) END, c.created, c.created
       FROM (SELECT i, ${spread} AS created FROM generate_series(1, $1::int) i) c`,
    [conversations],
  );
  const { rows: convRange } = await client.query(
    `SELECT min(conversation_id)::int AS lo, max(conversation_id)::int AS hi FROM conversations`,
  );
  await client.query(
    `INSERT INTO messages (conversation_id, user_id, role, content, words, "createdAt", "updatedAt")
     SELECT ${convRange[0].lo} + (c.i % ${convRange[0].hi - convRange[0].lo + 1}), ${someone},
            CASE WHEN c.i % 2 = 0 THEN 'user' ELSE 'assistant' END, 'Message text ' || c.i, 50, c.t, c.t
       FROM (SELECT i, ${spread} AS t FROM generate_series(1, $1::int) i) c`,
    [MESSAGES],
  );
  await client.query(
    `INSERT INTO tutorials (name, src, language) SELECT 'Tutorial ' || i, 'dQw4w9WgXcQ', 'en'
       FROM generate_series(1, 20) i`,
  );
  const { rows: tutorials } = await client.query(`SELECT min(tutorial_id)::int AS t FROM tutorials`);
  await client.query(
    `INSERT INTO tutorial_plays (tutorial_id, user_id, "createdAt")
     SELECT ${tutorials[0].t} + (i % 20), ${someone}, ${spread} FROM generate_series(1, 200000) i`,
  );
  await client.query(
    `INSERT INTO payment_events (provider, account, event_id, type, payload, status, received_at)
     SELECT 'stripe', 'platform', 'evt_bench_' || i, 'invoice.paid', '{}',
            CASE WHEN i % 100 = 0 THEN 'failed' ELSE 'processed' END, ${spread}
       FROM generate_series(1, 50000) i`,
  );
  await client.query(`INSERT INTO staff (user_id, role) VALUES ($1, 'manager')`, [staffUserId]);
}

async function counts(client) {
  const { rows } = await client.query(
    `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM purchases)::int AS purchases,
            (SELECT count(*) FROM invoices)::int AS invoices, (SELECT count(*) FROM word_ledger)::int AS ledger,
            (SELECT count(*) FROM messages)::int AS messages,
            (SELECT count(*) FROM conversations)::int AS conversations,
            (SELECT count(*) FROM tutorial_plays)::int AS plays`,
  );
  return rows[0];
}

async function measure(base, token, paths, connections = CONNECTIONS) {
  const results = new Map();
  for (const path of paths) {
    await api(base, 'GET', path, { token });
    const result = await load({
      url: base + path,
      headers: { authorization: `Bearer ${token}` },
      connections,
      duration: DURATION,
    });
    results.set(path, figures(result));
  }
  return results;
}

/** What the tables print of one autocannon run. */
function figures(result) {
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    failed: result.non2xx + result.errors,
  };
}

/**
 * Like `measure`, with each of the `connections` clients asking its own variant of the call (`pathOf(client)`):
 * identical calls at once share one computation in the backend, so this is what the calls cost when no two
 * requests are alike.
 */
async function measureDistinct(base, token, pathOf, connections = CONNECTIONS) {
  const headers = { authorization: `Bearer ${token}` };
  let client = 0;
  const result = await load({
    url: base,
    headers,
    connections,
    duration: DURATION,
    setupClient: (c) => c.setRequests([{ method: 'GET', path: pathOf(client++), headers }]),
  });
  return figures(result);
}

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js'))) {
    console.error('Build the backend first: npx nx run backend:build');
    process.exit(1);
  }
  const db = await freshDatabase('bench_analytics');
  const client = new pg.Client({ connectionString: db.url });
  let server;
  try {
    server = await startBackend({
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: `bench-analytics-${process.pid}`,
    });
    const base = server.url;
    console.log(
      `ran on: ${await whereItRan(base, {
        pgUrl: db.url,
        redisPrefix: `bench-analytics-${process.pid}`,
        expect: { database: 'postgresql', redis: true },
      })}`,
    );
    const email = `bench-analytics-${process.pid}@example.com`;
    const me = await signUp(base, email);
    await client.connect();
    const seedStarted = performance.now();
    await seed(client, me.user.user_id);
    const seeded = await counts(client);
    console.log(
      `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ${Object.entries(seeded)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}\n`,
    );
    // The staff role is read at sign-in.
    const session = await api(base, 'POST', '/api/auth/login', { body: { email, password: 'secret123' } });
    const token = session.access_token;

    // The current month, as the screens send it by default, and the whole last year.
    const now = new Date();
    const month = `start_date=${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10)}`;
    // Both ends: without end_date a range ends a month after its start.
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const year = `start_date=${new Date(today.getTime() - 365 * 86_400_000).toISOString().slice(0, 10)}&end_date=${today.toISOString().slice(0, 10)}`;
    const calls = [
      'dashboard',
      'words',
      'income',
      'purchases',
      'customers',
      'free_trials',
      'instructors',
      'reservations',
      'videos',
    ];
    const paths = [
      '/api/analytics/dashboard',
      ...calls.slice(1).map((c) => `/api/analytics/${c}?${month}`),
      `/api/analytics/monthly?${year}`,
      `/api/analytics/income?${year}`,
      `/api/analytics/customers?${year}`,
      `/api/analytics/instructors?${year}`,
      // The customers cards' tables, each read a page at a time when its card is expanded.
      ...['sign_ups', 'active', 'cancelled'].map((group) => `/api/analytics/customers/${group}?${month}`),
      `/api/analytics/customers/active?${year}`,
      '/api/users/admin/all',
      '/api/users/admin/all?query=customer12',
    ];

    const { statements, names } = analyticsIndexes();
    for (const name of names) await client.query(`DROP INDEX IF EXISTS ${name}`);
    await client.query(`VACUUM ANALYZE`);
    console.log(
      `baseline: without the ${names.length} analytics indexes (${names.join(', ')}); the per-day summary tables stay`,
    );
    const before = await measure(base, token, paths);
    for (const sql of statements) await client.query(sql);
    const kept = (
      await client.query(`SELECT indexname FROM pg_indexes WHERE indexname = ANY($1) ORDER BY 1`, [names])
    ).rows.map((r) => r.indexname);
    await client.query(`VACUUM ANALYZE`);
    console.log(`then: with the migrations' indexes (${kept.join(', ')})\n`);
    const after = await measure(base, token, paths);
    // One client at a time: what one request costs when it does not queue behind the others.
    const alone = await measure(base, token, paths, 1);
    // Each client its own range: the dates moved back by the client's number of days; for the customers list,
    // its own page (the client's number + 1). The dashboard has no range: its requests are all alike.
    const shifted = (path, days) =>
      path.startsWith('/api/users/admin/all')
        ? `${path}${path.includes('?') ? '&' : '?'}page=${days + 1}`
        : path.replace(/\d{4}-\d{2}-\d{2}/g, (d) =>
            new Date(Date.parse(d) - days * 86_400_000).toISOString().slice(0, 10),
          );
    const distinct = new Map();
    for (const path of paths) distinct.set(path, await measureDistinct(base, token, (k) => shifted(path, k)));

    let failed = 0;
    let missed = 0;
    let missedDistinct = 0;
    const rows = paths.map((path) => {
      const b = before.get(path);
      const a = after.get(path);
      const one = alone.get(path);
      const own = distinct.get(path);
      failed += a.failed + b.failed + one.failed + own.failed;
      const target = path.startsWith('/api/users/') ? TARGET_LIST_P99 : TARGET_ANALYTICS_P99;
      if (a.p99 > target) missed++;
      if (own.p99 > target) missedDistinct++;
      return [
        path.replace(/start_date=[\d-]+(&end_date=[\d-]+)?/, (m) =>
          m === month ? 'this month' : 'last 365 days',
        ),
        `${b.p50} / ${b.p99}`,
        b.rps.toFixed(0),
        `${a.p50} / ${a.p99}`,
        a.rps.toFixed(0),
        `${own.p50} / ${own.p99}`,
        own.rps.toFixed(0),
        `${one.p50} / ${one.p99}`,
        `<= ${target}`,
        `${a.p99 <= target ? 'yes' : 'NO'} / ${own.p99 <= target ? 'yes' : 'NO'}`,
      ];
    });
    table(
      [
        'GET',
        'baseline p50 / p99 ms',
        'req/s',
        'indexed p50 / p99 ms',
        'req/s',
        'own ranges p50 / p99',
        'req/s',
        '1 client p50 / p99',
        'p99 target',
        'met (same / own)',
      ],
      rows,
    );
    console.log(`
${CONNECTIONS} connections (and 1 for the "1 client" column), ${DURATION} s per call; at saturation p50 is about ${CONNECTIONS} / (req/s), so it
measures throughput of the one backend process as much as the query. "baseline" and "indexed": every client sends the
same call, and identical calls at once share one computation in the backend; "own ranges": each client
asks its own range (the dates moved back by 0-${CONNECTIONS - 1} days) or, for the customers list, its own page (1-${CONNECTIONS}),
so nothing is shared (except the dashboard's, which has no range). Missed the p99 target: ${missed} call(s) with the same call, ${missedDistinct} with own ranges.`);
    if (failed) {
      console.error(`\n${failed} requests failed.`);
      process.exitCode = 1;
    }
  } finally {
    await client.end().catch(() => undefined);
    await server?.stop();
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${db.name}`);
    else await db.drop();
  }
}

await main();
