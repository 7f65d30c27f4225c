import { startTestApp, TestApp, TestUser } from './harness';

describe('Analytics API', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  let buyer: TestUser;
  let other: TestUser;
  let plan: number;
  let pack: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
    buyer = await t.createUser({ name: 'Bea', last_name: 'Buyer' });
    other = await t.createUser({ name: 'Otto', last_name: 'Other' });
    const product = async (name: string, extra: object = {}) =>
      (
        await t
          .http()
          .post('/api/products')
          .set('Authorization', admin.auth)
          .send({ name, description: 'Words', price: 1000, word_amount: 5000, ...extra })
          .expect(201)
      ).body.product.product_id as number;
    plan = await product('Analytics plan', { is_subscription: true });
    pack = await product('Analytics pack');
    const give = (user_id: number, product_id: number, total: number, payment_method_id: number) =>
      t
        .http()
        .post('/api/users/giveAccess')
        .set('Authorization', admin.auth)
        .send({ user_id, product_id, gift: total === 0, total, payment_method_id })
        .expect(201);
    await give(buyer.user_id, plan, 123456, 3);
    await give(other.user_id, pack, 50000, 4);
    await give(other.user_id, plan, 0, 5);
    const sub = await t.db.query(`SELECT purchase_id FROM purchases WHERE user_id = $1 AND product_id = $2`, [
      buyer.user_id,
      plan,
    ]);
    await t
      .http()
      .put('/api/purchases/admin')
      .set('Authorization', admin.auth)
      .send({ purchase_id: sub[0].purchase_id, status: 'cancelled', cancel_reason: 'Too expensive for now' })
      .expect(200);
  });
  afterAll(() => t.close());

  const get = (who: TestUser, url: string) => t.http().get(url).set('Authorization', who.auth);

  it('answers income of the current month by default: totals and per payment method', async () => {
    const res = (await get(manager, '/api/analytics/income').expect(200)).body;
    const now = new Date();
    expect(new Date(res.start_date).toISOString()).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    );
    expect(res.total_income).toBe(173456);
    expect(res.total_payments).toBe(3);
    expect(res.payment_methods).toEqual([
      { payment_method_id: 3, name: 'cash', payments: 1, total: 123456 },
      { payment_method_id: 4, name: 'transfer', payments: 1, total: 50000 },
      { payment_method_id: 5, name: 'gift', payments: 1, total: 0 },
    ]);
    const empty = (
      await get(admin, '/api/analytics/income?start_date=2001-01-01&end_date=2001-02-01').expect(200)
    ).body;
    expect(empty).toMatchObject({ total_income: 0, total_payments: 0, payment_methods: [] });
  });

  it('answers purchases and income per product', async () => {
    const res = (await get(admin, '/api/analytics/purchases').expect(200)).body;
    expect(res.products).toEqual([
      { product_id: plan, name: 'Analytics plan', purchases: 2, total: 123456 },
      { product_id: pack, name: 'Analytics pack', purchases: 1, total: 50000 },
    ]);
    expect(res.total).toBe(173456);
  });

  it("answers how many signed up, are active and cancelled, and each card's table page by page", async () => {
    const res = (await get(manager, '/api/analytics/customers').expect(200)).body;
    expect(res.sign_ups.count).toBeGreaterThanOrEqual(4);
    expect(res.active).toEqual({ count: 1 });
    expect(res.cancelled).toEqual({ count: 1 });
    const page = async (group: string, query = '') =>
      (await get(manager, `/api/analytics/customers/${group}${query}`).expect(200)).body;
    const signUps = await page('sign_ups');
    expect(signUps).toMatchObject({ page: 1, limit: 20 });
    expect(signUps.customers.map((c: { user_id: number }) => c.user_id)).toContain(buyer.user_id);
    expect((await page('active')).customers).toEqual([
      expect.objectContaining({ user_id: other.user_id, name: 'Otto' }),
    ]);
    expect((await page('cancelled')).customers).toEqual([
      expect.objectContaining({
        user_id: buyer.user_id,
        cancel_reason: 'Too expensive for now',
        product: 'Analytics plan',
      }),
    ]);
    // Pages follow one another newest first, without a gap or a repeat.
    const ids = signUps.customers.map((c: { user_id: number }) => c.user_id);
    const oneByOne = [];
    for (let n = 1; n <= ids.length; n++)
      oneByOne.push(
        ...(await page('sign_ups', `?limit=1&page=${n}`)).customers.map(
          (c: { user_id: number }) => c.user_id,
        ),
      );
    expect(oneByOne).toEqual(ids);
    expect((await page('sign_ups', `?limit=1&page=${ids.length + 1}`)).customers).toEqual([]);
    expect((await page('cancelled', '?start_date=2001-01-01&end_date=2001-02-01')).customers).toEqual([]);
  });

  it('refuses an unknown table, a bad page and customers asking for a table', async () => {
    const unknown = await get(admin, '/api/analytics/customers/everyone').expect(400);
    expect(unknown.body.message).toContain('group must be one of sign_ups, active, cancelled.');
    expect((await get(admin, '/api/analytics/customers/active?page=0').expect(400)).body.code).toBe(
      'validation_failed',
    );
    await get(admin, '/api/analytics/customers/active?limit=201').expect(400);
    const reversed = await get(
      admin,
      '/api/analytics/customers/cancelled?start_date=2026-02-01&end_date=2026-01-01',
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('invalid_date_range');
    await get(buyer, '/api/analytics/customers/sign_ups').expect(403);
    await t.http().get('/api/analytics/customers/sign_ups').expect(401);
  });

  it("answers the dashboard: today's and this month's figures and what needs attention", async () => {
    const res = (await get(manager, '/api/analytics/dashboard').expect(200)).body;
    expect(res.income).toEqual({ today: 173456, month: 173456 });
    expect(res.payments).toEqual({ today: 3, month: 3 });
    expect(res.sign_ups.today).toBeGreaterThanOrEqual(4);
    expect(res.failed_payments).toEqual({ today: 0, month: 0 });
    // Otto's gift of the subscription plan renews; Bea's was cancelled.
    expect(res.active_subscriptions).toBe(1);
    expect(res.pending_invoices).toBe(0);
    await t
      .http()
      .post('/api/invoices/admin')
      .set('Authorization', admin.auth)
      .send({ user_id: buyer.user_id, amount: 2500 })
      .expect(201);
    const after = (await get(admin, '/api/analytics/dashboard').expect(200)).body;
    expect(after.pending_invoices).toBe(1);
    await get(buyer, '/api/analytics/dashboard').expect(403);
  });

  it('answers words generated and the monthly figures', async () => {
    const words = (await get(manager, '/api/analytics/words').expect(200)).body;
    expect(words.words).toBe(0);
    const monthly = (await get(admin, '/api/analytics/monthly').expect(200)).body;
    expect(monthly.months).toHaveLength(1);
    expect(monthly.months[0]).toMatchObject({ income: 173456, payments: 3, words: 0 });
    expect(monthly.months[0].sign_ups).toBeGreaterThanOrEqual(4);
    const long = await get(admin, '/api/analytics/monthly?start_date=2020-01-01&end_date=2026-01-01').expect(
      400,
    );
    expect(long.body.code).toBe('invalid_date_range');
  });

  it('answers income, purchases and sign-ups reports as CSV files', async () => {
    const income = await get(manager, '/api/analytics/income/report').expect(200);
    expect(income.headers['content-type']).toMatch(/^text\/csv/);
    expect(income.headers['content-disposition']).toMatch(/attachment; filename="income-\d{4}-\d{2}-01-/);
    expect(income.text).toBe(
      'payment_method,payments,total_usd\r\ncash,1,1234.56\r\ntransfer,1,500.00\r\ngift,1,0.00\r\ntotal,3,1734.56\r\n',
    );
    const purchases = (await get(admin, '/api/analytics/purchases/report').expect(200)).text;
    expect(purchases.split('\r\n')[1]).toBe(`${plan},Analytics plan,2,1234.56`);
    const signUps = (await get(admin, '/api/analytics/customers/report').expect(200)).text;
    expect(signUps).toContain(`${buyer.user_id},Bea,Buyer,${buyer.email},`);
    await get(buyer, '/api/analytics/customers/report').expect(403);
  });

  it('refuses customers, a reversed range and a bad date', async () => {
    for (const path of ['income', 'purchases', 'customers']) {
      await get(buyer, `/api/analytics/${path}`).expect(403);
      await t.http().get(`/api/analytics/${path}`).expect(401);
    }
    const reversed = await get(
      admin,
      '/api/analytics/income?start_date=2026-02-01&end_date=2026-01-01',
    ).expect(400);
    expect(reversed.body.code).toBe('invalid_date_range');
    expect((await get(admin, '/api/analytics/income?start_date=soon').expect(400)).body.code).toBe(
      'validation_failed',
    );
  });
});

describe('Analytics API: free trials, instructors, reservations, videos and what needs attention', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  let ana: TestUser;
  let ben: TestUser;
  let trialPlan: number;
  const now = Date.now();
  const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
  // A range around today that does not depend on where in the month the test runs.
  const around = `start_date=${day(-5)}&end_date=${day(10)}`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
    ana = await t.createUser({ name: 'Ana', last_name: 'Avila' });
    ben = await t.createUser({ name: 'Ben', last_name: 'Bell' });
    trialPlan = (
      await t
        .http()
        .post('/api/products')
        .set('Authorization', admin.auth)
        .send({
          name: 'Trial plan',
          description: 'Words',
          price: 1900,
          word_amount: 5000,
          is_subscription: true,
          free_trial_period: true,
          free_trial_length: 7,
        })
        .expect(201)
    ).body.product.product_id;
    for (const user of [ana, ben])
      await t
        .http()
        .post('/api/users/giveAccess')
        .set('Authorization', admin.auth)
        .send({
          user_id: user.user_id,
          product_id: trialPlan,
          gift: false,
          total: 1900,
          payment_method_id: 3,
        })
        .expect(201);
  });
  afterAll(() => t.close());

  const get = (who: TestUser, url: string) => t.http().get(url).set('Authorization', who.auth);
  const purchaseOf = async (user: TestUser) =>
    (await t.db.query(`SELECT purchase_id FROM purchases WHERE user_id = $1`, [user.user_id]))[0]
      .purchase_id as number;

  it('answers the free trials begun in the range per product, and how many paid or were cancelled', async () => {
    const before = (await get(manager, `/api/analytics/free_trials?${around}`).expect(200)).body;
    expect(before).toMatchObject({ started: 2, converted: 0, cancelled: 0 });
    // Ana pays her first charge after the trial; Ben cancels.
    await t.db.query(
      `INSERT INTO invoices (purchase_id, user_id, amount, status, paid_at, period_end)
       VALUES ($1, $2, 1900, 'completed', now(), now() + interval '30 days')`,
      [await purchaseOf(ana), ana.user_id],
    );
    await t
      .http()
      .put('/api/purchases/admin')
      .set('Authorization', admin.auth)
      .send({
        purchase_id: await purchaseOf(ben),
        status: 'cancelled',
        cancel_reason: 'Only wanted the trial',
      })
      .expect(200);
    const after = (await get(admin, `/api/analytics/free_trials?${around}`).expect(200)).body;
    expect(after).toMatchObject({ started: 2, converted: 1, cancelled: 1 });
    expect(after.products).toEqual([
      { product_id: trialPlan, name: 'Trial plan', started: 2, converted: 1, cancelled: 1 },
    ]);
    const earlier = (
      await get(admin, '/api/analytics/free_trials?start_date=2001-01-01&end_date=2001-02-01').expect(200)
    ).body;
    expect(earlier).toMatchObject({ started: 0, products: [] });
  });

  it('answers the avatars (instructors) by use in the range, and the same as a CSV report', async () => {
    const [{ avatar_id: tutor }] = await t.db.query(
      `INSERT INTO avatars (assistant_id, user_id, name, public) VALUES ('asst_tutor', $1, 'Math, tutor', true)
       RETURNING avatar_id`,
      [admin.user_id],
    );
    const [{ avatar_id: coach }] = await t.db.query(
      `INSERT INTO avatars (assistant_id, user_id, name) VALUES ('asst_coach', $1, 'Coach') RETURNING avatar_id`,
      [ana.user_id],
    );
    await t.db.query(
      `INSERT INTO conversations (user_id, name, avatar_id) VALUES ($1, 'a', $3), ($1, 'b', $3), ($2, 'c', $3)`,
      [ana.user_id, ben.user_id, tutor],
    );
    await t.db.query(
      `INSERT INTO conversations (user_id, name, thread_avatar_id) VALUES ($1, 'thread', $2)`,
      [ana.user_id, coach],
    );
    // A conversation without an avatar and one opened long ago do not count.
    await t.db.query(
      `INSERT INTO conversations (user_id, name, "createdAt") VALUES ($1, 'plain', now()),
              ($1, 'old', '2001-01-05')`,
      [ana.user_id],
    );
    const res = (await get(manager, `/api/analytics/instructors?${around}`).expect(200)).body;
    expect(res).toMatchObject({ avatars_created: 2, conversations: 4 });
    expect(res.avatars).toEqual([
      { avatar_id: tutor, name: 'Math, tutor', public: true, conversations: 3, users: 2 },
      { avatar_id: coach, name: 'Coach', public: false, conversations: 1, users: 1 },
    ]);
    const report = await get(admin, `/api/analytics/instructors/report?${around}`).expect(200);
    expect(report.headers['content-type']).toMatch(/^text\/csv/);
    expect(report.headers['content-disposition']).toMatch(/attachment; filename="instructors-/);
    expect(report.text).toBe(
      `avatar_id,name,public,conversations,users\r\n${tutor},"Math, tutor",yes,3,2\r\n${coach},Coach,no,1,1\r\n`,
    );
  });

  it('answers the money expected in the range: renewals falling due and open invoices to be paid by then', async () => {
    await t.db.query(
      `UPDATE purchases SET status = 'active', current_period_end = now() + interval '3 days' WHERE purchase_id = $1`,
      [await purchaseOf(ana)],
    );
    const invoice = (
      await t
        .http()
        .post('/api/invoices/admin')
        .set('Authorization', admin.auth)
        .send({ user_id: ben.user_id, amount: 2500, description: 'Consulting' })
        .expect(201)
    ).body;
    const invoice_id = invoice.invoice?.invoice_id ?? invoice.invoice_id;
    await t.db.query(
      `UPDATE invoices SET expiration_date = now() + interval '5 days' WHERE invoice_id = $1`,
      [invoice_id],
    );
    const res = (await get(manager, `/api/analytics/reservations?${around}`).expect(200)).body;
    expect(res.expected_total).toBe(1900 + 2500);
    expect(res.renewals).toMatchObject({ count: 1, total: 1900 });
    expect(res.renewals.items[0]).toMatchObject({
      purchase_id: await purchaseOf(ana),
      customer: 'Ana Avila',
      product: 'Trial plan',
      amount: 1900,
    });
    expect(res.open_invoices).toMatchObject({ count: 1, total: 2500 });
    expect(res.open_invoices.items[0]).toMatchObject({
      invoice_id,
      customer: 'Ben Bell',
      description: 'Consulting',
      amount: 2500,
    });
    // A renewal cancelled at the period's end is not expected.
    await t.db.query(`UPDATE purchases SET cancel_at_period_end = true WHERE purchase_id = $1`, [
      await purchaseOf(ana),
    ]);
    const after = (await get(admin, `/api/analytics/reservations?${around}`).expect(200)).body;
    expect(after.renewals).toMatchObject({ count: 0, total: 0, items: [] });
    expect(after.expected_total).toBe(2500);
  });

  it('answers the tutorial plays in the range, most played first', async () => {
    const tutorial = async (name: string) =>
      (
        await t
          .http()
          .post('/api/tutorials')
          .set('Authorization', admin.auth)
          .send({ name, src: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', language: 'en' })
          .expect(201)
      ).body.tutorial.tutorial_id as number;
    const welcome = await tutorial('Welcome');
    const avatars = await tutorial('Your first avatar');
    const play = (who: TestUser, id: number) =>
      t.http().post(`/api/tutorials/${id}/plays`).set('Authorization', who.auth).expect(204);
    await play(ana, welcome);
    await play(ana, welcome);
    await play(ben, welcome);
    await play(ben, avatars);
    const res = (await get(manager, `/api/analytics/videos?${around}`).expect(200)).body;
    expect(res.plays).toBe(4);
    expect(res.tutorials).toEqual([
      { tutorial_id: welcome, name: 'Welcome', language: 'en', plays: 3, viewers: 2 },
      { tutorial_id: avatars, name: 'Your first avatar', language: 'en', plays: 1, viewers: 1 },
    ]);
  });

  it('shows failed webhooks and failed jobs per queue on the dashboard', async () => {
    const before = (await get(manager, '/api/analytics/dashboard').expect(200)).body;
    expect(before.webhook_failures).toEqual({ count: 0, last: null });
    expect(before.failed_jobs).toEqual(
      expect.arrayContaining([
        { queue: 'email', failed: expect.any(Number) },
        { queue: 'payment-event', failed: expect.any(Number) },
      ]),
    );
    await t.db.query(
      `INSERT INTO payment_events (provider, account, event_id, type, payload, status, received_at)
       VALUES ('stripe', 'platform', 'evt_failed_1', 'invoice.paid', '{}', 'failed', now()),
              ('stripe', 'platform', 'evt_failed_old', 'invoice.paid', '{}', 'failed', now() - interval '30 days'),
              ('stripe', 'platform', 'evt_ok', 'invoice.paid', '{}', 'processed', now())`,
    );
    const after = (await get(admin, '/api/analytics/dashboard').expect(200)).body;
    expect(after.webhook_failures.count).toBe(1);
    expect(new Date(after.webhook_failures.last).getTime()).toBeGreaterThan(now - 60_000);
  });

  it('refuses customers and callers without a session, and a bad range', async () => {
    for (const path of ['free_trials', 'instructors', 'instructors/report', 'reservations', 'videos']) {
      await get(ana, `/api/analytics/${path}`).expect(403);
      await t.http().get(`/api/analytics/${path}`).expect(401);
      const reversed = await get(admin, `/api/analytics/${path}?start_date=2026-02-01&end_date=2026-01-01`);
      expect(reversed.status).toBe(400);
      expect(reversed.body.code).toBe('invalid_date_range');
    }
  });
});
