import type { EventEmitter } from 'node:events';
import { PrincipalCache } from '../src/common/auth/principal-cache';
import { DatabaseNotifications } from '../src/database/database-notifications';
import { startTestApp, TestApp } from './harness';

/**
 * A signed-in session's principal is reused until the database says something in it changed. The changes here
 * are written straight to the database, as another instance, a tool or a manual fix would: the notification
 * at their commit is the only way this instance can learn of them.
 */
describe('Principals reused until the database notifies a change', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Asks until the answer has `status` (a notification arrives within milliseconds; the reuse lasts 30 s). */
  async function eventually(ask: () => Promise<{ status: number }>, status: number): Promise<void> {
    const deadline = Date.now() + 2_000;
    let last = 0;
    while (Date.now() < deadline) {
      last = (await ask()).status;
      if (last === status) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`expected ${status}, still ${last} after 2 s`);
  }

  it('reads a session once and then reuses it', async () => {
    const cache = t.app.get(PrincipalCache);
    expect(cache.active).toBe(true);
    const me = await t.createUser();
    expect(cache.get(me.user_id, me.session_id)).toBeUndefined();
    await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
    expect(cache.get(me.user_id, me.session_id)?.user_id).toBe(me.user_id);
  });

  it('sees a staff role given and taken away elsewhere', async () => {
    const me = await t.createUser();
    const dashboard = () => t.http().get('/api/analytics/dashboard').set('Authorization', me.auth);
    expect((await dashboard()).status).toBe(403);
    await t.db.query(`INSERT INTO staff (user_id, role) VALUES ($1, 'manager')`, [me.user_id]);
    await eventually(dashboard, 200);
    await t.db.query(`DELETE FROM staff WHERE user_id = $1`, [me.user_id]);
    await eventually(dashboard, 403);
  });

  it('ends a session revoked or cut short elsewhere', async () => {
    const revoked = await t.createUser();
    const profile = (auth: string) => () => t.http().get('/api/users').set('Authorization', auth);
    await t.http().get('/api/users').set('Authorization', revoked.auth).expect(200);
    await t.db.query(`UPDATE sessions SET revoked_at = now() WHERE session_id = $1`, [revoked.session_id]);
    await eventually(profile(revoked.auth), 401);

    const expired = await t.createUser();
    await t.http().get('/api/users').set('Authorization', expired.auth).expect(200);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE session_id = $1`, [
      expired.session_id,
    ]);
    await eventually(profile(expired.auth), 401);
  });

  it('ends the sessions of an account deleted elsewhere', async () => {
    const gone = await t.createUser();
    await t.http().get('/api/users').set('Authorization', gone.auth).expect(200);
    await t.db.query(`DELETE FROM users WHERE user_id = $1`, [gone.user_id]);
    await eventually(() => t.http().get('/api/users').set('Authorization', gone.auth), 401);
  });

  it('signing out here ends the session at once', async () => {
    const me = await t.createUser();
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: me.email, password: me.password })
      .expect(200);
    const auth = `Bearer ${login.body.access_token}`;
    await t.http().get('/api/users').set('Authorization', auth).expect(200);
    await t.http().post('/api/auth/logout').send({ refresh_token: login.body.refresh_token }).expect(204);
    await t.http().get('/api/users').set('Authorization', auth).expect(401);
  });

  describe('changes made on this instance, before its notification arrives', () => {
    type Handler = (...args: unknown[]) => void;
    let held: unknown[][] = [];
    let handlers: Handler[] = [];
    /** The listening connection, whose notifications the tests hold back to find what is seen without them. */
    const listening = () => (t.app.get(DatabaseNotifications) as unknown as { client: EventEmitter }).client;
    const holdBack = (...args: unknown[]) => {
      held.push(args);
    };

    beforeEach(() => {
      const client = listening();
      handlers = client.listeners('notification') as Handler[];
      client.removeAllListeners('notification');
      client.on('notification', holdBack);
    });
    afterEach(() => {
      const client = listening();
      client.off('notification', holdBack);
      for (const handler of handlers) client.on('notification', handler);
      for (const args of held) for (const handler of handlers) handler(...args);
      held = [];
    });

    it('deleting the own account ends its session for the very next request', async () => {
      const me = await t.createUser();
      await t.http().get('/api/users').set('Authorization', me.auth).expect(200);
      await t
        .http()
        .delete('/api/users')
        .set('Authorization', me.auth)
        .send({ password: me.password })
        .expect(204);
      await t.http().get('/api/users').set('Authorization', me.auth).expect(401);
    });

    it('a staff role changed or removed here applies to the very next request', async () => {
      const admin = await t.createUser({ staff: 'admin' });
      const member = await t.createUser({ staff: 'manager' });
      const [{ staff_id }] = await t.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [
        member.user_id,
      ]);
      const staffList = () => t.http().get('/api/staff/admin/all').set('Authorization', member.auth);
      expect((await staffList()).status).toBe(403);
      await t
        .http()
        .put('/api/staff')
        .set('Authorization', admin.auth)
        .send({ staff_id, role: 'admin' })
        .expect(200);
      expect((await staffList()).status).toBe(200);
      await t.http().delete(`/api/staff/${staff_id}`).set('Authorization', admin.auth).expect(200);
      expect((await staffList()).status).toBe(403);
      expect(held.length).toBeGreaterThan(0);
    });
  });
});
