import { JobQueue } from '../src/common/jobs/job-queue';
import { FakeWebhook } from './fakes/webhook';
import { startTestApp, TestApp, TestUser } from './harness';

describe('Organization invitations', () => {
  let t: TestApp;
  let staff: TestUser;
  const hook = new FakeWebhook();

  beforeAll(async () => {
    await hook.start();
    t = await startTestApp();
    staff = await t.createUser({ staff: 'admin' });
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', staff.auth)
      .send({
        password: staff.password,
        config: [
          { key: 'organization_invitation_email_webhook_url', value: `${hook.url}/invite` },
          { key: 'reset_password_email_webhook_url', value: `${hook.url}/reset` },
        ],
      })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await hook.stop();
  });

  async function orgWithAdmin(): Promise<{ organization_id: number; admin: TestUser }> {
    const organization_id = await t.createOrganization('Acme');
    const admin = await t.createUser({ name: 'Ada', last_name: 'Admin' });
    await t.addMember(organization_id, admin.user_id, 1);
    return { organization_id, admin };
  }

  const invite = (by: TestUser, body: Record<string, unknown>) =>
    t.http().post('/api/user-organizations').set('Authorization', by.auth).send(body);

  const tokenOf = (mail: Record<string, unknown>) =>
    decodeURIComponent(String(mail.link).split('token=')[1] ?? '');

  it('answers the same for an email with an account and one without', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const existing = await t.createUser({ name: 'Secret', last_name: 'Person' });
    const a = await invite(admin, {
      organization_id,
      name: 'X',
      email: existing.email,
      user_type_id: 3,
    }).expect(201);
    const b = await invite(admin, {
      organization_id,
      name: 'X',
      email: 'nobody-yet@example.com',
      user_type_id: 3,
    }).expect(201);
    const shape = (body: { invitation: Record<string, unknown> }) => ({
      keys: Object.keys(body).sort(),
      inner: Object.keys(body.invitation).sort(),
    });
    expect(shape(a.body)).toEqual(shape(b.body));
    expect(JSON.stringify(a.body)).not.toMatch(/Secret|Person|user_id/);
    await hook.next('/invite');
    await hook.next('/invite');
  });

  it('emails an invitation whose link the invited account accepts, joining with the role offered', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser();
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 2 }).expect(201);
    const mail = await hook.next('/invite');
    expect(mail).toMatchObject({
      type: 'organization_invitation',
      to: invitee.email,
      organization_name: 'Acme',
      role: 'Manager',
      invited_by: 'Ada Admin',
    });
    expect(String(mail.link)).toContain('/organizations/invitations?token=');
    const res = await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token: tokenOf(mail) })
      .expect(200);
    expect(res.body).toMatchObject({ organization_id, user_type_id: 2 });
    const [m] = await t.db.query(
      `SELECT user_type_id FROM user_organizations WHERE user_id = $1 AND organization_id = $2`,
      [invitee.user_id, organization_id],
    );
    expect(m.user_type_id).toBe(2);
    // Spent: the same link does nothing a second time.
    const again = await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token: tokenOf(mail) })
      .expect(404);
    expect(again.body.code).toBe('invitation_not_found');
  });

  it('invites an unverified account like any other; it joins by the emailed link (which verifies it), not from the list until verified', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser({ unverified: true });
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 3 }).expect(201);
    const mail = await hook.next('/invite');
    const [pending] = (
      await t.http().get('/api/organization-invitations').set('Authorization', invitee.auth).expect(200)
    ).body.invitations as { invitation_id: number }[];
    const refused = await t
      .http()
      .post(`/api/organization-invitations/${pending.invitation_id}/accept`)
      .set('Authorization', invitee.auth)
      .expect(409);
    expect(refused.body.code).toBe('email_not_verified');
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token: tokenOf(mail) })
      .expect(200);
    const [user] = await t.db.query(`SELECT email_verified_at FROM users WHERE user_id = $1`, [
      invitee.user_id,
    ]);
    expect(user.email_verified_at).not.toBeNull();
  });

  it('refuses the link to anyone signed in with another email (404), and the invitation stays open', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser();
    const other = await t.createUser();
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 3 }).expect(201);
    const token = tokenOf(await hook.next('/invite'));
    const res = await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', other.auth)
      .send({ token })
      .expect(404);
    expect(res.body.code).toBe('invitation_not_found');
    expect(
      await t.db.query(`SELECT 1 FROM user_organizations WHERE user_id = $1`, [other.user_id]),
    ).toHaveLength(0);
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token })
      .expect(200);
  });

  it('refuses an unknown token (404), a missing one (400) and an anonymous caller (401)', async () => {
    const someone = await t.createUser();
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', someone.auth)
      .send({ token: 'not-a-real-token' })
      .expect(404);
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', someone.auth)
      .send({})
      .expect(400);
    await t.http().post('/api/organization-invitations/accept').send({ token: 'x' }).expect(401);
  });

  it('answers 410 for an expired invitation', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser();
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 3 }).expect(201);
    const token = tokenOf(await hook.next('/invite'));
    await t.db.query(
      `UPDATE organization_invitations SET expires_at = now() - interval '1 minute' WHERE email = $1`,
      [invitee.email],
    );
    const res = await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token })
      .expect(410);
    expect(res.body.code).toBe('invitation_expired');
  });

  it('lists the pending invitations of the signed-in email, to accept or decline there', async () => {
    const one = await orgWithAdmin();
    const two = await orgWithAdmin();
    const invitee = await t.createUser();
    await invite(one.admin, {
      organization_id: one.organization_id,
      name: 'X',
      email: invitee.email,
      user_type_id: 3,
    });
    await invite(two.admin, {
      organization_id: two.organization_id,
      name: 'X',
      email: invitee.email,
      user_type_id: 1,
    });
    await hook.next('/invite');
    await hook.next('/invite');
    const list = await t
      .http()
      .get('/api/organization-invitations')
      .set('Authorization', invitee.auth)
      .expect(200);
    expect(list.body.invitations).toHaveLength(2);
    expect(list.body.invitations[0]).toMatchObject({
      organization_id: two.organization_id,
      organization_name: 'Acme',
      role: 'Admin',
      invited_by: 'Ada Admin',
    });
    const [toDecline, toAccept] = list.body.invitations;
    // Someone else cannot act on them by id.
    const stranger = await t.createUser();
    await t
      .http()
      .post(`/api/organization-invitations/${toAccept.invitation_id}/accept`)
      .set('Authorization', stranger.auth)
      .expect(404);
    await t
      .http()
      .post(`/api/organization-invitations/${toDecline.invitation_id}/decline`)
      .set('Authorization', invitee.auth)
      .expect(204);
    await t
      .http()
      .post(`/api/organization-invitations/${toAccept.invitation_id}/accept`)
      .set('Authorization', invitee.auth)
      .expect(200);
    const after = await t
      .http()
      .get('/api/organization-invitations')
      .set('Authorization', invitee.auth)
      .expect(200);
    expect(after.body.invitations).toEqual([]);
    const orgs = await t.db.query(`SELECT organization_id FROM user_organizations WHERE user_id = $1`, [
      invitee.user_id,
    ]);
    expect(orgs).toEqual([{ organization_id: one.organization_id }]);
  });

  it('replaces an open invitation when the email is invited again; the old link stops working', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser();
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 3 }).expect(201);
    const first = tokenOf(await hook.next('/invite'));
    await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 2 }).expect(201);
    const second = tokenOf(await hook.next('/invite'));
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token: first })
      .expect(404);
    const res = await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', invitee.auth)
      .send({ token: second })
      .expect(200);
    expect(res.body.user_type_id).toBe(2);
  });

  it('lets a new person set a password from the recovery email and then accept', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    await invite(admin, { organization_id, name: 'Newt', email: 'newt@example.com', user_type_id: 3 }).expect(
      201,
    );
    const token = tokenOf(await hook.next('/invite'));
    const reset = await hook.next('/reset', 'newt@example.com');
    const resetToken = decodeURIComponent(String(reset.link).split('token=')[1]);
    await t
      .http()
      .post('/api/auth/reset-password')
      .send({ token: resetToken, password: 'newpass1' })
      .expect(200);
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: 'newt@example.com', password: 'newpass1' })
      .expect(200);
    await t
      .http()
      .post('/api/organization-invitations/accept')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({ token })
      .expect(200);
  });

  it('keeps the invitation token out of job data in clear', async () => {
    const { organization_id, admin } = await orgWithAdmin();
    const invitee = await t.createUser();
    const jobs = t.app.get(JobQueue);
    const added: unknown[] = [];
    const add = jobs.add.bind(jobs);
    const spy = jest.spyOn(jobs, 'add').mockImplementation(async (name, data, options) => {
      added.push(data);
      return add(name, data, options);
    });
    try {
      await invite(admin, { organization_id, name: 'X', email: invitee.email, user_type_id: 3 }).expect(201);
    } finally {
      spy.mockRestore();
    }
    const token = tokenOf(await hook.next('/invite'));
    expect(token.length).toBeGreaterThan(20);
    expect(JSON.stringify(added)).not.toContain(token);
  });

  it('records invitations made by staff who are not its Admin in the audit log', async () => {
    const { organization_id } = await orgWithAdmin();
    await invite(staff, {
      organization_id,
      name: 'X',
      email: 'staff-invited@example.com',
      user_type_id: 3,
    }).expect(201);
    await hook.next('/invite');
    await hook.next('/reset', 'staff-invited@example.com');
    const res = await t
      .http()
      .get('/api/audit-events')
      .query({ action: 'organization.member_invited' })
      .set('Authorization', staff.auth)
      .expect(200);
    expect(res.body.audit_events[0]).toMatchObject({ actor_user_id: staff.user_id, organization_id });
  });
});
