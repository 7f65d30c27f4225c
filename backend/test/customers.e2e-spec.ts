import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MailService } from '../src/modules/mail/mail.service';
import { UsersService } from '../src/modules/users/users.service';
import { CustomersService } from '../src/modules/customers/customers.service';
import { StaffService } from '../src/modules/staff/staff.service';
import { PNG } from '../src/modules/files/testing/sample-files';
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
  /** Waits (at most 2 s) until `done` holds. */
  async function waitFor(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 2_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('waited 2 s in vain');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The staff role the admin, the manager and the customer carry on a page of the list. */
  const rolesOn = (page: { users: { user_id: number; staff_role: string | null }[] }) =>
    [admin, manager, customer].map((who) => page.users.find((u) => u.user_id === who.user_id)?.staff_role);

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
      // The page's staff accounts carry their role; customers none.
      expect(rolesOn(second)).toEqual(['admin', 'manager', null]);
    }
  });

  it('marks the staff on a page read without a search when there are more staff than are read at once', async () => {
    const staff = t.app.get(StaffService);
    const everyRoleRead = staff.everyRoleRead.bind(staff);
    // With at most one staff member read with the page there are too many (admin and manager): the page's own
    // roles are read instead.
    const spy = jest.spyOn(staff, 'everyRoleRead').mockImplementation(() => everyRoleRead(1));
    const byPage = jest.spyOn(staff, 'rolesOf');
    try {
      const second = (await get(admin, '/api/users/admin/all?page=2').expect(200)).body;
      expect(rolesOn(second)).toEqual(['admin', 'manager', null]);
      expect(byPage).toHaveBeenCalledTimes(1);
      // The lifetime value is a number on a page read without a search too.
      expect(second.users.find((u: { user_id: number }) => u.user_id === customer.user_id).value).toBe(45.5);
    } finally {
      spy.mockRestore();
      byPage.mockRestore();
    }
    // With every staff member read with the page, no second read.
    const byPageAgain = jest.spyOn(staff, 'rolesOf');
    try {
      await get(admin, '/api/users/admin/all?page=2').expect(200);
      expect(byPageAgain).not.toHaveBeenCalled();
    } finally {
      byPageAgain.mockRestore();
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
    // All fields: the first name alone, the last name alone, and the whole name across the space.
    for (const query of ['zoe', 'quimb', 'Zoe Quim', 'e q'])
      expect(
        (
          await get(admin, `/api/users/admin/all?query=${encodeURIComponent(query)}`).expect(200)
        ).body.users.map((u: { user_id: number }) => u.user_id),
      ).toContain(customer.user_id);
    const byPhone = (await get(admin, '/api/users/admin/all?field=phone&query=555-123-0001').expect(200))
      .body;
    expect(byPhone.users.map((u: { user_id: number }) => u.user_id)).toEqual([customer.user_id]);
    // All fields: text written like a phone number finds the phone; other text with digits is not a phone search.
    const phoneInAll = (await get(admin, '/api/users/admin/all?query=(555) 123-0001').expect(200)).body;
    expect(phoneInAll.users.map((u: { user_id: number }) => u.user_id)).toEqual([customer.user_id]);
    expect((await get(admin, '/api/users/admin/all?query=nobody0001').expect(200)).body.total).toBe(0);
    // A pattern cannot run from the last name into the email.
    expect((await get(admin, '/api/users/admin/all?query=quimby zoe.').expect(200)).body.total).toBe(0);
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
    // A searched page marks each row's staff role: an admin's, and none for a customer.
    const roleFound = async (email: string) =>
      (await get(admin, `/api/users/admin/all?field=email&query=${encodeURIComponent(email)}`).expect(200))
        .body.users[0].staff_role;
    expect(await roleFound(admin.email)).toBe('admin');
    expect(await roleFound(customer.email)).toBeNull();
  });

  it('shares one computation among identical list requests at once, never one that began before them', async () => {
    const users = t.app.get(UsersService);
    const searchedPage = users.searchedPage.bind(users);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const spy = jest.spyOn(users, 'searchedPage').mockImplementation(async (filter) => {
      if (++started === 1) await gate;
      return searchedPage(filter);
    });
    const asked = jest.spyOn(t.app.get(CustomersService), 'list');
    try {
      const url = '/api/users/admin/all?query=latecomer';
      const first = get(admin, url).then((r) => r);
      await waitFor(() => started === 1);
      // Made while the first computation runs: the requests that come after it must see it.
      const created = await t.createUser({ email: 'latecomer@customers.test', name: 'Late' });
      const later = [get(admin, url).then((r) => r), get(admin, url).then((r) => r)];
      await waitFor(() => asked.mock.calls.length === 3);
      release();
      const answers = await Promise.all([first, ...later]);
      for (const answer of answers) expect(answer.status).toBe(200);
      for (const answer of answers.slice(1))
        expect(answer.body.users.map((u: { user_id: number }) => u.user_id)).toEqual([created.user_id]);
      // The two later requests shared the second computation.
      expect(started).toBe(2);
    } finally {
      spy.mockRestore();
      asked.mockRestore();
    }
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
    expect(res.organizations).toEqual([]);
    const org = await t.createOrganization('Quimby Works');
    await t.addMember(org, customer.user_id, 2);
    const withOrg = (await get(manager, `/api/users/${customer.user_id}/admin`).expect(200)).body;
    expect(withOrg.organizations).toEqual([
      expect.objectContaining({ organization_id: org, name: 'Quimby Works', role: 'Manager' }),
    ]);
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

  describe('editing, deleting and opening a customer', () => {
    const put = (who: TestUser, user_id: number, body: object) =>
      t.http().put(`/api/users/${user_id}/admin`).set('Authorization', who.auth).send(body);
    const del = (who: TestUser, user_id: number) =>
      t.http().delete(`/api/users/admin/${user_id}`).set('Authorization', who.auth);
    const openCode = (who: TestUser, user_id: number) =>
      t.http().post(`/api/users/${user_id}/admin/impersonation`).set('Authorization', who.auth);
    const exchange = (code: string) => t.http().post('/api/auth/impersonation').send({ code });
    const lastEvent = async (action: string) =>
      (await t.http().get('/api/audit-events').query({ action }).set('Authorization', admin.auth).expect(200))
        .body.audit_events[0];
    let product: number;

    beforeAll(async () => {
      product = (
        await t
          .http()
          .post('/api/products')
          .set('Authorization', admin.auth)
          .send({ name: 'Books plan', description: 'Words', price: 1000, word_amount: 1000 })
          .expect(201)
      ).body.product.product_id;
    });

    it("lets a staff admin edit a customer's fields, audited; 400 for a bad field, 412 for a taken email", async () => {
      const who = await t.createUser({ name: 'Edna' });
      const res = await put(admin, who.user_id, {
        name: ' Edith ',
        email: ' Edith.E@Customers.test ',
        phone: '(555) 222-3333',
        company: 'Acme',
        lang: 'es',
      }).expect(200);
      expect(res.body.user).toMatchObject({
        name: 'Edith',
        email: 'edith.e@customers.test',
        phone: '5552223333',
        company: 'Acme',
        lang: 'es',
      });
      expect(await lastEvent('customer.updated')).toMatchObject({
        actor_user_id: admin.user_id,
        target_user_id: who.user_id,
        details: { fields: expect.arrayContaining(['name', 'email', 'phone', 'company', 'lang']) },
      });
      expect((await put(admin, who.user_id, { name: '' }).expect(400)).body.message).toContain(
        'Name is invalid.',
      );
      await put(admin, who.user_id, { phone: '12' }).expect(400);
      await put(admin, who.user_id, { email: 'nope' }).expect(400);
      expect((await put(admin, who.user_id, { email: customer.email }).expect(412)).body.code).toBe(
        'email_exists',
      );
    });

    it('keeps managers and customers from editing, deleting and opening; staff accounts are protected; 404 unknown', async () => {
      const who = await t.createUser();
      for (const caller of [manager, customer]) {
        await put(caller, who.user_id, { name: 'X' }).expect(403);
        await del(caller, who.user_id).expect(403);
        await openCode(caller, who.user_id).expect(403);
      }
      for (const staffAccount of [manager, admin]) {
        expect((await put(admin, staffAccount.user_id, { name: 'X' }).expect(403)).body.code).toBe(
          'staff_account_protected',
        );
        expect((await del(admin, staffAccount.user_id).expect(403)).body.code).toBe(
          'staff_account_protected',
        );
        expect((await openCode(admin, staffAccount.user_id).expect(403)).body.code).toBe(
          'staff_account_protected',
        );
      }
      for (const call of [
        put(admin, 99999999, { name: 'X' }),
        del(admin, 99999999),
        openCode(admin, 99999999),
      ])
        expect((await call.expect(404)).body.code).toBe('user_not_found');
      await t.http().delete(`/api/users/admin/${who.user_id}`).expect(401);
    });

    it('deletes a customer: data and stored files go, purchases and invoices stay anonymised, audited', async () => {
      const who = await t.createUser();
      const upload = await t
        .http()
        .post('/api/files')
        .set('Authorization', who.auth)
        .attach('file', PNG, 'me.png')
        .expect(201);
      const stored = join(t.env.dataDir, 'files', String(upload.body.file.src).split('/').pop()!);
      expect(existsSync(stored)).toBe(true);
      await t
        .http()
        .post('/api/users/giveAccess')
        .set('Authorization', admin.auth)
        .send({ user_id: who.user_id, product_id: product, gift: false, total: 1500 })
        .expect(201);
      const invoice = await t
        .http()
        .post('/api/invoices/admin')
        .set('Authorization', admin.auth)
        .send({ user_id: who.user_id, amount: 700, description: 'Setup' })
        .expect(201);
      const [{ purchase_id }] = await t.db.query(`SELECT purchase_id FROM purchases WHERE user_id = $1`, [
        who.user_id,
      ]);

      await del(admin, who.user_id).expect(204);

      expect(await t.db.query(`SELECT 1 FROM users WHERE user_id = $1`, [who.user_id])).toHaveLength(0);
      expect(await t.db.query(`SELECT 1 FROM files WHERE user_id = $1`, [who.user_id])).toHaveLength(0);
      expect(existsSync(stored)).toBe(false);
      const [purchase] = await t.db.query(`SELECT user_id, amount FROM purchases WHERE purchase_id = $1`, [
        purchase_id,
      ]);
      expect(purchase).toEqual({ user_id: null, amount: 1500 });
      const invoice_id = invoice.body.invoice?.invoice_id ?? invoice.body.invoice_id;
      const [kept] = await t.db.query(`SELECT user_id, amount FROM invoices WHERE invoice_id = $1`, [
        invoice_id,
      ]);
      expect(kept).toEqual({ user_id: null, amount: 700 });
      // The books still list it, without a customer.
      const listed = (await get(admin, `/api/purchases/admin?query=${purchase_id}`).expect(200)).body;
      expect(
        listed.purchases.find((p: { purchase_id: number }) => p.purchase_id === purchase_id),
      ).toMatchObject({
        user_id: null,
        user: null,
      });
      expect(await lastEvent('customer.deleted')).toMatchObject({
        actor_user_id: admin.user_id,
        target_user_id: who.user_id,
        details: { purchases_kept: 1, invoices_kept: 1 },
      });
      await get(who, '/api/users').expect(401);
      await del(admin, who.user_id).expect(404);
    });

    it('refuses to delete a customer whose subscription still renews (409), and deletes once it is cancelled', async () => {
      const who = await t.createUser();
      const [{ purchase_id }] = await t.db.query(
        `INSERT INTO purchases (user_id, product_id, status, amount, provider, stripe_subscription_id)
         VALUES ($1, $2, 'active', 1000, 'stripe', 'sub_renewing_test') RETURNING purchase_id`,
        [who.user_id, product],
      );
      expect((await del(admin, who.user_id).expect(409)).body).toMatchObject({
        code: 'subscription_renewing',
        message: expect.stringContaining('Cancel it first'),
      });
      expect(await t.db.query(`SELECT 1 FROM users WHERE user_id = $1`, [who.user_id])).toHaveLength(1);
      await t.db.query(`UPDATE purchases SET cancel_at_period_end = true WHERE purchase_id = $1`, [
        purchase_id,
      ]);
      await del(admin, who.user_id).expect(204);
    });

    it("opens a customer's account once with a short code: 15-minute session, customer rights only, actions audited as the admin", async () => {
      const who = await t.createUser({ name: 'Viv' });
      const issued = await openCode(admin, who.user_id).expect(201);
      expect(new Date(issued.body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      const session = await exchange(issued.body.code).expect(200);
      expect(session.body.user).toMatchObject({ user_id: who.user_id, name: 'Viv' });
      const ends = new Date(session.body.session_expires_at).getTime() - Date.now();
      expect(ends).toBeGreaterThan(14 * 60_000);
      expect(ends).toBeLessThanOrEqual(15 * 60_000);
      // The code works once.
      expect((await exchange(issued.body.code).expect(401)).body.code).toBe('impersonation_code_invalid');
      expect((await exchange('made-up-code').expect(401)).body.code).toBe('impersonation_code_invalid');

      const viewer = `Bearer ${session.body.access_token}`;
      const me = await t.http().get('/api/users').set('Authorization', viewer).expect(200);
      expect(me.body.user.user_id).toBe(who.user_id);
      // The customer's rights only: no back office, and no opening another account from there.
      await t.http().get('/api/users/admin/all').set('Authorization', viewer).expect(403);
      await t
        .http()
        .put('/api/users')
        .set('Authorization', viewer)
        .send({ company: 'Viewed Co' })
        .expect(200);
      // The action is recorded beside the answer, not before it: wait (2 s at most) for the record.
      let acted = await lastEvent('customer.impersonation_action');
      for (const deadline = Date.now() + 2_000; !acted && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        acted = await lastEvent('customer.impersonation_action');
      }
      expect(acted).toMatchObject({
        actor_user_id: admin.user_id,
        actor_staff_role: 'admin',
        target_user_id: who.user_id,
        details: { method: 'PUT', status: 200, on_behalf_of_user_id: who.user_id },
      });
      expect(await lastEvent('customer.impersonation_opened')).toMatchObject({
        actor_user_id: admin.user_id,
        target_user_id: who.user_id,
      });
      expect(await lastEvent('customer.impersonation_started')).toMatchObject({
        actor_user_id: admin.user_id,
        target_user_id: who.user_id,
      });
      // The session ends at its 15 minutes, refreshed or not.
      const refreshed = await t
        .http()
        .post('/api/auth/refresh')
        .send({ refresh_token: session.body.refresh_token })
        .expect(200);
      const [row] = await t.db.query(
        `SELECT impersonated_by, extract(epoch FROM expires_at - "createdAt") AS seconds FROM sessions
          WHERE user_id = $1 AND revoked_at IS NULL AND impersonated_by IS NOT NULL`,
        [who.user_id],
      );
      expect(row.impersonated_by).toBe(admin.user_id);
      expect(Number(row.seconds)).toBeLessThanOrEqual(15 * 60);
      await t.db.query(
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE impersonated_by IS NOT NULL AND user_id = $1`,
        [who.user_id],
      );
      await t
        .http()
        .get('/api/users')
        .set('Authorization', `Bearer ${refreshed.body.access_token}`)
        .expect(401);
    });

    it('refuses an expired code', async () => {
      const who = await t.createUser();
      const issued = await openCode(admin, who.user_id).expect(201);
      await t.db.query(
        `UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE issued_by = $1`,
        [admin.user_id],
      );
      expect((await exchange(issued.body.code).expect(401)).body.code).toBe('impersonation_code_expired');
    });
  });
});
