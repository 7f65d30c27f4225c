import { JobQueue } from '../src/common/jobs/job-queue';
import { runWithAuditRequest } from '../src/modules/audit/audit-context';
import { AuthService } from '../src/modules/auth/auth.service';
import { FakeWebhook } from './fakes/webhook';
import { startTestApp, TestApp, TestUser } from './harness';

describe('Audit log of staff actions', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  /** A second staff admin who only uses the password tools (admin-only), so the actor filter has a known count. */
  let resetter: TestUser;
  let customer: TestUser;
  const hook = new FakeWebhook();

  beforeAll(async () => {
    await hook.start();
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
    resetter = await t.createUser({ staff: 'admin' });
    customer = await t.createUser({ name: 'Carla' });
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        password: admin.password,
        config: [
          { key: 'security_notice_email_webhook_url', value: `${hook.url}/notice` },
          { key: 'reset_password_email_webhook_url', value: `${hook.url}/reset` },
        ],
      })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await hook.stop();
  });

  const events = (query: Record<string, string | number> = {}, who: TestUser = admin) =>
    t.http().get('/api/audit-events').query(query).set('Authorization', who.auth);

  async function latest(action: string) {
    const res = await events({ action, limit: 1 }).expect(200);
    return res.body.audit_events[0];
  }

  it('records a staff reset link with actor, target, address and user agent, and tells the owner without the link', async () => {
    const res = await t
      .http()
      .post('/api/users/resetPasswordLink')
      .set('Authorization', resetter.auth)
      .set('User-Agent', 'audit-test/1.0')
      .send({ email: customer.email })
      .expect(200);
    const link: string = res.body.link;
    const event = await latest('user.reset_link_created');
    expect(event).toMatchObject({
      actor_user_id: resetter.user_id,
      actor_email: resetter.email,
      actor_staff_role: 'admin',
      target_user_id: customer.user_id,
      user_agent: 'audit-test/1.0',
    });
    expect(event.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(JSON.stringify(event)).not.toContain(link.split('token=')[1]);
    const notice = await hook.next('/notice');
    expect(notice).toMatchObject({ type: 'reset_link_notice', to: customer.email, name: 'Carla' });
    expect(typeof notice.created_at).toBe('string');
    expect(JSON.stringify(notice)).not.toContain('token');
    expect(notice.link).toBeUndefined();
  });

  it('records a reset email sent by staff, but not a recovery the user asked for', async () => {
    await t
      .http()
      .post('/api/users/sendResetPasswordLink')
      .set('Authorization', resetter.auth)
      .send({ email: customer.email })
      .expect(200);
    await hook.next('/reset');
    const before = (await events({ action: 'user.reset_email_sent' }).expect(200)).body.total;
    expect(before).toBe(1);
    await t.http().post('/api/auth/recovery').send({ email: customer.email }).expect(200);
    await hook.next('/reset');
    expect((await events({ action: 'user.reset_email_sent' }).expect(200)).body.total).toBe(1);
    expect(await latest('user.reset_email_sent')).toMatchObject({
      actor_user_id: resetter.user_id,
      target_user_id: customer.user_id,
    });
  });

  it('records a word grant with its amount', async () => {
    await t
      .http()
      .post('/api/words/admin/grant')
      .set('Authorization', admin.auth)
      .send({ user_id: customer.user_id, words: 500 })
      .expect(201);
    expect(await latest('words.granted')).toMatchObject({
      actor_user_id: admin.user_id,
      target_user_id: customer.user_id,
      details: { words: 500, unlimited: false },
    });
  });

  it('records staff created, role changed and removed', async () => {
    const person = await t.createUser();
    const created = await t
      .http()
      .post('/api/staff')
      .set('Authorization', admin.auth)
      .send({ email: person.email, role: 'manager' })
      .expect(201);
    const staffId = created.body.staff.staff_id;
    await t
      .http()
      .put('/api/staff')
      .set('Authorization', admin.auth)
      .send({ staff_id: staffId, role: 'admin' })
      .expect(200);
    await t.http().delete(`/api/staff/${staffId}`).set('Authorization', admin.auth).expect(200);
    const res = await events({ target_user_id: person.user_id }).expect(200);
    expect(res.body.audit_events.map((e: { action: string }) => e.action)).toEqual([
      'staff.removed',
      'staff.role_changed',
      'staff.created',
    ]);
    expect(res.body.audit_events[1].details).toEqual({ from: 'manager', to: 'admin' });
  });

  it('records which secret settings changed, never their values, and nothing for plain settings', async () => {
    const before = (await events({ action: 'app_config.secrets_changed' }).expect(200)).body.total;
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ config: [{ key: 'app_name', value: 'Plain Name' }] })
      .expect(200);
    expect((await events({ action: 'app_config.secrets_changed' }).expect(200)).body.total).toBe(before);
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        password: admin.password,
        config: [{ key: 'openai_secret_key', value: 'sk-very-secret-value-123' }],
      })
      .expect(200);
    const event = await latest('app_config.secrets_changed');
    expect(event.details).toEqual({ settings: ['openai_secret_key'] });
    expect(JSON.stringify(event)).not.toContain('sk-very-secret');
  });

  it("records staff changing a member's role in an organization they do not belong to", async () => {
    const organization_id = await t.createOrganization();
    const orgAdmin = await t.createUser();
    const member = await t.createUser();
    await t.addMember(organization_id, orgAdmin.user_id, 1);
    await t.addMember(organization_id, member.user_id, 3);
    const [{ user_organization_id }] = await t.db.query(
      `SELECT user_organization_id FROM user_organizations WHERE user_id = $1`,
      [member.user_id],
    );
    // The organization's own Admin is not staff: not recorded.
    await t
      .http()
      .put('/api/user-organizations')
      .set('Authorization', orgAdmin.auth)
      .send({ user_organization_id, user_type_id: 2 })
      .expect(200);
    expect((await events({ action: 'organization.member_role_changed' }).expect(200)).body.total).toBe(0);
    await t
      .http()
      .put('/api/user-organizations')
      .set('Authorization', admin.auth)
      .send({ user_organization_id, user_type_id: 1 })
      .expect(200);
    expect(await latest('organization.member_role_changed')).toMatchObject({
      actor_user_id: admin.user_id,
      target_user_id: member.user_id,
      organization_id,
      details: { from: 2, to: 1 },
    });
  });

  it("records a one-time sign-in token issued for a customer's account, and keeps the token out", async () => {
    const auth = t.app.get(AuthService);
    const fakeRequest = {
      principal: { user_id: admin.user_id, email: admin.email, staffRole: 'admin' },
      headers: { 'user-agent': 'back-office' },
      ip: '203.0.113.7',
    } as never;
    const { token } = await runWithAuditRequest(fakeRequest, () => auth.issueSignInToken(customer.user_id));
    const event = await latest('user.sign_in_token_issued');
    expect(event).toMatchObject({
      actor_user_id: admin.user_id,
      target_user_id: customer.user_id,
      ip: '203.0.113.7',
      user_agent: 'back-office',
    });
    expect(JSON.stringify(event)).not.toContain(token);
  });

  it('lets only staff admins read the log', async () => {
    await events({}, manager).expect(403);
    await events({}, customer).expect(403);
    await t.http().get('/api/audit-events').expect(401);
  });

  it('filters by actor, target, action and time, pages newest first, and caps the limit', async () => {
    const all = (await events({ limit: 100 }).expect(200)).body;
    expect(all.total).toBeGreaterThanOrEqual(8);
    const times = all.audit_events.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const byActor = (await events({ actor_user_id: resetter.user_id }).expect(200)).body;
    expect(
      byActor.audit_events.every((e: { actor_user_id: number }) => e.actor_user_id === resetter.user_id),
    ).toBe(true);
    expect(byActor.total).toBe(2);
    const page2 = (await events({ actor_user_id: resetter.user_id, limit: 1, page: 2 }).expect(200)).body;
    expect(page2).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(page2.audit_events[0].action).toBe('user.reset_link_created');
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await events({ from: future }).expect(200)).body.total).toBe(0);
    expect((await events({ to: future }).expect(200)).body.total).toBe(all.total);
    expect((await events({ limit: 101 }).expect(400)).body.message).toBeDefined();
    expect((await events({ action: 'nope' }).expect(400)).body.code).toBe('validation_failed');
    expect((await events({ from: 'yesterday' }).expect(400)).body.code).toBe('validation_failed');
    const range = await events({ from: future, to: new Date().toISOString() }).expect(400);
    expect(range.body.code).toBe('invalid_date_range');
  });

  it('keeps reset tokens and links out of job data of the notice', async () => {
    const jobs = t.app.get(JobQueue);
    const added: unknown[] = [];
    const spy = jest.spyOn(jobs, 'add').mockImplementation(async (_name, data) => {
      added.push(data);
      return undefined as never;
    });
    try {
      const res = await t
        .http()
        .post('/api/users/resetPasswordLink')
        .set('Authorization', admin.auth)
        .send({ email: customer.email })
        .expect(200);
      const token = decodeURIComponent(String(res.body.link).split('token=')[1]);
      expect(added).toHaveLength(1);
      expect(JSON.stringify(added)).not.toContain(token);
    } finally {
      spy.mockRestore();
    }
  });
});
