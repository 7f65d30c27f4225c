import { startTestApp, TestApp, TestUser } from './harness';

describe('Staff API', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin', name: 'Ada', last_name: 'Admin', email: 'ada@staff.test' });
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (url: string) => t.http().get(url).set('Authorization', who.auth),
    post: (url: string, body: object) => t.http().post(url).set('Authorization', who.auth).send(body),
    put: (url: string, body: object) => t.http().put(url).set('Authorization', who.auth).send(body),
    del: (url: string) => t.http().delete(url).set('Authorization', who.auth),
  });

  it('answers 403 to customers and staff managers on every staff route', async () => {
    for (const who of [await t.createUser(), await t.createUser({ staff: 'manager' })]) {
      await as(who).get('/api/staff/admin/all').expect(403);
      await as(who).post('/api/staff', { email: who.email, role: 'admin' }).expect(403);
      await as(who).put('/api/staff', { staff_id: 1, role: 'admin' }).expect(403);
      await as(who).del('/api/staff/1').expect(403);
    }
    expect(await t.db.query(`SELECT 1 FROM staff WHERE role = 'admin'`)).toHaveLength(1);
  });

  it('makes an existing user staff, admin by default', async () => {
    const user = await t.createUser({ name: 'Bea', last_name: 'Boss', email: 'bea@example.com' });
    const res = await as(admin).post('/api/staff', { email: '  BEA@example.com ' }).expect(201);
    expect(res.body.staff).toMatchObject({
      role: 'admin',
      user_id: user.user_id,
      user: { name: 'Bea', last_name: 'Boss', email: 'bea@example.com' },
    });
    expect(typeof res.body.staff.staff_id).toBe('number');
  });

  it('answers 404 User not found. for an unknown email', async () => {
    const res = await as(admin)
      .post('/api/staff', { email: 'nobody@example.com', role: 'manager' })
      .expect(404);
    expect(res.body).toMatchObject({ message: 'User not found.', code: 'user_not_found' });
  });

  it('answers 409 when the user is already staff', async () => {
    const res = await as(admin).post('/api/staff', { email: admin.email, role: 'manager' }).expect(409);
    expect(res.body.code).toBe('already_staff');
  });

  it('refuses an unknown role and a bad email with 400', async () => {
    const user = await t.createUser();
    const res = await as(admin).post('/api/staff', { email: user.email, role: 'owner' }).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', message: 'Role must be admin or manager.' });
    await as(admin).post('/api/staff', { email: 'not-an-email' }).expect(400);
  });

  it('lists staff 10 per page and searches by email', async () => {
    for (let i = 0; i < 11; i++) {
      const u = await t.createUser({ email: `pager${i}@list.test` });
      await as(admin).post('/api/staff', { email: u.email, role: 'manager' }).expect(201);
    }
    const first = await as(admin).get('/api/staff/admin/all?page=1&organization_id=').expect(200);
    expect(first.body.staff).toHaveLength(10);
    expect(first.body).toMatchObject({ page: 1, limit: 10 });
    expect(first.body.total).toBeGreaterThanOrEqual(13);
    const second = await as(admin).get('/api/staff/admin/all?page=2').expect(200);
    expect(second.body.staff.length).toBe(first.body.total - 10);

    const found = await as(admin).get('/api/staff/admin/all?query=LIST.TEST&page=2').expect(200);
    expect(found.body.total).toBe(11);
    expect(found.body.staff).toHaveLength(1);
    expect(found.body.staff[0]).toMatchObject({
      role: 'manager',
      user: { email: expect.stringMatching(/@list\.test$/) },
    });
    const none = await as(admin).get('/api/staff/admin/all?query=zzz%25').expect(200);
    expect(none.body).toMatchObject({ staff: [], total: 0 });
  });

  it('changes a role, and the new role applies on the very next request', async () => {
    const user = await t.createUser();
    const added = await as(admin).post('/api/staff', { email: user.email, role: 'admin' }).expect(201);
    await as(user).get('/api/staff/admin/all').expect(200);
    const res = await as(admin)
      .put('/api/staff', { staff_id: added.body.staff.staff_id, role: 'manager' })
      .expect(200);
    expect(res.body.staff).toMatchObject({ role: 'manager', user_id: user.user_id });
    await as(user).get('/api/staff/admin/all').expect(403);
  });

  it('removes a staff member, whose access ends at once', async () => {
    const user = await t.createUser();
    const added = await as(admin).post('/api/staff', { email: user.email }).expect(201);
    await as(user).get('/api/staff/admin/all').expect(200);
    const res = await as(admin).del(`/api/staff/${added.body.staff.staff_id}`).expect(200);
    expect(res.body.staff.user_id).toBe(user.user_id);
    await as(user).get('/api/staff/admin/all').expect(403);
    // The user account itself stays.
    expect(await t.db.query(`SELECT 1 FROM users WHERE user_id = $1`, [user.user_id])).toHaveLength(1);
  });

  it('answers 404 for a staff id that does not exist, 400 for one that is not a number', async () => {
    await as(admin).put('/api/staff', { staff_id: 999999, role: 'manager' }).expect(404);
    await as(admin).del('/api/staff/999999').expect(404);
    await as(admin).del('/api/staff/abc').expect(400);
  });

  describe('with a single admin', () => {
    let solo: TestApp;
    let only: TestUser;
    beforeAll(async () => {
      solo = await startTestApp();
      only = await solo.createUser({ staff: 'admin' });
    });
    afterAll(() => solo.close());

    it('refuses to demote or remove the last admin (409 last_admin)', async () => {
      const staffId = await staffIdOfIn(solo, only.user_id);
      const demote = await solo
        .http()
        .put('/api/staff')
        .set('Authorization', only.auth)
        .send({ staff_id: staffId, role: 'manager' })
        .expect(409);
      expect(demote.body.code).toBe('last_admin');
      const remove = await solo
        .http()
        .delete(`/api/staff/${staffId}`)
        .set('Authorization', only.auth)
        .expect(409);
      expect(remove.body.code).toBe('last_admin');
      const [row] = await solo.db.query(`SELECT role FROM staff WHERE staff_id = $1`, [staffId]);
      expect(row.role).toBe('admin');
    });

    it('lets two admins demote each other only until one is left, even at the same time', async () => {
      const second = await solo.createUser({ staff: 'admin' });
      const ids = [await staffIdOfIn(solo, only.user_id), await staffIdOfIn(solo, second.user_id)];
      const results = await Promise.all([
        solo
          .http()
          .put('/api/staff')
          .set('Authorization', only.auth)
          .send({ staff_id: ids[1], role: 'manager' }),
        solo
          .http()
          .put('/api/staff')
          .set('Authorization', second.auth)
          .send({ staff_id: ids[0], role: 'manager' }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      // The second request either lost the race at the lock (409) or was no longer an admin (403).
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const admins = await solo.db.query(`SELECT 1 FROM staff WHERE role = 'admin'`);
      expect(admins).toHaveLength(1);
    });
  });

  async function staffIdOfIn(app: TestApp, userId: number): Promise<number> {
    return (await app.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [userId]))[0].staff_id;
  }
});
