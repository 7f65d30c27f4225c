import type { EntityManager } from 'typeorm';
import { inlineStatement, UnitOfWork } from '../src/database/unit-of-work';
import { startTestApp, TestApp } from './harness';

/**
 * Transactions that open with inline statements (in the round trip of START TRANSACTION) and close with them (in
 * the round trip of COMMIT), on a real database: what they read comes back, what they write is kept with the
 * commit, and a failure anywhere keeps nothing and leaves the connection usable.
 */
describe('UnitOfWork.runInline', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  beforeAll(async () => {
    t = await startTestApp();
    uow = t.app.get(UnitOfWork);
  });
  afterAll(() => t.close());

  const lock = (user_id: number) =>
    inlineStatement('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [user_id]);
  const entry = (user_id: number, reference: string) =>
    inlineStatement(
      `INSERT INTO word_ledger (user_id, kind, words, source, reference)
       VALUES ($1, 'grant', 5, 'uow-test', $2) RETURNING reference`,
      [user_id, `${user_id}-${reference}`],
    );
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
    const { value, closed } = await uow.runInline([lock(me.user_id)], async (m, opened) => {
      await inside(m, me.user_id);
      return { value: opened, closing: [entry(me.user_id, 'closing')] };
    });
    expect(value).toEqual([[{ user_id: me.user_id }]]);
    expect(closed).toEqual([[{ reference: `${me.user_id}-closing` }]]);
    expect(await entries(me.user_id)).toEqual(['closing', 'inside']);
  });

  it('runs a statement whose values cannot be written inline alone, with its parameters, in its place', async () => {
    const me = await t.createUser();
    const noted = (reference: string) => ({
      sql: `INSERT INTO word_ledger (user_id, kind, words, source, reference, note)
            VALUES ($1, 'grant', 5, 'uow-test', $2, $3) RETURNING reference`,
      values: [me.user_id, `${me.user_id}-${reference}`, "a note with 'quotes'"],
    });
    const { value, closed } = await uow.runInline(
      [noted('opening'), lock(me.user_id)],
      async (m, opened) => ({
        value: opened,
        closing: [noted('closing'), entry(me.user_id, 'last')],
      }),
    );
    expect(value).toEqual([[{ reference: `${me.user_id}-opening` }], [{ user_id: me.user_id }]]);
    expect(closed).toEqual([[{ reference: `${me.user_id}-closing` }], [{ reference: `${me.user_id}-last` }]]);
    expect(await entries(me.user_id)).toEqual(['closing', 'last', 'opening']);
  });

  it('keeps nothing when a closing statement fails', async () => {
    const me = await t.createUser();
    await expect(
      uow.runInline([lock(me.user_id)], async (m) => {
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
      uow.runInline([lock(me.user_id), inlineStatement('SELECT 1 / $1', [0])], async () => ({ value: 1 })),
    ).rejects.toThrow(/division by zero/);
    await expect(
      uow.runInline([lock(me.user_id)], async (m) => {
        await inside(m, me.user_id);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await entries(me.user_id)).toEqual([]);
    // Every pooled connection is out of its transaction: many transactions at once all commit.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        uow.runInline([lock(me.user_id)], async () => ({
          value: i,
          closing: [entry(me.user_id, `after-${i}`)],
        })),
      ),
    );
    expect(await entries(me.user_id)).toHaveLength(12);
  });
});
