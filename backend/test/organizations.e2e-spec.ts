import { startTestApp, TestApp, TestUser } from './harness';

describe('Organizations API', () => {
  let t: TestApp;
  let staffManager: TestUser;
  let staffAdmin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    staffManager = await t.createUser({ staff: 'manager' });
    staffAdmin = await t.createUser({ staff: 'admin' });
  });
  afterAll(() => t.close());

  /** An organization with an Admin, a Manager and a Member. */
  async function orgWithRoles(name?: string) {
    const organization_id = await t.createOrganization(name);
    const admin = await t.createUser();
    const manager = await t.createUser();
    const member = await t.createUser();
    await t.addMember(organization_id, admin.user_id, 1);
    await t.addMember(organization_id, manager.user_id, 2);
    await t.addMember(organization_id, member.user_id, 3);
    return { organization_id, admin, manager, member };
  }

  async function membershipId(organizationId: number, userId: number): Promise<number> {
    const [row] = await t.db.query(
      `SELECT user_organization_id FROM user_organizations WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return row.user_organization_id;
  }

  describe('creating', () => {
    it('lets staff create an organization and makes the creator its Admin', async () => {
      const res = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Acme Rockets', tagline: 'To the moon' })
        .expect(201);
      expect(res.body.organization).toMatchObject({
        name: 'Acme Rockets',
        slug: 'acme-rockets',
        tagline: 'To the moon',
        user_type: { user_type_id: 1, name: 'Admin' },
      });
      const mine = await t
        .http()
        .get('/api/organizations')
        .set('Authorization', staffManager.auth)
        .expect(200);
      expect(mine.body.organizations).toContainEqual(
        expect.objectContaining({
          organization_id: res.body.organization.organization_id,
          name: 'Acme Rockets',
          user_type: { user_type_id: 1, name: 'Admin' },
        }),
      );
    });

    it('answers 403 to a user who is not staff', async () => {
      const user = await t.createUser();
      const res = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', user.auth)
        .send({ name: 'Nope' })
        .expect(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('asks for a name with the spec wording', async () => {
      for (const body of [{}, { name: '   ' }]) {
        const res = await t
          .http()
          .post('/api/organizations')
          .set('Authorization', staffManager.auth)
          .send(body)
          .expect(400);
        expect(res.body.message).toBe('Please add a name to your organization');
      }
    });

    it('gives a second organization of the same name its own slug', async () => {
      const create = () =>
        t
          .http()
          .post('/api/organizations')
          .set('Authorization', staffManager.auth)
          .send({ name: 'Twin Co' })
          .expect(201);
      const first = await create();
      const second = await create();
      expect(first.body.organization.slug).toBe('twin-co');
      expect(second.body.organization.slug).toBe('twin-co-2');
    });

    it("keeps the app's own routes out of slugs: a chosen one is refused (slug_reserved), a name's gets a suffix", async () => {
      const post = (body: object) =>
        t.http().post('/api/organizations').set('Authorization', staffManager.auth).send(body);
      for (const slug of ['pricing', 'latam', 'auth', 'Welcome']) {
        const res = await post({ name: 'Shadow', slug }).expect(400);
        expect(res.body).toMatchObject({ code: 'slug_reserved' });
        expect(res.body.message).toBe(
          `"${slug.toLowerCase()}" is one of the app's own addresses (/${slug.toLowerCase()}), so it cannot name an organization. Choose another slug.`,
        );
      }
      const badShape = await post({ name: 'Shadow', slug: 'no spaces!' }).expect(400);
      expect(badShape.body.code).toBe('invalid_slug');
      const named = await post({ name: 'Pricing' }).expect(201);
      expect(named.body.organization.slug).toBe('pricing-2');
      const suffix = Date.now().toString(36);
      const chosen = await post({ name: 'Chosen', slug: `chosen-${suffix}` }).expect(201);
      expect(chosen.body.organization.slug).toBe(`chosen-${suffix}`);
      const taken = await post({ name: 'Again', slug: `chosen-${suffix}` }).expect(409);
      expect(taken.body.code).toBe('slug_taken');

      // Saving the settings checks a changed slug the same way; an unchanged one passes.
      const put = (body: object) =>
        t
          .http()
          .put('/api/organizations')
          .set('Authorization', staffManager.auth)
          .send({ organization_id: named.body.organization.organization_id, ...body });
      const reserved = await put({ slug: 'templates' }).expect(400);
      expect(reserved.body.code).toBe('slug_reserved');
      expect((await put({ slug: `chosen-${suffix}` }).expect(409)).body.code).toBe('slug_taken');
      await put({ slug: 'pricing-2', tagline: 'Same slug' }).expect(200);
      expect((await put({ slug: null }).expect(200)).body.organization.slug).toBe('pricing-2');
      const renamed = await put({ slug: `priced-${suffix}` }).expect(200);
      expect(renamed.body.organization.slug).toBe(`priced-${suffix}`);
      const found = await t
        .http()
        .get('/api/organizations/lookup')
        .query({ slug: `priced-${suffix}` })
        .set('Authorization', staffManager.auth)
        .expect(200);
      expect(found.body.organization.organization_id).toBe(named.body.organization.organization_id);
    });

    it('refuses a domain that is not a host name and one already used', async () => {
      const bad = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Bad Domain', domain: 'https://nope' })
        .expect(400);
      expect(bad.body.errors).toContainEqual({
        field: 'domain',
        message: 'The domain must be a host name such as app.example.com.',
      });
      await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Domain Owner', domain: 'Taken.Example.com' })
        .expect(201);
      const taken = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Domain Thief', domain: 'taken.example.com' })
        .expect(409);
      expect(taken.body).toMatchObject({
        code: 'domain_taken',
        message: 'That domain is already used by another organization.',
      });
    });

    it('accepts an uploaded file or an http(s) URL as thumbnail and welcome video, nothing else', async () => {
      const ok = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({
          name: 'Media Co',
          thumbnail: '/api/files/content/abc123',
          welcome_video: 'https://videos.example.com/welcome.mp4',
        })
        .expect(201);
      expect(ok.body.organization.thumbnail).toBe('/api/files/content/abc123');
      const bad = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Media Co', welcome_video: 'javascript:alert(1)' })
        .expect(400);
      expect(bad.body.message).toBe('The welcome video must be an uploaded file or an http(s) URL.');
    });
  });

  describe('secrets', () => {
    const KEY = 'sk-live-abcdefghijklmnop1234';

    it('stores secrets encrypted and answers them masked; a masked value sent back keeps them; "" clears', async () => {
      const created = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({
          name: 'Secretive',
          openai_api_key: KEY,
          stripe_secret: 'sk_test_999988887777',
          stripe_public: 'pk_1',
        })
        .expect(201);
      const org = created.body.organization;
      expect(org.openai_api_key).toBe('••••••••1234');
      expect(org.stripe_secret).toBe('••••••••7777');
      expect(org.stripe_public).toBe('pk_1');
      expect(JSON.stringify(created.body)).not.toContain(KEY);

      const [raw] = await t.db.query(
        `SELECT openai_api_key, stripe_secret FROM organizations WHERE organization_id = $1`,
        [org.organization_id],
      );
      expect(raw.openai_api_key).not.toContain(KEY);
      expect(raw.openai_api_key).not.toContain('1234');
      expect(raw.openai_api_key.startsWith('enc:v1:')).toBe(true);

      const got = await t
        .http()
        .get(`/api/organizations/${org.organization_id}`)
        .set('Authorization', staffManager.auth)
        .expect(200);
      expect(got.body.organization.openai_api_key).toBe('••••••••1234');

      // The settings form sends back the masked key it got: the stored key stays.
      const saved = await t
        .http()
        .put('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({
          organization_id: org.organization_id,
          name: 'Secretive',
          openai_api_key: got.body.organization.openai_api_key,
          stripe_secret: '',
        })
        .expect(200);
      expect(saved.body.organization.openai_api_key).toBe('••••••••1234');
      expect(saved.body.organization.stripe_secret).toBeNull();
      const [after] = await t.db.query(
        `SELECT openai_api_key, stripe_secret FROM organizations WHERE organization_id = $1`,
        [org.organization_id],
      );
      expect(after.openai_api_key).toBe(raw.openai_api_key);
      expect(after.stripe_secret).toBeNull();
    });

    it('hides the secrets from Members entirely', async () => {
      const { organization_id, member } = await orgWithRoles();
      await t.db.query(`UPDATE organizations SET openai_api_key = 'x' WHERE organization_id = $1`, [
        organization_id,
      ]);
      const res = await t
        .http()
        .get(`/api/organizations/${organization_id}`)
        .set('Authorization', member.auth)
        .expect(200);
      expect(res.body.organization.openai_api_key).toBeNull();
      expect(res.body.organization.user_type).toEqual({ user_type_id: 3, name: 'Member' });
    });
  });

  describe('looking up (organization choice order)', () => {
    it('finds an organization by slug and by domain, without its settings', async () => {
      const created = await t
        .http()
        .post('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ name: 'Lookup Labs', domain: 'app.lookup-labs.com', openai_api_key: 'sk-abcdefghijkl' })
        .expect(201);
      const id = created.body.organization.organization_id;

      const bySlug = await t.http().get('/api/organizations/lookup?slug=lookup-labs').expect(200);
      expect(bySlug.body.organization).toEqual({
        organization_id: id,
        name: 'Lookup Labs',
        slug: 'lookup-labs',
        tagline: null,
        thumbnail: null,
        welcome_video: null,
        domain: 'app.lookup-labs.com',
      });
      const byDomain = await t
        .http()
        .get('/api/organizations/lookup?domain=App.Lookup-Labs.com:443')
        .expect(200);
      expect(byDomain.body.organization.organization_id).toBe(id);
      const both = await t
        .http()
        .get('/api/organizations/lookup?slug=unknown-slug&domain=app.lookup-labs.com')
        .expect(200);
      expect(both.body.organization.organization_id).toBe(id);
    });

    it('answers 404 for no match and 400 when nothing is asked', async () => {
      const res = await t.http().get('/api/organizations/lookup?domain=nobody.example.com').expect(404);
      expect(res.body.code).toBe('organization_not_found');
      await t.http().get('/api/organizations/lookup').expect(400);
    });
  });

  describe("another organization's data", () => {
    it('answers 404 for the organization, its users and its settings', async () => {
      const theirs = await orgWithRoles();
      const mine = await orgWithRoles();
      const outsider = mine.admin;
      await t
        .http()
        .get(`/api/organizations/${theirs.organization_id}`)
        .set('Authorization', outsider.auth)
        .expect(404);
      await t
        .http()
        .get(`/api/organizations/${theirs.organization_id}/users`)
        .set('Authorization', outsider.auth)
        .expect(404);
      await t
        .http()
        .put('/api/organizations')
        .set('Authorization', outsider.auth)
        .send({ organization_id: theirs.organization_id, name: 'Hijacked' })
        .expect(404);
      await t
        .http()
        .delete(`/api/organizations/${theirs.organization_id}?name=x`)
        .set('Authorization', outsider.auth)
        .expect(404);
      const [row] = await t.db.query(`SELECT name FROM organizations WHERE organization_id = $1`, [
        theirs.organization_id,
      ]);
      expect(row.name).not.toBe('Hijacked');
    });

    it("answers 404 for another organization's memberships even with the caller's own scope", async () => {
      const theirs = await orgWithRoles();
      const mine = await orgWithRoles();
      const target = await membershipId(theirs.organization_id, theirs.member.user_id);
      const scope = `?organization_id=${mine.organization_id}`;
      await t
        .http()
        .get(`/api/user-organizations/${target}${scope}`)
        .set('Authorization', mine.admin.auth)
        .expect(404);
      await t
        .http()
        .put(`/api/user-organizations${scope}`)
        .set('Authorization', mine.admin.auth)
        .send({ user_organization_id: target, user_type_id: 1 })
        .expect(404);
      await t
        .http()
        .delete(`/api/user-organizations/${target}${scope}`)
        .set('Authorization', mine.admin.auth)
        .expect(404);
      await t
        .http()
        .post(`/api/user-organizations${scope}`)
        .set('Authorization', mine.admin.auth)
        .send({
          organization_id: theirs.organization_id,
          name: 'X',
          email: 'x1@example.com',
          user_type_id: 3,
        })
        .expect(404);
      const [row] = await t.db.query(
        `SELECT user_type_id FROM user_organizations WHERE user_organization_id = $1`,
        [target],
      );
      expect(row.user_type_id).toBe(3);
    });

    it('answers 404 when the request scope names an organization the caller is not in', async () => {
      const theirs = await orgWithRoles();
      const user = await t.createUser();
      await t
        .http()
        .get(`/api/organizations?organization_id=${theirs.organization_id}`)
        .set('Authorization', user.auth)
        .expect(404);
    });
  });

  describe('roles', () => {
    it('answers 403 to a Member on admin actions', async () => {
      const { organization_id, member, admin } = await orgWithRoles('Role Org');
      const adminMembership = await membershipId(organization_id, admin.user_id);
      await t
        .http()
        .put('/api/organizations')
        .set('Authorization', member.auth)
        .send({ organization_id, name: 'Changed' })
        .expect(403);
      await t
        .http()
        .delete(`/api/organizations/${organization_id}?name=Role%20Org`)
        .set('Authorization', member.auth)
        .expect(403);
      await t
        .http()
        .get(`/api/organizations/${organization_id}/users`)
        .set('Authorization', member.auth)
        .expect(403);
      await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', member.auth)
        .send({ organization_id, name: 'New', email: 'new-by-member@example.com', user_type_id: 3 })
        .expect(403);
      await t
        .http()
        .get(`/api/user-organizations/${adminMembership}`)
        .set('Authorization', member.auth)
        .expect(403);
      await t
        .http()
        .delete(`/api/user-organizations/${adminMembership}`)
        .set('Authorization', member.auth)
        .expect(403);
    });

    it('lets a Manager see the users list but not add or edit users', async () => {
      const { organization_id, manager, member } = await orgWithRoles();
      const list = await t
        .http()
        .get(`/api/organizations/${organization_id}/users`)
        .set('Authorization', manager.auth)
        .expect(200);
      expect(list.body.total).toBe(3);
      await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', manager.auth)
        .send({ organization_id, name: 'New', email: 'new-by-manager@example.com', user_type_id: 3 })
        .expect(403);
      await t
        .http()
        .put('/api/user-organizations')
        .set('Authorization', manager.auth)
        .send({ user_organization_id: await membershipId(organization_id, member.user_id), user_type_id: 2 })
        .expect(403);
      const created = await t.db.query(`SELECT 1 FROM users WHERE email = 'new-by-manager@example.com'`);
      expect(created).toHaveLength(0);
    });

    it('lets a staff admin act as Admin of any organization, and not a staff manager', async () => {
      const { organization_id } = await orgWithRoles();
      await t
        .http()
        .put('/api/organizations')
        .set('Authorization', staffManager.auth)
        .send({ organization_id, tagline: 'by manager' })
        .expect(403);
      const res = await t
        .http()
        .put('/api/organizations')
        .set('Authorization', staffAdmin.auth)
        .send({ organization_id, tagline: 'by staff admin' })
        .expect(200);
      expect(res.body.organization).toMatchObject({ tagline: 'by staff admin', user_type: null });
    });

    it('lists every organization, paged, to staff only', async () => {
      const user = await t.createUser();
      await t.http().get('/api/organizations/admin/all').set('Authorization', user.auth).expect(403);
      const id = await t.createOrganization('Zebra Paged Inc');
      const res = await t
        .http()
        .get('/api/organizations/admin/all?query=zebra%20paged&page=1&limit=5')
        .set('Authorization', staffManager.auth)
        .expect(200);
      expect(res.body).toMatchObject({ total: 1, page: 1, limit: 5 });
      expect(res.body.organizations[0]).toMatchObject({
        organization_id: id,
        users_count: 0,
        user_type: null,
      });
    });
  });

  describe('organization users', () => {
    it('invites a brand-new person: creates the account, an invitation and a password reset token, no membership', async () => {
      const { organization_id, admin } = await orgWithRoles();
      const res = await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({
          organization_id,
          name: 'Nina',
          last_name: 'New',
          email: ' Nina.New@Example.com ',
          user_type_id: 2,
        })
        .expect(201);
      expect(res.body.invitation).toMatchObject({
        organization_id,
        user_type_id: 2,
        email: 'nina.new@example.com',
      });
      const [user] = await t.db.query(`SELECT user_id, default_organization FROM users WHERE email = $1`, [
        'nina.new@example.com',
      ]);
      expect(user.default_organization).toBe(organization_id);
      const memberships = await t.db.query(`SELECT 1 FROM user_organizations WHERE user_id = $1`, [
        user.user_id,
      ]);
      expect(memberships).toHaveLength(0);
      const tokens = await t.db.query(
        `SELECT 1 FROM auth_tokens WHERE user_id = $1 AND purpose = 'reset_password' AND used_at IS NULL`,
        [user.user_id],
      );
      expect(tokens).toHaveLength(1);
    });

    it('invites an existing account without a reset or its name, and answers 409 once it is a member', async () => {
      const { organization_id, admin } = await orgWithRoles();
      const existing = await t.createUser({ name: 'Old', last_name: 'Timer' });
      const body = { organization_id, name: 'Ignored', email: existing.email.toUpperCase(), user_type_id: 3 };
      const res = await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send(body)
        .expect(201);
      expect(Object.keys(res.body)).toEqual(['invitation']);
      expect(JSON.stringify(res.body)).not.toContain('Old');
      const tokens = await t.db.query(`SELECT 1 FROM auth_tokens WHERE user_id = $1`, [existing.user_id]);
      expect(tokens).toHaveLength(0);
      const [{ user_name }] = await t.db.query(`SELECT name AS user_name FROM users WHERE user_id = $1`, [
        existing.user_id,
      ]);
      expect(user_name).toBe('Old');
      await t
        .http()
        .post(`/api/organization-invitations/${res.body.invitation.invitation_id}/accept`)
        .set('Authorization', existing.auth)
        .expect(200);
      const again = await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send(body)
        .expect(409);
      expect(again.body.code).toBe('already_member');
    });

    it('validates the user form', async () => {
      const { organization_id, admin } = await orgWithRoles();
      const res = await t
        .http()
        .post('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({ organization_id, name: '', email: 'not-an-email', user_type_id: 4 })
        .expect(400);
      const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'user_type_id']));
      expect(res.body.errors).toContainEqual({ field: 'email', message: 'Email is invalid.' });
    });

    it("lets the Admin change a member's role but never their name", async () => {
      const { organization_id, admin, member } = await orgWithRoles();
      const id = await membershipId(organization_id, member.user_id);
      const [before] = await t.db.query(`SELECT name, last_name FROM users WHERE user_id = $1`, [
        member.user_id,
      ]);
      const res = await t
        .http()
        .put('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({ user_organization_id: id, user_type_id: 2 })
        .expect(200);
      expect(res.body.user_organization).toMatchObject({
        user_type_id: 2,
        user_type: { name: 'Manager' },
        user: { name: before.name, last_name: before.last_name },
      });
      const rename = await t
        .http()
        .put('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({ user_organization_id: id, name: 'Renamed', last_name: 'Person' })
        .expect(400);
      expect(rename.body.code).toBe('validation_failed');
      expect(rename.body.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'last_name']);
      const [after] = await t.db.query(`SELECT name, last_name FROM users WHERE user_id = $1`, [
        member.user_id,
      ]);
      expect(after).toEqual(before);
    });

    it('keeps at least one Admin in every organization', async () => {
      const { organization_id, admin } = await orgWithRoles();
      const adminId = await membershipId(organization_id, admin.user_id);
      const demote = await t
        .http()
        .put('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({ user_organization_id: adminId, user_type_id: 3 })
        .expect(409);
      expect(demote.body).toMatchObject({
        code: 'last_admin',
        message: 'An organization must keep at least one Admin.',
      });
      const leave = await t
        .http()
        .delete(`/api/user-organizations/${adminId}`)
        .set('Authorization', admin.auth)
        .expect(409);
      expect(leave.body.code).toBe('last_admin');

      const second = await t.createUser();
      await t.addMember(organization_id, second.user_id, 1);
      await t
        .http()
        .put('/api/user-organizations')
        .set('Authorization', admin.auth)
        .send({ user_organization_id: adminId, user_type_id: 3 })
        .expect(200);
      const [{ admins }] = await t.db.query(
        `SELECT count(*)::int AS admins FROM user_organizations WHERE organization_id = $1 AND user_type_id = 1`,
        [organization_id],
      );
      expect(admins).toBe(1);
    });

    it('lets an Admin remove a member and a member leave; the default organization is cleared', async () => {
      const { organization_id, admin, manager, member } = await orgWithRoles();
      await t.db.query(`UPDATE users SET default_organization = $1 WHERE user_id = $2`, [
        organization_id,
        member.user_id,
      ]);
      await t
        .http()
        .delete(`/api/user-organizations/${await membershipId(organization_id, member.user_id)}`)
        .set('Authorization', admin.auth)
        .expect(204);
      const [gone] = await t.db.query(`SELECT default_organization FROM users WHERE user_id = $1`, [
        member.user_id,
      ]);
      expect(gone.default_organization).toBeNull();
      await t
        .http()
        .delete(`/api/user-organizations/${await membershipId(organization_id, manager.user_id)}`)
        .set('Authorization', manager.auth)
        .expect(204);
      const left = await t.db.query(`SELECT user_id FROM user_organizations WHERE organization_id = $1`, [
        organization_id,
      ]);
      expect(left).toEqual([{ user_id: admin.user_id }]);
    });

    it('shows a membership to the member themself and to Managers', async () => {
      const { organization_id, manager, member } = await orgWithRoles();
      const id = await membershipId(organization_id, member.user_id);
      for (const who of [member, manager]) {
        const res = await t
          .http()
          .get(`/api/user-organizations/${id}`)
          .set('Authorization', who.auth)
          .expect(200);
        expect(res.body.user_organization).toMatchObject({
          user_organization_id: id,
          user_id: member.user_id,
          organization_id,
          user_type_id: 3,
          user_type: { name: 'Member' },
          last_use: null,
          user: { user_id: member.user_id, email: member.email },
          campaigns_access: [],
        });
      }
      await t.http().get('/api/user-organizations/999999').set('Authorization', manager.auth).expect(404);
      await t.http().get('/api/user-organizations/abc').set('Authorization', manager.auth).expect(400);
    });
  });

  describe('users list', () => {
    it('lists members with role, LTV and usage, searchable by name, last name or email', async () => {
      const { organization_id, admin, member } = await orgWithRoles();
      await t.db.query(`UPDATE users SET name = 'Zoe', last_name = 'Quartz', value = 99 WHERE user_id = $1`, [
        member.user_id,
      ]);
      // LTV: what the member paid in this organization within the range (purchases less refunds, renewals);
      // not the lifetime total, nor other organizations' purchases, nor those paid outside the range.
      const other = await t.createOrganization();
      const [{ product_id }] = await t.db.query(
        `INSERT INTO products (organization_id, name, description, price) VALUES ($1, 'Plan', 'Plan', 1000)
         RETURNING product_id`,
        [organization_id],
      );
      const purchase = async (org: number, amount: number, paidAt: string, refunded = 0) =>
        (
          await t.db.query(
            `INSERT INTO purchases (user_id, product_id, organization_id, status, amount, refunded_amount, paid_at)
             VALUES ($1, $2, $3, 'active', $4, $5, $6) RETURNING purchase_id`,
            [member.user_id, product_id, org, amount, refunded, paidAt],
          )
        )[0].purchase_id as number;
      const now = new Date().toISOString();
      const paid = await purchase(organization_id, 1000, now, 250);
      await purchase(other, 5000, now);
      await purchase(organization_id, 7000, '2020-01-15T00:00:00Z');
      await t.db.query(
        `INSERT INTO invoices (purchase_id, user_id, amount, status, paid_at) VALUES ($1, $2, 500, 'completed', $3),
         ($1, $2, 900, 'failed', $3)`,
        [paid, member.user_id, now],
      );
      const res = await t
        .http()
        .get(`/api/organizations/${organization_id}/users?query=quartz`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(res.body).toMatchObject({ total: 1, page: 1 });
      expect(res.body.users[0]).toEqual({
        user_organization_id: await membershipId(organization_id, member.user_id),
        user_id: member.user_id,
        name: 'Zoe',
        last_name: 'Quartz',
        email: member.email,
        role: 'Member',
        user_type_id: 3,
        total_words: 0,
        last_used: null,
        ltv: 12.5,
      });
      const january2020 = await t
        .http()
        .get(
          `/api/organizations/${organization_id}/users?query=quartz&start_date=2020-01-01&end_date=2020-01-31`,
        )
        .set('Authorization', admin.auth)
        .expect(200);
      expect(january2020.body.users[0].ltv).toBe(70);
      const full = await t
        .http()
        .get(`/api/organizations/${organization_id}/users?query=Zoe%20Quartz`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(full.body.total).toBe(1);
      const none = await t
        .http()
        .get(`/api/organizations/${organization_id}/users?query=nobody-here`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(none.body).toMatchObject({ users: [], total: 0 });
    });

    it('defaults the range to the current month and shows the last use only inside the range', async () => {
      const { organization_id, admin, member } = await orgWithRoles();
      await t.db.query(
        `UPDATE user_organizations SET last_use = '2024-03-15T12:00:00Z' WHERE organization_id = $1 AND user_id = $2`,
        [organization_id, member.user_id],
      );
      const now = new Date();
      const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const current = await t
        .http()
        .get(`/api/organizations/${organization_id}/users`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(current.body.start_date).toBe(`${month}-01`);
      expect(current.body.end_date.startsWith(month)).toBe(true);
      const row = (list: { user_id: number; last_used: string | null }[]) =>
        list.find((u) => u.user_id === member.user_id)!;
      expect(row(current.body.users).last_used).toBeNull();

      const march = await t
        .http()
        .get(`/api/organizations/${organization_id}/users?start_date=2024-03-01&end_date=2024-03-15`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(row(march.body.users).last_used).toBe('2024-03-15T12:00:00.000Z');
    });

    it('records a member’s use of the organization when a request is scoped to it, not when unscoped', async () => {
      const { organization_id, member } = await orgWithRoles();
      const lastUse = async () =>
        (
          await t.db.query(
            `SELECT last_use FROM user_organizations WHERE organization_id = $1 AND user_id = $2`,
            [organization_id, member.user_id],
          )
        )[0].last_use as Date | null;
      await t.http().get('/api/users').set('Authorization', member.auth).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await lastUse()).toBeNull();
      await t
        .http()
        .get(`/api/users?organization_id=${organization_id}`)
        .set('Authorization', member.auth)
        .expect(200);
      // Recorded beside the request, never delaying it.
      for (let i = 0; i < 50 && (await lastUse()) === null; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await lastUse()).not.toBeNull();
    });

    it('answers 400 for dates that are not YYYY-MM-DD days or a reversed range', async () => {
      const { organization_id, admin } = await orgWithRoles();
      const url = `/api/organizations/${organization_id}/users`;
      const bad = await t
        .http()
        .get(`${url}?start_date=2024-02-30`)
        .set('Authorization', admin.auth)
        .expect(400);
      expect(bad.body.message).toBe('start_date must be a date written YYYY-MM-DD.');
      await t.http().get(`${url}?end_date=03/01/2024`).set('Authorization', admin.auth).expect(400);
      const reversed = await t
        .http()
        .get(`${url}?start_date=2024-03-02&end_date=2024-03-01`)
        .set('Authorization', admin.auth)
        .expect(400);
      expect(reversed.body.code).toBe('invalid_date_range');
    });
  });

  describe('deleting', () => {
    it('refuses a name that does not match exactly, with the spec message', async () => {
      const { organization_id, admin } = await orgWithRoles('Exact Name');
      for (const typed of ['exact name', 'Exact Name ', '']) {
        const res = await t
          .http()
          .delete(`/api/organizations/${organization_id}?name=${encodeURIComponent(typed)}`)
          .set('Authorization', admin.auth)
          .expect(400);
        expect(res.body).toMatchObject({
          code: 'name_mismatch',
          message: 'Organization name does not match. Deletion aborted.',
        });
      }
      await t
        .http()
        .delete(`/api/organizations/${organization_id}`)
        .set('Authorization', admin.auth)
        .expect(400);
    });

    it('deletes with the exact name, clearing default organizations that pointed at it', async () => {
      const { organization_id, admin, member } = await orgWithRoles('Doomed Org');
      await t.db.query(`UPDATE users SET default_organization = $1 WHERE user_id = $2`, [
        organization_id,
        member.user_id,
      ]);
      await t
        .http()
        .delete(`/api/organizations/${organization_id}?name=Doomed%20Org`)
        .set('Authorization', admin.auth)
        .expect(204);
      await t
        .http()
        .get(`/api/organizations/${organization_id}`)
        .set('Authorization', admin.auth)
        .expect(404);
      const [user] = await t.db.query(`SELECT default_organization FROM users WHERE user_id = $1`, [
        member.user_id,
      ]);
      expect(user.default_organization).toBeNull();
      const memberships = await t.db.query(`SELECT 1 FROM user_organizations WHERE organization_id = $1`, [
        organization_id,
      ]);
      expect(memberships).toHaveLength(0);
    });
  });

  describe('settings', () => {
    it('saves the settings for the Admin and keeps the slug when the name changes', async () => {
      const { organization_id, admin } = await orgWithRoles('Before Rename');
      const [{ slug }] = await t.db.query(`SELECT slug FROM organizations WHERE organization_id = $1`, [
        organization_id,
      ]);
      const res = await t
        .http()
        .put(`/api/organizations?organization_id=${organization_id}`)
        .set('Authorization', admin.auth)
        .send({
          organization_id,
          name: 'After Rename',
          tagline: 'New tagline',
          domain: 'after.example.org',
          thumbnail: 'https://img.example.org/logo.png',
        })
        .expect(200);
      expect(res.body.organization).toMatchObject({
        name: 'After Rename',
        slug,
        tagline: 'New tagline',
        domain: 'after.example.org',
        thumbnail: 'https://img.example.org/logo.png',
        user_type: { user_type_id: 1, name: 'Admin' },
      });
      const cleared = await t
        .http()
        .put('/api/organizations')
        .set('Authorization', admin.auth)
        .send({ organization_id, domain: '', tagline: null })
        .expect(200);
      expect(cleared.body.organization).toMatchObject({ name: 'After Rename', domain: null, tagline: null });
      const empty = await t
        .http()
        .put('/api/organizations')
        .set('Authorization', admin.auth)
        .send({ organization_id, name: '' })
        .expect(400);
      expect(empty.body.message).toBe('Please add a name to your organization');
    });

    it('searches my organizations by name', async () => {
      const user = await t.createUser();
      const a = await t.createOrganization('Alpha Search');
      const b = await t.createOrganization('Beta Search');
      await t.addMember(a, user.user_id, 3);
      await t.addMember(b, user.user_id, 2);
      const all = await t.http().get('/api/organizations').set('Authorization', user.auth).expect(200);
      expect(all.body.organizations.map((o: { name: string }) => o.name)).toEqual([
        'Alpha Search',
        'Beta Search',
      ]);
      const beta = await t
        .http()
        .get('/api/organizations?query=beta')
        .set('Authorization', user.auth)
        .expect(200);
      expect(beta.body.organizations).toHaveLength(1);
      expect(beta.body.organizations[0]).toMatchObject({
        organization_id: b,
        user_type: { name: 'Manager' },
      });
    });
  });
});
