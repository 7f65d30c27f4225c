import { Client } from 'pg';
import { startTestApp, TEST_DATABASE_URL, TestApp, TestUser } from './harness';

/**
 * The analytics answer whole days from per-day summaries kept by triggers and the rest from rows. Every answer
 * here is compared with the figures computed directly over the rows (the queries the summaries replace), over
 * ranges that cut days at both ends, cross midnight, or hold no whole day, before and after status changes,
 * refunds, deletions, anonymised purchases of deleted customers and concurrent writes.
 */
describe('Analytics from the daily summaries', () => {
  let t: TestApp;
  let admin: TestUser;
  const users: number[] = [];
  const products: number[] = [];
  const avatars: number[] = [];

  const PAID = `('active', 'completed', 'cancelled', 'revoked')`;
  const RANGES: [string, string][] = [
    ['2021-03-01T00:00:00.000Z', '2021-04-01T00:00:00.000Z'],
    ['2021-03-10T12:00:00.000Z', '2021-03-12T06:30:00.000Z'],
    ['2021-03-10T23:59:59.999Z', '2021-03-11T00:00:00.001Z'],
    ['2021-03-11T00:00:00.000Z', '2021-03-11T00:00:00.001Z'],
    ['2021-03-11T00:00:00.001Z', '2021-03-13T00:00:00.000Z'],
    ['2021-02-15T08:00:00.000Z', '2022-02-15T08:00:00.000Z'],
    ['2020-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
  ];
  /** Times around the midnights of 2021-03-11 and 2021-03-12, and further away. */
  const TIMES = [
    '2021-03-10T11:59:59.999Z',
    '2021-03-10T12:00:00.000Z',
    '2021-03-10T23:59:59.999Z',
    '2021-03-10T23:59:59.9995Z',
    '2021-03-11T00:00:00.000Z',
    '2021-03-11T00:00:00.0004Z',
    '2021-03-11T00:00:00.001Z',
    '2021-03-11T15:00:00.000Z',
    '2021-03-12T06:29:59.999Z',
    '2021-03-12T06:30:00.000Z',
    '2021-03-12T23:59:59.999Z',
    '2021-03-31T23:59:59.999Z',
    '2021-04-01T00:00:00.000Z',
    '2021-02-15T07:59:59.999Z',
    '2021-09-01T10:00:00.000Z',
    '2022-02-15T07:59:59.999Z',
    '2022-02-15T08:00:00.000Z',
  ];
  const at = (i: number) => TIMES[i % TIMES.length];

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    t.db.query(sql, params) as Promise<T[]>;

  async function purchase(values: {
    user: number | null;
    product: number;
    status: string;
    amount: number;
    method: number;
    created: string;
    paid?: string | null;
    expires?: string | null;
    sub?: boolean;
    period_end?: string | null;
    cancelled?: string | null;
  }): Promise<number> {
    const [row] = await q<{ purchase_id: number }>(
      `INSERT INTO purchases (user_id, product_id, status, amount, payment_method_id, subscription_interval,
                              subscription_period, current_period_end, cancelled_at, cancel_reason, paid_at,
                              expires_at, "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN 1 END, CASE WHEN $6 THEN 'month' END, $7, $8,
               CASE WHEN $8::timestamptz IS NOT NULL THEN 'Too expensive' END, $9, $10, $11, $11)
       RETURNING purchase_id`,
      [
        values.user,
        values.product,
        values.status,
        values.amount,
        values.method,
        values.sub ?? false,
        values.period_end ?? null,
        values.cancelled ?? null,
        values.paid ?? null,
        values.expires ?? null,
        values.created,
      ],
    );
    return row.purchase_id;
  }

  async function invoice(values: {
    purchase: number | null;
    user: number | null;
    status: string;
    amount: number;
    method: number;
    paid?: string | null;
    period_end?: string | null;
    due?: string | null;
  }): Promise<number> {
    const [row] = await q<{ invoice_id: number }>(
      `INSERT INTO invoices (purchase_id, user_id, amount, status, payment_method_id, paid_at, period_end,
                             expiration_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING invoice_id`,
      [
        values.purchase,
        values.user,
        values.amount,
        values.status,
        values.method,
        values.paid ?? null,
        values.period_end ?? null,
        values.due ?? null,
      ],
    );
    return row.invoice_id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    for (let i = 0; i < 4; i++)
      products.push(
        (
          await q<{ product_id: number }>(
            `INSERT INTO products (name, description, price, word_amount, is_subscription)
             VALUES ($1, 'Words', 1000, 1000, $2) RETURNING product_id`,
            [`Daily product ${i}`, i % 2 === 0],
          )
        )[0].product_id,
      );
    // Customers signed up at each of the times.
    for (let i = 0; i < TIMES.length; i++)
      users.push(
        (
          await q<{ user_id: number }>(
            `INSERT INTO users (name, last_name, email, uid, password_hash, "createdAt")
             VALUES ('Daily', $1, $2, $3, 'x', $4) RETURNING user_id`,
            [`N${i}`, `daily${i}@example.com`, `daily-${i}`, at(i)],
          )
        )[0].user_id,
      );
    const statuses = ['completed', 'active', 'cancelled', 'revoked', 'failed', 'pending'];
    for (let i = 0; i < TIMES.length * 3; i++) {
      const status = statuses[i % statuses.length];
      const sub = i % 2 === 0;
      const paid = ['failed', 'pending'].includes(status) ? null : at(i);
      const id = await purchase({
        user: users[i % users.length],
        product: products[i % products.length],
        status,
        amount: 1000 + i * 37,
        method: 1 + (i % 5),
        created: at(i + 3),
        paid,
        sub,
        expires: sub ? null : i % 7 === 0 ? at(i + 1) : at(i + 9),
        period_end: sub && status === 'active' ? at(i + 5) : null,
        cancelled: status === 'cancelled' ? at(i + 2) : null,
      });
      if (sub && paid) {
        // A renewal (it has a period), the first payment's invoice (no period: counted as the purchase), an
        // open invoice falling due, and a failed one.
        await invoice({
          purchase: id,
          user: users[i % users.length],
          status: 'completed',
          amount: 500 + i,
          method: 1 + (i % 3),
          paid: at(i + 4),
          period_end: at(i + 6),
        });
        await invoice({
          purchase: id,
          user: users[i % users.length],
          status: 'completed',
          amount: 1000 + i * 37,
          method: 2,
          paid: at(i),
          period_end: null,
        });
        await invoice({
          purchase: id,
          user: users[i % users.length],
          status: 'pending',
          amount: 700 + i,
          method: 1,
          due: at(i + 7),
        });
      }
    }
    // Invoices staff marked paid without a purchase, and one waiting.
    for (let i = 0; i < 5; i++)
      await invoice({
        purchase: null,
        user: users[i],
        status: 'completed',
        amount: 900 + i,
        method: 3 + (i % 2),
        paid: at(i * 3),
      });
    await invoice({ purchase: null, user: users[1], status: 'pending', amount: 333, method: 1, due: at(8) });
    // Words generated (debits) and granted.
    for (let i = 0; i < TIMES.length * 2; i++)
      await q(
        `INSERT INTO word_ledger (user_id, kind, words, source, "createdAt") VALUES ($1, $2, $3, $4, $5)`,
        [
          users[i % users.length],
          i % 5 === 0 ? 'grant' : 'debit',
          i % 5 === 0 ? 5000 : -(10 + i),
          'test',
          at(i),
        ],
      );
    // Conversations with avatars (chats and threads), several per user and avatar, created out of time order;
    // the first ones one statement each, the rest in one statement.
    for (let i = 0; i < 3; i++)
      avatars.push(
        (
          await q<{ avatar_id: number }>(
            `INSERT INTO avatars (assistant_id, user_id, name) VALUES ($1, $2, $3) RETURNING avatar_id`,
            [`asst_daily_${i}`, users[0], `Daily avatar ${i}`],
          )
        )[0].avatar_id,
      );
    // A few of them threads (one per user and avatar).
    const thread = (i: number) => i < 12 && i % 4 === 3;
    const conversation = (i: number) => [
      users[i % 6],
      thread(i) ? null : avatars[i % 3],
      thread(i) ? avatars[(i + 1) % 3] : null,
      at(i * 5),
    ];
    for (let i = 0; i < TIMES.length; i++)
      await q(
        `INSERT INTO conversations (user_id, name, avatar_id, thread_avatar_id, "createdAt")
         VALUES ($1, 'daily', $2, $3, $4)`,
        conversation(i),
      );
    const rest = Array.from({ length: TIMES.length * 3 }, (_, k) => conversation(TIMES.length + k));
    await q(
      `INSERT INTO conversations (user_id, name, avatar_id, thread_avatar_id, "createdAt")
       VALUES ${rest.map((_, k) => `($${k * 4 + 1}, 'daily', $${k * 4 + 2}, $${k * 4 + 3}, $${k * 4 + 4})`).join(', ')}`,
      rest.flat(),
    );
    // And some without an avatar.
    for (let i = 0; i < 5; i++)
      await q(`INSERT INTO conversations (user_id, name, "createdAt") VALUES ($1, 'plain', $2)`, [
        users[i],
        at(i),
      ]);
  });
  afterAll(() => t.close());

  const get = async (path: string) =>
    (await t.http().get(path).set('Authorization', admin.auth).expect(200)).body;
  const range = ([from, to]: [string, string]) =>
    `start_date=${encodeURIComponent(from)}&end_date=${encodeURIComponent(to)}`;

  type Money = { key: number | null; payments: number; total: number };
  const byTotal = (a: Money, b: Money) => b.total - a.total || (a.key ?? -1) - (b.key ?? -1);

  /** The income of [from, to) computed over the rows, as the purchases module sums it. */
  async function money(from: string, to: string, by: 'payment_method_id' | 'product_id'): Promise<Money[]> {
    const invoiceKey = by === 'product_id' ? 'p.product_id' : 'i.payment_method_id';
    const join = by === 'product_id' ? 'JOIN purchases p ON p.purchase_id = i.purchase_id' : '';
    const rows = await q<{ key: number | null; payments: number; total: string }>(
      `SELECT key, sum(payments)::int AS payments, sum(total)::bigint AS total FROM (
         SELECT p.${by} AS key, count(*) AS payments, sum(p.amount - p.refunded_amount) AS total FROM purchases p
          WHERE p.paid_at >= $1 AND p.paid_at < $2 AND p.status IN ${PAID} GROUP BY 1
         UNION ALL
         SELECT ${invoiceKey}, count(*), sum(i.amount - i.refunded_amount) FROM invoices i ${join}
          WHERE i.status = 'completed' AND i.paid_at >= $1 AND i.paid_at < $2
            AND (i.period_end IS NOT NULL OR i.purchase_id IS NULL) GROUP BY 1) x
       GROUP BY key`,
      [from, to],
    );
    return rows.map((r) => ({ key: r.key, payments: r.payments, total: Number(r.total) })).sort(byTotal);
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    return Number((await q<{ n: string }>(sql, params))[0].n);
  }

  async function expectRange([from, to]: [string, string]) {
    const r = range([from, to]);
    const income = await get(`/api/analytics/income?${r}`);
    const methods = await money(from, to, 'payment_method_id');
    expect(
      income.payment_methods.map((m: { payment_method_id: number; payments: number; total: number }) => ({
        key: m.payment_method_id,
        payments: m.payments,
        total: m.total,
      })),
    ).toEqual(methods);
    expect(income.total_income).toBe(methods.reduce((s, m) => s + m.total, 0));
    expect(income.total_payments).toBe(methods.reduce((s, m) => s + m.payments, 0));

    const purchases = await get(`/api/analytics/purchases?${r}`);
    const perProduct = await money(from, to, 'product_id');
    expect(
      purchases.products.map((p: { product_id: number; purchases: number; total: number }) => ({
        key: p.product_id,
        payments: p.purchases,
        total: p.total,
      })),
    ).toEqual(perProduct);

    const words = await get(`/api/analytics/words?${r}`);
    expect(words.words).toBe(
      await count(
        `SELECT COALESCE(-sum(words), 0) AS n FROM word_ledger WHERE kind = 'debit' AND "createdAt" >= $1 AND "createdAt" < $2`,
        [from, to],
      ),
    );

    const customers = await get(`/api/analytics/customers?${r}`);
    // Each card's table over one page of the most rows a page holds (the seed's range holds fewer).
    const table = async (group: string) =>
      (await get(`/api/analytics/customers/${group}?${r}&limit=200`)).customers as {
        user_id: number;
        date: string;
      }[];
    const signUps = await q<{ user_id: number }>(
      `SELECT user_id FROM users WHERE "createdAt" >= $1 AND "createdAt" < $2 ORDER BY "createdAt" DESC, user_id DESC`,
      [from, to],
    );
    expect(customers.sign_ups.count).toBe(signUps.length);
    expect((await table('sign_ups')).map((c) => c.user_id)).toEqual(signUps.map((u) => u.user_id));
    const running = `p.status IN ('active', 'completed') AND p."createdAt" < $2
                     AND (p.expires_at IS NULL OR p.expires_at >= $1)`;
    expect(customers.active.count).toBe(
      await count(`SELECT count(DISTINCT p.user_id) AS n FROM purchases p WHERE ${running}`, [from, to]),
    );
    const active = await q<{ user_id: number | null; since: Date }>(
      `SELECT p.user_id, max(p."createdAt") AS since FROM purchases p WHERE ${running}
        GROUP BY p.user_id ORDER BY since DESC, user_id DESC`,
      [from, to],
    );
    expect((await table('active')).map((c) => [c.user_id, c.date])).toEqual(
      active
        .filter((a): a is { user_id: number; since: Date } => a.user_id !== null)
        .map((a) => [a.user_id, a.since.toISOString()]),
    );
    expect(active.length).toBeLessThan(200);
    const cancelled = await q<{ user_id: number | null }>(
      `SELECT user_id FROM purchases WHERE cancelled_at >= $1 AND cancelled_at < $2
        ORDER BY cancelled_at DESC, purchase_id DESC`,
      [from, to],
    );
    expect(customers.cancelled.count).toBe(cancelled.length);
    expect((await table('cancelled')).map((c) => c.user_id)).toEqual(
      cancelled.flatMap((c) => (c.user_id === null ? [] : [c.user_id])),
    );

    const reservations = await get(`/api/analytics/reservations?${r}`);
    const renewals = await q<{ purchase_id: number; amount: number }>(
      `SELECT purchase_id, amount FROM purchases
        WHERE status = 'active' AND subscription_interval IS NOT NULL AND NOT cancel_at_period_end
          AND current_period_end >= $1 AND current_period_end < $2 ORDER BY current_period_end, purchase_id`,
      [from, to],
    );
    expect(reservations.renewals.count).toBe(renewals.length);
    expect(reservations.renewals.total).toBe(renewals.reduce((s, p) => s + p.amount, 0));
    expect(reservations.renewals.items.map((p: { purchase_id: number }) => p.purchase_id)).toEqual(
      renewals.slice(0, 100).map((p) => p.purchase_id),
    );
    const open = await q<{ invoice_id: number; amount: number }>(
      `SELECT invoice_id, amount FROM invoices WHERE status = 'pending'
          AND expiration_date >= $1 AND expiration_date < $2 ORDER BY expiration_date, invoice_id`,
      [from, to],
    );
    expect(reservations.open_invoices.count).toBe(open.length);
    expect(reservations.open_invoices.total).toBe(open.reduce((s, i) => s + i.amount, 0));
    expect(reservations.expected_total).toBe(reservations.renewals.total + reservations.open_invoices.total);

    const instructors = await get(`/api/analytics/instructors?${r}`);
    const usage = await q<{ avatar_id: number; conversations: number; users: number }>(
      `SELECT COALESCE(avatar_id, thread_avatar_id) AS avatar_id, count(*)::int AS conversations,
              count(DISTINCT user_id)::int AS users
         FROM conversations
        WHERE COALESCE(avatar_id, thread_avatar_id) IS NOT NULL AND "createdAt" >= $1 AND "createdAt" < $2
        GROUP BY 1 ORDER BY conversations DESC, avatar_id`,
      [from, to],
    );
    expect(instructors.avatars).toEqual(usage.map((a) => expect.objectContaining(a)));
    expect(instructors.conversations).toBe(usage.reduce((s, a) => s + a.conversations, 0));

    if (new Date(to).getTime() - new Date(from).getTime() <= 400 * 86_400_000) {
      const monthly = await get(`/api/analytics/monthly?${r}`);
      for (const m of monthly.months as {
        month: string;
        income: number;
        payments: number;
        sign_ups: number;
        words: number;
      }[]) {
        const start = new Date(`${m.month}-01T00:00:00.000Z`);
        const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        const mFrom = (start < new Date(from) ? new Date(from) : start).toISOString();
        const mTo = (next > new Date(to) ? new Date(to) : next).toISOString();
        const rows = await money(mFrom, mTo, 'payment_method_id');
        expect([m.income, m.payments]).toEqual([
          rows.reduce((s, x) => s + x.total, 0),
          rows.reduce((s, x) => s + x.payments, 0),
        ]);
        expect(m.sign_ups).toBe(
          await count(`SELECT count(*) AS n FROM users WHERE "createdAt" >= $1 AND "createdAt" < $2`, [
            mFrom,
            mTo,
          ]),
        );
      }
    }
  }

  async function expectEveryRange() {
    for (const r of RANGES) await expectRange(r);
    // Each conversation's previous one with the same avatar, as its triggers keep it, against the rows.
    const wrong = await q(
      `SELECT c.conversation_id FROM conversations c
         LEFT JOIN (SELECT conversation_id, lag("createdAt") OVER (
                            PARTITION BY user_id, COALESCE(avatar_id, thread_avatar_id)
                            ORDER BY "createdAt", conversation_id) AS previous
                      FROM conversations WHERE COALESCE(avatar_id, thread_avatar_id) IS NOT NULL) p
           USING (conversation_id)
        WHERE c.previous_with_avatar_at IS DISTINCT FROM p.previous`,
    );
    expect(wrong).toEqual([]);
  }

  it('answers every call as the rows do, over ranges that cut days', async () => {
    await expectEveryRange();
    // The seeded figures are not empty, so the comparisons above compare something.
    const march = await get(`/api/analytics/income?${range(RANGES[0])}`);
    expect(march.total_payments).toBeGreaterThan(10);
    const year = await get(`/api/analytics/customers?${range(RANGES[5])}`);
    expect(year.active.count).toBeGreaterThan(3);
    // Users with several conversations with one avatar: users and conversations differ.
    const usage = (await get(`/api/analytics/instructors?${range(RANGES[6])}`)).avatars as {
      conversations: number;
      users: number;
    }[];
    expect(usage).toHaveLength(3);
    expect(usage.every((a) => a.users < a.conversations)).toBe(true);
  });

  it('follows status changes, refunds and edits of the rows', async () => {
    // A pending purchase paid, a completed one refunded in part, a subscription cancelled at period end.
    await q(
      `UPDATE purchases SET status = 'completed', paid_at = $1 WHERE purchase_id = (
               SELECT min(purchase_id) FROM purchases WHERE status = 'pending')`,
      [TIMES[5]],
    );
    await q(`UPDATE purchases SET refunded_amount = 200 WHERE purchase_id IN (
               SELECT purchase_id FROM purchases WHERE status = 'completed' ORDER BY purchase_id LIMIT 3)`);
    await q(`UPDATE purchases SET cancel_at_period_end = true WHERE purchase_id = (
               SELECT min(purchase_id) FROM purchases WHERE status = 'active' AND current_period_end IS NOT NULL)`);
    await q(
      `UPDATE purchases SET status = 'cancelled', cancelled_at = $1 WHERE purchase_id = (
               SELECT max(purchase_id) FROM purchases WHERE status = 'active')`,
      [TIMES[7]],
    );
    // A running purchase that expired earlier than thought, one moved across midnight, one that expires before
    // it was created.
    await q(
      `UPDATE purchases SET expires_at = $1 WHERE purchase_id = (
               SELECT min(purchase_id) FROM purchases WHERE status = 'completed' AND expires_at IS NOT NULL)`,
      [TIMES[2]],
    );
    await q(`UPDATE purchases SET paid_at = paid_at + interval '1 day', "createdAt" = "createdAt" - interval '3 days'
              WHERE purchase_id = (SELECT max(purchase_id) FROM purchases WHERE status = 'completed')`);
    await purchase({
      user: users[3],
      product: products[1],
      status: 'completed',
      amount: 4321,
      method: 2,
      created: TIMES[8],
      paid: TIMES[8],
      expires: TIMES[1],
    });
    // An open invoice paid, a renewal refunded, a renewal's amount changed, one due date moved.
    await q(
      `UPDATE invoices SET status = 'completed', paid_at = $1, period_end = $2 WHERE invoice_id = (
               SELECT min(invoice_id) FROM invoices WHERE status = 'pending')`,
      [TIMES[6], TIMES[9]],
    );
    await q(`UPDATE invoices SET refunded_amount = 100 WHERE invoice_id = (
               SELECT min(invoice_id) FROM invoices WHERE status = 'completed' AND period_end IS NOT NULL)`);
    await q(
      `UPDATE invoices SET amount = amount + 11, expiration_date = $1 WHERE invoice_id = (
               SELECT max(invoice_id) FROM invoices WHERE status = 'pending')`,
      [TIMES[4]],
    );
    // A debit corrected, a sign-up moved.
    await q(
      `UPDATE word_ledger SET words = words - 5 WHERE entry_id = (SELECT min(entry_id) FROM word_ledger WHERE kind = 'debit')`,
    );
    await q(`UPDATE users SET "createdAt" = $1 WHERE user_id = $2`, [TIMES[3], users[10]]);
    // Conversations moved to another avatar, another user, another time; one losing its avatar, one gaining one.
    const ids = (
      await q<{ conversation_id: number }>(
        `SELECT conversation_id FROM conversations WHERE name = 'daily' ORDER BY conversation_id LIMIT 6`,
      )
    ).map((c) => c.conversation_id);
    await q(`UPDATE conversations SET avatar_id = $1, thread_avatar_id = NULL WHERE conversation_id = $2`, [
      avatars[2],
      ids[0],
    ]);
    await q(`UPDATE conversations SET user_id = $1 WHERE conversation_id = $2`, [users[7], ids[1]]);
    await q(`UPDATE conversations SET "createdAt" = $1 WHERE conversation_id IN ($2, $3)`, [
      TIMES[0],
      ids[2],
      ids[3],
    ]);
    await q(`UPDATE conversations SET avatar_id = NULL, thread_avatar_id = NULL WHERE conversation_id = $1`, [
      ids[4],
    ]);
    await q(`UPDATE conversations SET avatar_id = $1 WHERE name = 'plain' AND user_id = $2`, [
      avatars[1],
      users[1],
    ]);
    // A rename touches nothing the count reads.
    await q(`UPDATE conversations SET name = 'renamed' WHERE conversation_id = $1`, [ids[5]]);
    await expectEveryRange();
  });

  it('follows deletions: invoices, purchases, debits, and customers whose purchases stay anonymised', async () => {
    await q(
      `DELETE FROM invoices WHERE invoice_id = (SELECT max(invoice_id) FROM invoices WHERE status = 'completed' AND period_end IS NOT NULL)`,
    );
    // A purchase with invoices deleted: they stay without a purchase (and count as paid without one).
    await q(`DELETE FROM purchases WHERE purchase_id = (
               SELECT max(i.purchase_id) FROM invoices i WHERE i.status = 'completed' AND i.period_end IS NOT NULL)`);
    await q(
      `DELETE FROM word_ledger WHERE entry_id = (SELECT max(entry_id) FROM word_ledger WHERE kind = 'debit')`,
    );
    const anonymised = await count(`SELECT count(*) AS n FROM purchases WHERE user_id = $1`, [users[4]]);
    expect(anonymised).toBeGreaterThan(0);
    await t.http().delete(`/api/users/admin/${users[4]}`).set('Authorization', admin.auth).expect(204);
    await q(`DELETE FROM users WHERE user_id = $1`, [users[5]]);
    expect(await count(`SELECT count(*) AS n FROM purchases WHERE user_id IS NULL`, [])).toBeGreaterThan(0);
    // One user's conversation with an avatar between two others, and several of another user's in one statement.
    await q(
      `DELETE FROM conversations WHERE conversation_id = (
               SELECT conversation_id FROM conversations WHERE user_id = $1 AND avatar_id IS NOT NULL
                ORDER BY "createdAt", conversation_id OFFSET 1 LIMIT 1)`,
      [users[0]],
    );
    await q(
      `DELETE FROM conversations WHERE conversation_id IN (
               SELECT conversation_id FROM conversations WHERE user_id = $1 ORDER BY conversation_id LIMIT 3)`,
      [users[2]],
    );
    await expectEveryRange();
  });

  it('stays exact under concurrent writes to the same days', async () => {
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      writes.push(
        purchase({
          user: users[(i % 5) + 6],
          product: products[i % 2],
          status: 'completed',
          amount: 100 + i,
          method: 1,
          created: TIMES[4],
          paid: TIMES[4 + (i % 2)],
          expires: i % 3 ? null : TIMES[9],
        }),
      );
      writes.push(
        q(
          `INSERT INTO word_ledger (user_id, kind, words, source, "createdAt") VALUES ($1, 'debit', $2, 'test', $3)`,
          [users[i % 3], -(i + 1), TIMES[4 + (i % 3)]],
        ),
      );
      writes.push(
        q(`UPDATE purchases SET refunded_amount = refunded_amount + 1 WHERE purchase_id = (
                       SELECT min(purchase_id) FROM purchases WHERE status = 'completed' AND paid_at IS NOT NULL)`),
      );
    }
    // One user's conversations with one avatar, created at once at times out of order.
    for (let i = 0; i < 12; i++)
      writes.push(
        q(
          `INSERT INTO conversations (user_id, name, avatar_id, "createdAt") VALUES ($1, 'at once', $2, $3)`,
          [users[3], avatars[i % 2], at(i * 7)],
        ),
      );
    await Promise.all(writes);
    await expectEveryRange();
  });

  it("counts an avatar's users exactly when two transactions add one user's conversations with it at once", async () => {
    const first = t.db.createQueryRunner();
    await first.connect();
    try {
      await first.startTransaction();
      await first.query(
        `INSERT INTO conversations (user_id, name, avatar_id, "createdAt") VALUES ($1, 'first', $2, $3)`,
        [users[8], avatars[2], TIMES[1]],
      );
      // Made while the first is not yet committed: it waits for it, then counts it as its previous one.
      const second = q(
        `INSERT INTO conversations (user_id, name, avatar_id, "createdAt") VALUES ($1, 'second', $2, $3)`,
        [users[8], avatars[2], TIMES[7]],
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.commitTransaction();
      await second;
    } finally {
      await first.release();
    }
    const [later] = await q<{ previous_with_avatar_at: Date }>(
      `SELECT previous_with_avatar_at FROM conversations WHERE name = 'second' AND user_id = $1`,
      [users[8]],
    );
    expect(later.previous_with_avatar_at.toISOString()).toBe(TIMES[1]);
    await expectEveryRange();
  });

  it("answers the dashboard's today and month as the rows do", async () => {
    const now = new Date();
    const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const today = new Date((todayStart.getTime() + now.getTime()) / 2).toISOString();
    const earlier = new Date(monthStart.getTime() + 3_600_000).toISOString();
    for (const when of [today, earlier, new Date(todayStart.getTime() - 1).toISOString()]) {
      await purchase({
        user: users[2],
        product: products[0],
        status: 'completed',
        amount: 2500,
        method: 4,
        created: when,
        paid: when,
      });
      await q(
        `INSERT INTO word_ledger (user_id, kind, words, source, "createdAt") VALUES ($1, 'debit', -77, 'test', $2)`,
        [users[2], when],
      );
      await q(
        `INSERT INTO users (name, last_name, email, uid, password_hash, "createdAt") VALUES ('D', 'D', $1, $1, 'x', $2)`,
        [`dash-${when}@example.com`, when],
      );
    }
    await purchase({
      user: users[2],
      product: products[0],
      status: 'active',
      amount: 2500,
      method: 4,
      created: today,
      paid: today,
      sub: true,
    });
    // Failed payments today and earlier this month (the purchase's updatedAt is its creation here).
    for (const when of [today, earlier])
      await purchase({
        user: users[2],
        product: products[0],
        status: 'failed',
        amount: 2500,
        method: 4,
        created: when,
      });
    const dash = await get('/api/analytics/dashboard');
    const end = new Date(Date.now() + 1).toISOString();
    const figures = async (from: string) => {
      const rows = await money(from, end, 'payment_method_id');
      return {
        sign_ups: await count(
          `SELECT count(*) AS n FROM users WHERE "createdAt" >= $1 AND "createdAt" < $2`,
          [from, end],
        ),
        income: rows.reduce((s, r) => s + r.total, 0),
        payments: rows.reduce((s, r) => s + r.payments, 0),
        words: await count(
          `SELECT COALESCE(-sum(words), 0) AS n FROM word_ledger WHERE kind = 'debit' AND "createdAt" >= $1 AND "createdAt" < $2`,
          [from, end],
        ),
      };
    };
    const d = await figures(todayStart.toISOString());
    const m = await figures(monthStart.toISOString());
    expect(dash.sign_ups).toEqual({ today: d.sign_ups, month: m.sign_ups });
    expect(dash.income).toEqual({ today: d.income, month: m.income });
    expect(dash.payments).toEqual({ today: d.payments, month: m.payments });
    expect(dash.words_generated).toEqual({ today: d.words, month: m.words });
    const failed = async (from: string) =>
      (await count(
        `SELECT count(*) AS n FROM purchases WHERE status = 'failed' AND "updatedAt" >= $1 AND "updatedAt" < $2`,
        [from, end],
      )) +
      (await count(
        `SELECT count(*) AS n FROM invoices WHERE status = 'failed' AND "updatedAt" >= $1 AND "updatedAt" < $2`,
        [from, end],
      ));
    expect(dash.failed_payments).toEqual({
      today: await failed(todayStart.toISOString()),
      month: await failed(monthStart.toISOString()),
    });
    expect(d.income).toBeGreaterThan(0);
    expect(dash.active_subscriptions).toBe(
      await count(
        `SELECT count(*) AS n FROM purchases WHERE status = 'active' AND subscription_interval IS NOT NULL`,
        [],
      ),
    );
  });

  it('answers the customer list total from the sign-ups summary, and searches', async () => {
    const list = await get('/api/users/admin/all');
    expect(list.total).toBe(await count(`SELECT count(*) AS n FROM users`, []));
    const search = await get('/api/users/admin/all?query=DAILY1');
    const matches = await q<{ user_id: number }>(
      `SELECT user_id FROM users WHERE lower(email) LIKE '%daily1%' OR lower(name) LIKE '%daily1%'
          OR lower(last_name) LIKE '%daily1%' ORDER BY user_id DESC`,
    );
    expect(search.total).toBe(matches.length);
    expect(search.users.map((u: { user_id: number }) => u.user_id)).toEqual(matches.map((m) => m.user_id));
    expect(matches.length).toBeGreaterThan(1);
  });
  it('keeps the summaries from a session whose search path does not name the schema (a manual fix, a tool)', async () => {
    const schema = t.env.databaseSchema!;
    const before = await get('/api/users/admin/all');
    const outside = new Client({ connectionString: TEST_DATABASE_URL });
    await outside.connect();
    try {
      await outside.query(
        `INSERT INTO "${schema}".users (email, password_hash, name, uid)
         VALUES ('outside-tool@example.com', 'x', 'Outside', 'outside-tool-uid')`,
      );
      await outside.query(
        `UPDATE "${schema}".users SET name = 'Outside2' WHERE email = 'outside-tool@example.com'`,
      );
    } finally {
      await outside.end();
    }
    const after = await get('/api/users/admin/all');
    expect(after.total).toBe(before.total + 1);
  });
});
