import { startTestApp, TestApp, TestUser } from './harness';

/**
 * Demoting, removing and deleting staff admins at the same time, many rounds over: whatever order the requests
 * take, at least one staff admin is always left.
 */
describe('Staff admins under concurrent demotion, removal and deletion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A fresh back office of `n` admins (every other staff row removed). */
  async function admins(n: number): Promise<{ user: TestUser; staff_id: number }[]> {
    await t.db.query(`DELETE FROM staff`);
    const out = [];
    for (let i = 0; i < n; i++) {
      const user = await t.createUser({ staff: 'admin' });
      const [{ staff_id }] = await t.db.query(`SELECT staff_id FROM staff WHERE user_id = $1`, [
        user.user_id,
      ]);
      out.push({ user, staff_id });
    }
    return out;
  }

  const adminCount = async () =>
    (await t.db.query(`SELECT count(*)::int AS n FROM staff WHERE role = 'admin'`))[0].n as number;

  const demote = (by: TestUser, staff_id: number) =>
    t.http().put('/api/staff').set('Authorization', by.auth).send({ staff_id, role: 'manager' });
  const remove = (by: TestUser, staff_id: number) =>
    t.http().delete(`/api/staff/${staff_id}`).set('Authorization', by.auth);
  const deleteOwnAccount = (by: TestUser) => t.http().delete('/api/users').set('Authorization', by.auth);

  it('leaves one admin when two admins remove each other at the same time', async () => {
    for (let round = 0; round < 8; round++) {
      const [a, b] = await admins(2);
      const results = await Promise.all([remove(a.user, b.staff_id), remove(b.user, a.staff_id)]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      expect(await adminCount()).toBe(1);
    }
  });

  it('leaves one admin when one admin deletes their account while demoting the other', async () => {
    for (let round = 0; round < 8; round++) {
      const [a, b] = await admins(2);
      const results = await Promise.all([deleteOwnAccount(a.user), demote(a.user, b.staff_id)]);
      for (const r of results) expect(r.status).toBeLessThan(500);
      expect(await adminCount()).toBeGreaterThanOrEqual(1);
    }
  });

  it('leaves one admin when each of three admins demotes, removes or deletes at the same time', async () => {
    for (let round = 0; round < 6; round++) {
      const [a, b, c] = await admins(3);
      const results = await Promise.all([
        demote(a.user, b.staff_id),
        remove(b.user, c.staff_id),
        demote(c.user, a.staff_id),
        deleteOwnAccount(b.user),
      ]);
      for (const r of results) expect(r.status).toBeLessThan(500);
      expect(await adminCount()).toBeGreaterThanOrEqual(1);
    }
  });
});
