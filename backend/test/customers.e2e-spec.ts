import { MailService } from '../src/modules/mail/mail.service';
import { startTestApp, TestApp, TestUser } from './harness';

describe('Back-office customers API', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin', name: 'Ada', last_name: 'Admin' });
    manager = await t.createUser({ staff: 'manager' });
    customer = await t.createUser({ name: 'Zoe', last_name: 'Quimby', email: 'zoe.quimby@customers.test' });
    await t.db.query(`UPDATE users SET phone = '5551230001', value = 45.5 WHERE user_id = $1`, [
      customer.user_id,
    ]);
    for (let i = 0; i < 55; i++) await t.createUser({ email: `bulk${i}@customers.test`, name: `Bulk${i}` });
  });
  afterAll(() => t.close());

  const get = (who: TestUser, url: string) => t.http().get(url).set('Authorization', who.auth);

  it('lists customers 50 a page, newest first, to managers and admins', async () => {
    for (const who of [manager, admin]) {
      const first = (await get(who, '/api/users/admin/all').expect(200)).body;
      expect(first.users).toHaveLength(50);
      expect(first).toMatchObject({ page: 1, limit: 50 });
      expect(first.total).toBeGreaterThanOrEqual(58);
      const ids = first.users.map((u: { user_id: number }) => u.user_id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      const second = (await get(who, '/api/users/admin/all?page=2').expect(200)).body;
      expect(second.users.length).toBe(first.total - 50);
      expect(second.users.map((u: { user_id: number }) => u.user_id)).not.toContain(ids[0]);
    }
  });

  it('searches all fields or one, and sorts by a column', async () => {
    const byAll = (await get(admin, '/api/users/admin/all?query=QUIMBY').expect(200)).body;
    expect(byAll.users).toEqual([
      expect.objectContaining({
        user_id: customer.user_id,
        email: 'zoe.quimby@customers.test',
        phone: '5551230001',
        staff_role: null,
      }),
    ]);
    expect(Number(byAll.users[0].value)).toBe(45.5);
    const byPhone = (await get(admin, '/api/users/admin/all?field=phone&query=555-123-0001').expect(200))
      .body;
    expect(byPhone.users.map((u: { user_id: number }) => u.user_id)).toEqual([customer.user_id]);
    // Searching the last name field does not look at emails.
    const lastName = (
      await get(admin, '/api/users/admin/all?field=last_name&query=customers.test').expect(200)
    ).body;
    expect(lastName.total).toBe(0);
    const byName = (await get(admin, '/api/users/admin/all?sort=name&direction=asc&query=bulk1').expect(200))
      .body;
    const names = byName.users.map((u: { name: string }) => u.name);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe('Bulk1');
    const staffRow = (await get(admin, `/api/users/admin/all?field=email&query=${manager.email}`).expect(200))
      .body;
    expect(staffRow.users[0].staff_role).toBe('manager');
  });

  it('refuses an unknown sort or field, and a too large page size, with 400', async () => {
    expect((await get(admin, '/api/users/admin/all?sort=password_hash').expect(400)).body.code).toBe(
      'validation_failed',
    );
    await get(admin, '/api/users/admin/all?field=uid').expect(400);
    await get(admin, '/api/users/admin/all?limit=500').expect(400);
  });

  it('answers one customer with their word balance, 404 for an unknown id', async () => {
    await t
      .http()
      .post('/api/words/admin/grant')
      .set('Authorization', admin.auth)
      .send({ user_id: customer.user_id, words: 5000 })
      .expect(201);
    const res = (await get(manager, `/api/users/${customer.user_id}/admin`).expect(200)).body;
    expect(res.user).toMatchObject({ user_id: customer.user_id, name: 'Zoe', has_access: true });
    expect(res.balance).toMatchObject({ words: 5000, unlimited: false, display_balance: 5000 });
    const ledger = (await get(manager, `/api/users/${customer.user_id}/admin/ledger`).expect(200)).body;
    expect(ledger.entries[0]).toMatchObject({ words: 5000 });
    expect((await get(admin, '/api/users/99999999/admin').expect(404)).body.code).toBe('user_not_found');
  });

  it('creates a customer without sign-up and emails them a password recovery', async () => {
    const sent = jest.spyOn(t.app.get(MailService), 'sendResetPassword');
    const res = await t
      .http()
      .post('/api/users/admin/user')
      .set('Authorization', admin.auth)
      .send({ name: 'Nora', last_name: 'New', email: ' Nora.New@Customers.test ', phone: '(555) 000-1111' })
      .expect(201);
    expect(res.body.user).toMatchObject({
      name: 'Nora',
      email: 'nora.new@customers.test',
      phone: '5550001111',
    });
    expect(res.body.recovery_sent).toBe(true);
    expect(sent).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'nora.new@customers.test' }),
      expect.stringContaining('/auth/reset-password?token='),
    );
    const events = await t
      .http()
      .get('/api/audit-events')
      .query({ action: 'customer.created' })
      .set('Authorization', admin.auth)
      .expect(200);
    expect(events.body.audit_events[0]).toMatchObject({
      actor_user_id: admin.user_id,
      target_user_id: res.body.user.user_id,
    });
    const again = await t
      .http()
      .post('/api/users/admin/user')
      .set('Authorization', admin.auth)
      .send({ name: 'Nora', last_name: 'New', email: 'nora.new@customers.test' })
      .expect(412);
    expect(again.body.message).toBe('You already have an account, please login.');
    const bad = await t
      .http()
      .post('/api/users/admin/user')
      .set('Authorization', admin.auth)
      .send({ name: '', last_name: 'X', email: 'not-an-email' })
      .expect(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it("gives a gift on the customer's screen: access at once, listed among only their purchases; revoking ends it", async () => {
    const buyer = await t.createUser();
    const other = await t.createUser();
    const product = (
      await t
        .http()
        .post('/api/products')
        .set('Authorization', admin.auth)
        .send({ name: 'Gift plan', description: 'Words', price: 1000, word_amount: 5000 })
        .expect(201)
    ).body.product;
    for (const user_id of [buyer.user_id, other.user_id]) {
      await t
        .http()
        .post('/api/users/giveAccess')
        .set('Authorization', admin.auth)
        .send({ user_id, product_id: product.product_id, gift: true, total: 0 })
        .expect(201);
    }
    const seen = (await get(admin, `/api/users/${buyer.user_id}/admin`).expect(200)).body;
    expect(seen.user.has_access).toBe(true);
    expect(seen.balance.words).toBe(5000);
    const mine = (await get(manager, `/api/purchases/admin?user_id=${buyer.user_id}`).expect(200)).body;
    expect(mine.purchases).toHaveLength(1);
    expect(mine.purchases[0]).toMatchObject({ user_id: buyer.user_id, is_gift: true, status: 'completed' });
    await t
      .http()
      .put('/api/users/revokeAccess')
      .set('Authorization', admin.auth)
      .send({ purchase_id: mine.purchases[0].purchase_id })
      .expect(200);
    const after = (await get(admin, `/api/users/${buyer.user_id}/admin`).expect(200)).body;
    expect(after.user.has_access).toBe(false);
    expect(after.balance.words).toBe(0);
  });

  it('keeps customers from every call, and managers from creating customers', async () => {
    for (const url of ['/api/users/admin/all', `/api/users/${customer.user_id}/admin`]) {
      await get(customer, url).expect(403);
      await t.http().get(url).expect(401);
    }
    for (const who of [customer, manager]) {
      await t
        .http()
        .post('/api/users/admin/user')
        .set('Authorization', who.auth)
        .send({ name: 'A', last_name: 'B', email: 'blocked@customers.test' })
        .expect(403);
    }
  });
});
