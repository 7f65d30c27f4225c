import * as pg from 'pg';
import type { EntityManager } from 'typeorm';
import { prepared, preparedName } from '../src/database/prepared-statements';
import { UnitOfWork, type StatementRead } from '../src/database/unit-of-work';
import { startTestApp, TestApp } from './harness';

let t: TestApp;
let uow: UnitOfWork;
beforeAll(async () => {
  t = await startTestApp();
  uow = t.app.get(UnitOfWork);
});
afterAll(() => t.close());

/**
 * Transactions that open with statements sent in the round trip of START TRANSACTION and close with statements
 * sent in the round trip of COMMIT, on a real database: what they read comes back, what they write is kept with the
 * commit, and a failure anywhere keeps nothing and leaves the connection usable.
 */
describe('UnitOfWork.runBatched', () => {
  // Marked as prepared (the users module's lock is the same text), so these run by name on a connection that has it.
  const lock = (user_id: number) => ({
    sql: prepared('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE'),
    values: [user_id],
  });
  const entry = (user_id: number, reference: string) => ({
    sql: `INSERT INTO word_ledger (user_id, kind, words, source, reference)
          VALUES ($1, 'grant', 5, 'uow-test', $2) RETURNING reference`,
    values: [user_id, `${user_id}-${reference}`],
  });
  /** A write made by the work itself, with parameters. */
  const inside = (m: EntityManager, user_id: number) =>
    m.query(
      `INSERT INTO word_ledger (user_id, kind, words, source, reference) VALUES ($1, 'grant', 5, 'uow-test', $2)`,
      [user_id, `${user_id}-inside`],
    );
  const entries = async (user_id: number) =>
    (
      (await t.db.query(`SELECT reference FROM word_ledger WHERE user_id = $1 AND source = 'uow-test'`, [
        user_id,
      ])) as { reference: string }[]
    )
      .map((r) => r.reference.slice(String(user_id).length + 1))
      .sort();

  it('hands the work what the opening read and the caller what the closing wrote, all committed', async () => {
    const me = await t.createUser();
    const { value, closed } = await uow.runBatched([lock(me.user_id)], async (m, opened) => {
      await inside(m, me.user_id);
      return { value: opened, closing: [entry(me.user_id, 'closing')] };
    });
    expect(value).toEqual([[{ user_id: me.user_id }]]);
    expect(closed).toEqual([[{ reference: `${me.user_id}-closing` }]]);
    expect(await entries(me.user_id)).toEqual(['closing', 'inside']);
  });

  /** A write whose note is text as a request would bring it (quotes included), sent as a parameter. */
  const noted = (user_id: number, reference: string) => ({
    sql: `INSERT INTO word_ledger (user_id, kind, words, source, reference, note)
          VALUES ($1, 'grant', 5, 'uow-test', $2, $3) RETURNING reference`,
    values: [user_id, `${user_id}-${reference}`, "a note with 'quotes'"],
  });

  it('sends any value as a parameter, text from a request included, in its place', async () => {
    const me = await t.createUser();
    const { value, closed } = await uow.runBatched(
      [noted(me.user_id, 'opening'), lock(me.user_id)],
      async (m, opened) => ({
        value: opened,
        closing: [noted(me.user_id, 'closing'), entry(me.user_id, 'last')],
      }),
    );
    expect(value).toEqual([[{ reference: `${me.user_id}-opening` }], [{ user_id: me.user_id }]]);
    expect(closed).toEqual([[{ reference: `${me.user_id}-closing` }], [{ reference: `${me.user_id}-last` }]]);
    expect(await entries(me.user_id)).toEqual(['closing', 'last', 'opening']);
  });

  it('sends the opening with START TRANSACTION and the closing with COMMIT: two round trips in all', async () => {
    const me = await t.createUser();
    // Every round trip of node-postgres is one call of its client's query (it sends one and waits for it).
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await uow.runBatched([lock(me.user_id), noted(me.user_id, 'opening')], async () => ({
        value: null,
        closing: [noted(me.user_id, 'closing'), entry(me.user_id, 'last')],
      }));
      expect(sent).toHaveBeenCalledTimes(2);
    } finally {
      sent.mockRestore();
    }
    expect(await entries(me.user_id)).toEqual(['closing', 'last', 'opening']);
  });

  it('keeps nothing when a closing statement fails', async () => {
    const me = await t.createUser();
    await expect(
      uow.runBatched([lock(me.user_id)], async (m) => {
        await inside(m, me.user_id);
        // No such user: the foreign key refuses the closing insert, so the commit never runs.
        return { value: null, closing: [entry(me.user_id, 'first'), entry(2_000_000_000, 'orphan')] };
      }),
    ).rejects.toThrow(/foreign key/);
    expect(await entries(me.user_id)).toEqual([]);
  });

  it('keeps nothing when an opening statement or the work fails, and the connections stay usable', async () => {
    const me = await t.createUser();
    await expect(
      uow.runBatched([lock(me.user_id), { sql: 'SELECT 1 / $1', values: [0] }], async () => ({ value: 1 })),
    ).rejects.toThrow(/division by zero/);
    await expect(
      uow.runBatched([lock(me.user_id)], async (m) => {
        await inside(m, me.user_id);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await entries(me.user_id)).toEqual([]);
    // Every pooled connection is out of its transaction: many transactions at once all commit.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        uow.runBatched([lock(me.user_id)], async () => ({
          value: i,
          closing: [entry(me.user_id, `after-${i}`)],
        })),
      ),
    );
    expect(await entries(me.user_id)).toHaveLength(12);
  });
});

/** Reads of several statements sent together in one round trip: each read gets its own rows, in the order given. */
describe('UnitOfWork.readTogether', () => {
  it('hands each read its own rows, in the order given', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const since = new Date(Date.now() - 60_000);
    const [ids, count, quoted, none] = await uow.readTogether([
      {
        statement: {
          sql: 'SELECT user_id FROM users WHERE user_id = ANY($1) ORDER BY user_id',
          values: [[b.user_id, a.user_id]],
        },
        read: (rows) => (rows as { user_id: number }[]).map((r) => r.user_id),
      },
      {
        statement: {
          sql: `SELECT count(*)::int AS n FROM users WHERE user_id = ANY($1) AND "createdAt" >= $2`,
          values: [[a.user_id, b.user_id], since],
        },
        read: (rows) => (rows as { n: number }[])[0].n,
      },
      {
        statement: { sql: 'SELECT $1::text AS said', values: ["it's 'quoted'"] },
        read: (rows) => (rows as { said: string }[])[0].said,
      },
      {
        statement: { sql: 'SELECT user_id FROM users WHERE user_id = ANY($1)', values: [[]] },
        read: (rows) => rows.length,
      },
    ] as const);
    expect(ids).toEqual([a.user_id, b.user_id].sort((x, y) => x - y));
    expect(count).toBe(2);
    expect(quoted).toBe("it's 'quoted'");
    expect(none).toBe(0);
    // An instant after every account's creation finds none of them.
    const [later] = await uow.readTogether([
      {
        statement: {
          sql: `SELECT count(*)::int AS n FROM users WHERE user_id = ANY($1) AND "createdAt" >= $2`,
          values: [[a.user_id, b.user_id], new Date(Date.now() + 60_000)],
        },
        read: (rows) => (rows as { n: number }[])[0].n,
      },
    ] as const);
    expect(later).toBe(0);
  });

  it('fails as a whole when one read fails, and the connection stays usable', async () => {
    await expect(
      uow.readTogether([
        { statement: { sql: 'SELECT 1 AS one' }, read: (rows) => rows },
        { statement: { sql: 'SELECT 1 / $1 AS n', values: [0] }, read: (rows) => rows },
      ] as const),
    ).rejects.toThrow(/division by zero/);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        uow.readTogether([
          { statement: { sql: 'SELECT $1::int AS i', values: [i] }, read: (rows) => rows },
        ] as const),
      ),
    );
    expect(answers.map(([rows]) => (rows as { i: number }[])[0].i)).toEqual([...Array(12).keys()]);
  });
});

/**
 * Marked statements (prepared-statements.ts) in a batch are bound by the name of the connection's prepared
 * statement once that connection has prepared it (after its first use there, outside the transaction), with the
 * same rows; one the database cannot prepare keeps being parsed each time.
 */
describe('marked statements in batches', () => {
  /** How many times this connection has run the prepared statement `name` (0 when it has none of that name). */
  const runsOf = (name: string): StatementRead<number> => ({
    statement: {
      sql: `SELECT COALESCE(sum(generic_plans + custom_plans), 0)::int AS runs
              FROM pg_prepared_statements WHERE name = $1`,
      values: [name],
    },
    read: (rows) => (rows as { runs: number }[])[0].runs,
  });

  it('runs a statement by name once its connection has prepared it, with the same rows', async () => {
    const me = await t.createUser();
    const sql = prepared('SELECT user_id, $2::int AS n FROM users WHERE user_id = $1 /* marked, batched */');
    const name = preparedName(sql)!;
    const runs: number[] = [];
    // Twelve reads one after another on a pool of ten connections: at least one connection serves two of them.
    for (let i = 0; i < 12; i++) {
      const [rows, byName] = await uow.readTogether([
        { statement: { sql, values: [me.user_id, i] }, read: (r) => r },
        runsOf(name),
      ] as const);
      expect(rows).toEqual([{ user_id: me.user_id, n: i }]);
      runs.push(byName);
    }
    expect(Math.max(...runs)).toBeGreaterThanOrEqual(1);
    // In a transaction's opening and closing round trips too, and what it writes is kept.
    for (let i = 0; i < 12; i++) {
      const { value, closed } = await uow.runBatched(
        [{ sql, values: [me.user_id, i] }, runsOf(name).statement],
        async (m, opened) => ({ value: opened, closing: [{ sql, values: [me.user_id, 100 + i] }] }),
      );
      expect(value[0]).toEqual([{ user_id: me.user_id, n: i }]);
      expect(closed).toEqual([[{ user_id: me.user_id, n: 100 + i }]]);
      runs.push((value[1] as { runs: number }[])[0].runs);
    }
    expect(Math.max(...runs)).toBeGreaterThanOrEqual(2);
  });

  it('prepares a statement first used in a transaction that failed, and runs it by name after', async () => {
    const me = await t.createUser();
    const sql = prepared('SELECT user_id FROM users WHERE user_id = $1 /* marked, first use fails */');
    const name = preparedName(sql)!;
    await expect(
      uow.runBatched([{ sql, values: [me.user_id] }], async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    const runs: number[] = [];
    for (let i = 0; i < 12; i++) {
      const [rows, byName] = await uow.readTogether([
        { statement: { sql, values: [me.user_id] }, read: (r) => r },
        runsOf(name),
      ] as const);
      expect(rows).toEqual([{ user_id: me.user_id }]);
      runs.push(byName);
    }
    expect(Math.max(...runs)).toBeGreaterThanOrEqual(1);
  });

  it('keeps parsing a marked statement the database cannot prepare', async () => {
    // SHOW runs when parsed, but the PREPARE command takes only queries and writes, so it refuses it.
    const sql = prepared('SHOW max_identifier_length /* marked, cannot be prepared */');
    const name = preparedName(sql)!;
    for (let i = 0; i < 12; i++) {
      const [said, byName] = await uow.readTogether([
        { statement: { sql }, read: (rows) => (rows as { max_identifier_length: string }[])[0] },
        runsOf(name),
      ] as const);
      expect(said).toEqual({ max_identifier_length: '63' });
      expect(byName).toBe(0);
    }
  });
});

/**
 * Behind a pooler in transaction mode (DATABASE_POOLER_MODE=transaction) a server connection may change between
 * transactions, and such poolers follow only the protocol's prepared statements: marked statements in batches are
 * then parsed each time, and nothing is prepared with the SQL command.
 */
describe('marked statements in batches behind a pooler in transaction mode', () => {
  let pooled: TestApp;
  beforeAll(async () => {
    pooled = await startTestApp({ DATABASE_POOLER_MODE: 'transaction' });
  });
  afterAll(() => pooled.close());

  it('parses them each time and prepares nothing', async () => {
    const work = pooled.app.get(UnitOfWork);
    const me = await pooled.createUser();
    const sql = prepared('SELECT user_id, $2::int AS n FROM users WHERE user_id = $1 /* marked, pooled */');
    for (let i = 0; i < 12; i++) {
      const [rows, named] = await work.readTogether([
        { statement: { sql, values: [me.user_id, i] }, read: (r) => r },
        {
          statement: {
            sql: `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1`,
            values: [preparedName(sql)!],
          },
          read: (r) => (r as { n: number }[])[0].n,
        },
      ] as const);
      expect(rows).toEqual([{ user_id: me.user_id, n: i }]);
      expect(named).toBe(0);
    }
  });
});
