// GET /api/conversations with 100,000 conversations for one user (plus other users' rows, so the indexes must
// pick the right ones): p50/p99 latency and requests/s per sort and filter, at 10 concurrent connections.
// Needs the built backend (npx nx run backend:build) and PostgreSQL. Prints where it ran (read from the backend)
// and exits non-zero when a request failed (a non-2xx answer or a connection error).
//
// Settings (env): BENCH_CONVERSATIONS (100000), BENCH_DURATION (10 s per case), BENCH_CONNECTIONS (10),
// BENCH_EXPLAIN=1 also prints the plans of any case slower than 50 ms at p50; BENCH_KEEP_DATABASE=1 leaves the
// seeded database in place (its name is printed) for looking at plans by hand.
import { existsSync } from 'node:fs';
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

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const OTHER_USERS = 20;
const OTHER_CONVERSATIONS_EACH = 2_500;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SLOW_MS = 50;

// Tags are drawn with a skew (the first ones are common, the last ones rare), as real tagging is.
const TAGS = [
  'marketing',
  'ideas',
  'work',
  'blog',
  'sales',
  'personal',
  'clients',
  'email',
  'seo',
  'social',
  'product',
  'research',
  'draft',
  'urgent',
  'q1',
  'q2',
  'q3',
  'q4',
  'team',
  'archive-me',
];
const TOPICS = [
  'Marketing',
  'Sales',
  'Blog',
  'Product',
  'Launch',
  'Weekly',
  'Customer',
  'Support',
  'Email',
  'Social',
  'Research',
  'Strategy',
  'Budget',
  'Hiring',
  'Onboarding',
  'Roadmap',
  'Newsletter',
  'Pitch',
  'Training',
  'Legal',
];
const KINDS = [
  'plan',
  'ideas',
  'draft',
  'review',
  'notes',
  'summary',
  'copy',
  'outline',
  'questions',
  'report',
  'brief',
  'script',
  'campaign',
  'analysis',
  'checklist',
];

/**
 * `count` conversations for each of `userIds` in turn, oldest first (ids grow with createdAt, as in real use):
 * names "<Topic> <kind> <n>", 0-3 skewed tags, ~15% archived, half with a chosen model, spread over two years,
 * each last used some time after it was created. conversation_tags mirrors the tags, as the service writes them.
 */
async function seed(client, userIds, count) {
  await client.query(`SELECT setseed(0.42)`);
  await client.query(`DROP TABLE IF EXISTS bench_seed`);
  await client.query(
    `CREATE TEMP TABLE bench_seed AS
       SELECT i, floor(random() * 20)::int AS topic, floor(random() * 15)::int AS kind,
              floor(20 * random() ^ 2)::int AS t1, floor(20 * random() ^ 2)::int AS t2,
              floor(20 * random() ^ 2)::int AS t3, random() AS r_tags, random() AS r_archived,
              random() AS r_used, random() AS r_model
         FROM generate_series(1, $1::int) i`,
    [count * userIds.length],
  );
  await client.query(
    `INSERT INTO conversations (user_id, name, model, tags, archived, "createdAt", "updatedAt")
     SELECT ($4::int[])[1 + (s.i - 1) % array_length($4::int[], 1)],
            ($2::text[])[s.topic + 1] || ' ' || ($3::text[])[s.kind + 1] || ' ' || (s.i % 1000),
            CASE WHEN s.r_model < 0.5 THEN NULL WHEN s.r_model < 0.8 THEN 'gpt-4o-mini' ELSE 'gpt-4o' END,
            array_to_string(ARRAY(
              SELECT DISTINCT t FROM unnest((ARRAY[($1::text[])[s.t1 + 1], ($1::text[])[s.t2 + 1],
                ($1::text[])[s.t3 + 1]])[1:CASE WHEN s.r_tags < 0.3 THEN 0 WHEN s.r_tags < 0.65 THEN 1
                                              WHEN s.r_tags < 0.9 THEN 2 ELSE 3 END]) t ORDER BY t), ','),
            s.r_archived < 0.15,
            c.created,
            c.created + (now() - c.created) * s.r_used ^ 3
       FROM bench_seed s
       CROSS JOIN LATERAL (SELECT now() - interval '730 days' * (1 - s.i::float / $5) AS created) c
      ORDER BY s.i`,
    [TAGS, TOPICS, KINDS, userIds, count * userIds.length],
  );
  await client.query(`DROP TABLE bench_seed`);
}

/** The page query of ConversationsService.list for the default scope, for EXPLAIN (kept in step by hand). */
function pageSql(userId, params) {
  const where = [`c.user_id = $1 AND COALESCE(c.organization_id, 0) = 0`];
  const values = [userId];
  if (params.query) {
    values.push(`%${params.query}%`);
    where.push(`c.name ILIKE $${values.length}`);
  }
  if (params.archived) {
    values.push(params.archived === 'true');
    where.push(`c.archived = $${values.length}`);
  }
  if (params.tags) {
    values.push(params.tags);
    where.push(
      `EXISTS (SELECT 1 FROM conversation_tags ct WHERE ct.conversation_id = c.conversation_id AND ct.tag = $${values.length})`,
    );
  }
  const orderBy = {
    createdAt_desc: `c."createdAt" DESC, c.conversation_id DESC`,
    updatedAt_desc: `c."updatedAt" DESC, c.conversation_id DESC`,
    name_asc: `lower(c.name) ASC, c.conversation_id ASC`,
    name_desc: `lower(c.name) DESC, c.conversation_id DESC`,
  }[params.sortBy ?? 'createdAt_desc'];
  const w = where.join(' AND ');
  return [
    {
      label: 'page',
      sql: `SELECT * FROM conversations c WHERE ${w} ORDER BY ${orderBy} LIMIT 20 OFFSET 0`,
      values,
    },
    { label: 'count', sql: `SELECT count(*)::int FROM conversations c WHERE ${w}`, values },
  ];
}

/** Median over 5 runs of the page and of the count query's execution time as PostgreSQL reports it: "page / count". */
async function sqlMs(client, userId, params) {
  const medians = [];
  for (const { sql, values } of pageSql(userId, params)) {
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values);
      runs.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
    }
    medians.push(runs.sort((a, b) => a - b)[2].toFixed(1));
  }
  return medians.join(' / ');
}

async function main() {
  if (!existsSync(join(ROOT, 'backend/dist/main.js'))) {
    console.log('Build first: npx nx run backend:build');
    return;
  }
  console.log(
    `GET /api/conversations bench (${new Date().toISOString()}, node ${process.version}): ` +
      `${CONVERSATIONS} conversations for one user, ${OTHER_USERS} other users with ` +
      `${OTHER_CONVERSATIONS_EACH} each, ${CONNECTIONS} connections, ${DURATION} s per case\n`,
  );
  const db = await freshDatabase(`bench_conv_${process.pid}`);
  let server = null;
  const client = new pg.Client({ connectionString: db.url });
  try {
    server = await startBackend({
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: `bench-conv-${process.pid}`,
    });
    const base = server.url;
    const where = await whereItRan(base, {
      pgUrl: db.url,
      redisPrefix: `bench-conv-${process.pid}`,
      expect: { database: 'postgresql', redis: true },
    });
    console.log(`ran on: ${where}\n`);
    const me = await signUp(base, `bench-conv-${process.pid}@example.com`);
    const others = [];
    for (let i = 0; i < OTHER_USERS; i++)
      others.push((await signUp(base, `bench-conv-${process.pid}-${i}@example.com`)).user.user_id);

    await client.connect();
    const seedStarted = performance.now();
    await seed(client, others, OTHER_CONVERSATIONS_EACH);
    await seed(client, [me.user.user_id], CONVERSATIONS);
    await client.query(
      `INSERT INTO conversation_tags (conversation_id, tag)
       SELECT conversation_id, unnest(string_to_array(tags, ',')) FROM conversations WHERE tags <> ''`,
    );
    // A live table is vacuumed and analyzed by autovacuum; do it now rather than measure a table it has not reached.
    await client.query(`VACUUM ANALYZE conversations`);
    await client.query(`VACUUM ANALYZE conversation_tags`);
    const [{ mine, all, tagged, archived }] = (
      await client.query(
        `SELECT count(*) FILTER (WHERE user_id = $1)::int AS mine, count(*)::int AS all,
                count(*) FILTER (WHERE user_id = $1 AND archived)::int AS archived,
                (SELECT count(*)::int FROM conversation_tags) AS tagged
           FROM conversations`,
        [me.user.user_id],
      )
    ).rows;
    const indexes = (
      await client.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'conversations' ORDER BY 1`)
    ).rows.map((r) => r.indexname);
    console.log(
      `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ${all} conversations ` +
        `(${mine} of the measured user, ${archived} of them archived), ${tagged} tag rows; ` +
        `indexes on conversations: ${indexes.join(', ')}\n`,
    );

    // What the conversations screen sends (it always says archived=true|false), plus the API's unfiltered form.
    const cases = [
      { sortBy: 'createdAt_desc', archived: 'false' },
      { sortBy: 'updatedAt_desc', archived: 'false' },
      { sortBy: 'name_asc', archived: 'false' },
      { sortBy: 'name_desc', archived: 'false' },
      { sortBy: 'createdAt_desc' },
      { sortBy: 'createdAt_desc', archived: 'false', query: 'plan' },
      { sortBy: 'createdAt_desc', archived: 'false', query: 'legal checklist 42' },
      { sortBy: 'createdAt_desc', archived: 'false', tags: 'marketing' },
      { sortBy: 'createdAt_desc', archived: 'false', tags: 'archive-me' },
      { sortBy: 'updatedAt_desc', archived: 'true' },
    ];
    const rows = [];
    const slow = [];
    let failed = 0;
    for (const params of cases) {
      const path = `/api/conversations?${new URLSearchParams(params)}`;
      const { total } = await api(base, 'GET', path, { token: me.access_token });
      const result = await load({
        url: base + path,
        headers: { authorization: `Bearer ${me.access_token}` },
        connections: CONNECTIONS,
        duration: DURATION,
      });
      rows.push([
        path.replace('/api/conversations', ''),
        total,
        result.latency.p50,
        result.latency.p99,
        result.requests.average.toFixed(0),
        result.non2xx + result.errors,
      ]);
      failed += result.non2xx + result.errors;
      rows[rows.length - 1].push(await sqlMs(client, me.user.user_id, params));
      if (result.latency.p50 > SLOW_MS) slow.push(params);
    }
    table(
      ['GET /api/conversations', 'total', 'p50 ms', 'p99 ms', 'req/s', 'failed', 'SQL ms page / count'],
      rows,
    );
    console.log(`
Each response is one page (20) plus the total. p50/p99/req/s: autocannon, ${CONNECTIONS} connections, so at saturation
p50 is about ${CONNECTIONS} / (req/s) and mostly measures throughput. SQL ms: the database's own execution time
of the page query and of the count query (EXPLAIN ANALYZE, median of 5 each, one at a time, no load).`);
    if (failed) {
      console.error(`\n${failed} requests failed.`);
      process.exitCode = 1;
    }

    if (process.env.BENCH_EXPLAIN === '1')
      for (const params of slow) {
        console.log(`\nEXPLAIN ANALYZE for ${new URLSearchParams(params)}:`);
        for (const { label, sql, values } of pageSql(me.user.user_id, params)) {
          const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
          console.log(`  ${label}:`);
          for (const r of plan.rows) console.log(`    ${r['QUERY PLAN']}`);
        }
      }
  } finally {
    await client.end().catch(() => undefined);
    await server?.stop();
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`\nkept database ${db.name}`);
    else await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
