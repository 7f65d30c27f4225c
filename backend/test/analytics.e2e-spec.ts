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

  it('answers sign-ups, active and cancelled customers with the cancel reason', async () => {
    const res = (await get(manager, '/api/analytics/customers').expect(200)).body;
    expect(res.sign_ups.count).toBeGreaterThanOrEqual(4);
    expect(res.sign_ups.customers.map((c: { user_id: number }) => c.user_id)).toContain(buyer.user_id);
    expect(res.active.count).toBe(1);
    expect(res.active.customers[0]).toMatchObject({ user_id: other.user_id, name: 'Otto' });
    expect(res.cancelled.count).toBe(1);
    expect(res.cancelled.customers[0]).toMatchObject({
      user_id: buyer.user_id,
      cancel_reason: 'Too expensive for now',
      product: 'Analytics plan',
    });
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
