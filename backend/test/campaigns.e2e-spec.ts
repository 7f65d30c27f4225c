import { PDF, PNG } from '../src/modules/files/testing/sample-files';
import { startTestApp, TestApp, TestUser } from './harness';

describe('Campaigns and groups', () => {
  let t: TestApp;
  let org: number;
  let otherOrg: number;
  let admin: TestUser;
  let manager: TestUser;
  let otherManager: TestUser;
  let grouped: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let staff: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.createOrganization('Campaign Co');
    otherOrg = await t.createOrganization('Other Co');
    admin = await t.createUser({ name: 'Ada', last_name: 'Admin' });
    manager = await t.createUser({ name: 'Max', last_name: 'Manager' });
    otherManager = await t.createUser({ name: 'Mia', last_name: 'Manager' });
    grouped = await t.createUser({ name: 'Gus', last_name: 'Grouped' });
    member = await t.createUser({ name: 'Meg', last_name: 'Member' });
    outsider = await t.createUser();
    staff = await t.createUser({ staff: 'manager' });
    await t.addMember(org, admin.user_id, 1);
    await t.addMember(org, manager.user_id, 2);
    await t.addMember(org, otherManager.user_id, 2);
    await t.addMember(org, grouped.user_id, 3);
    await t.addMember(org, member.user_id, 3);
    await t.addMember(otherOrg, outsider.user_id, 1);
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (path: string) => t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object = {}) => t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => t.http().delete(path).set('Authorization', who.auth),
  });

  const listNames = async (who: TestUser, query = '') =>
    (await as(who).get(`/api/campaigns/organization/${org}${query}`).expect(200)).body.campaigns.map(
      (c: { name: string }) => c.name,
    );

  async function createCampaign(who: TestUser, name: string): Promise<number> {
    const res = await as(who).post('/api/campaigns', { organization_id: org, name }).expect(201);
    return res.body.campaign.campaign_id;
  }

  describe('groups', () => {
    it('lets Managers create, rename, fill, empty and delete groups of organization members', async () => {
      const created = await as(manager)
        .post('/api/groups', { name: ' Sales ', organization_id: org })
        .expect(201);
      const group = created.body.group;
      expect(group).toMatchObject({ name: 'Sales', organization_id: org, users: 0, group_users: [] });

      const added = await as(manager)
        .post(`/api/groups/users/${group.group_id}/${member.user_id}`)
        .expect(201);
      expect(added.body.group.group_users).toEqual([
        { user_id: member.user_id, user: expect.objectContaining({ name: 'Meg', last_name: 'Member' }) },
      ]);
      await as(manager).post(`/api/groups/users/${group.group_id}/${member.user_id}`).expect(201);
      const notMember = await as(manager)
        .post(`/api/groups/users/${group.group_id}/${outsider.user_id}`)
        .expect(400);
      expect(notMember.body).toMatchObject({
        code: 'not_organization_member',
        message: 'That user is not a member of this organization.',
      });

      await as(admin).put('/api/groups', { group_id: group.group_id, name: 'Sales EU' }).expect(200);
      const list = await as(admin).get(`/api/groups/organization/${org}?query=eu`).expect(200);
      expect(list.body).toMatchObject({
        total: 1,
        groups: [expect.objectContaining({ name: 'Sales EU', users: 1 })],
      });

      await as(manager).delete(`/api/groups/users/${group.group_id}/${member.user_id}`).expect(204);
      await as(manager).delete(`/api/groups/users/${group.group_id}/${member.user_id}`).expect(404);
      await as(manager).delete(`/api/groups/${group.group_id}`).expect(204);
      await as(manager).get(`/api/groups/${group.group_id}`).expect(404);
    });

    it('refuses Members (403), other organizations (404) and an empty name (400)', async () => {
      const group = (
        await as(admin).post('/api/groups', { name: 'Closed', organization_id: org }).expect(201)
      ).body.group;
      await as(member).post('/api/groups', { name: 'Mine', organization_id: org }).expect(403);
      await as(member).get(`/api/groups/organization/${org}`).expect(403);
      await as(member).post(`/api/groups/users/${group.group_id}/${member.user_id}`).expect(403);
      await as(outsider).get(`/api/groups/${group.group_id}`).expect(404);
      await as(outsider).put('/api/groups', { group_id: group.group_id, name: 'Taken' }).expect(404);
      await as(outsider).get(`/api/groups/organization/${org}`).expect(404);
      const empty = await as(admin).post('/api/groups', { name: '  ', organization_id: org }).expect(400);
      expect(empty.body.message).toBe('Please add a name to your group');
    });
  });

  describe('campaign visibility', () => {
    let owned: number;
    let others: number;
    let groupId: number;

    beforeAll(async () => {
      owned = await createCampaign(manager, 'Owned by Max');
      others = await createCampaign(otherManager, 'Owned by Mia');
      groupId = (await as(admin).post('/api/groups', { name: 'Readers', organization_id: org }).expect(201))
        .body.group.group_id;
      await as(admin).post(`/api/groups/users/${groupId}/${grouped.user_id}`).expect(201);
    });

    it('shows a Member only what was given to them or their group, a Manager also what they own, an Admin all', async () => {
      expect(await listNames(member)).toEqual([]);
      expect(await listNames(grouped)).toEqual([]);
      expect(await listNames(manager)).toEqual(['Owned by Max']);
      expect(await listNames(otherManager)).toEqual(['Owned by Mia']);
      expect((await listNames(admin)).sort()).toEqual(['Owned by Max', 'Owned by Mia']);
      expect((await listNames(staff)).sort()).toEqual(['Owned by Max', 'Owned by Mia']);
      await as(outsider).get(`/api/campaigns/organization/${org}`).expect(404);

      // Null names nobody: 400, not a 500.
      await as(manager).post(`/api/campaigns/give-access/${owned}`, { user_id: null }).expect(400);
      await as(manager).put('/api/campaigns', { campaign_id: owned, name: null }).expect(400);
      await as(manager).post(`/api/campaigns/give-access/${owned}`, { group_id: groupId }).expect(200);
      await as(otherManager)
        .post(`/api/campaigns/give-access/${others}`, { user_id: member.user_id })
        .expect(200);
      await as(otherManager)
        .post(`/api/campaigns/give-access/${others}`, { user_id: manager.user_id })
        .expect(200);

      expect(await listNames(grouped)).toEqual(['Owned by Max']);
      expect(await listNames(member)).toEqual(['Owned by Mia']);
      expect((await listNames(manager)).sort()).toEqual(['Owned by Max', 'Owned by Mia']);

      // One campaign, every caller.
      await as(grouped).get(`/api/campaigns/${owned}`).expect(200);
      await as(member).get(`/api/campaigns/${owned}`).expect(404);
      await as(otherManager).get(`/api/campaigns/${owned}`).expect(404);
      await as(admin).get(`/api/campaigns/${owned}`).expect(200);
      await as(outsider).get(`/api/campaigns/${owned}`).expect(404);
      await as(outsider).get(`/api/campaigns/${owned}/resources`).expect(404);

      // A Member sees the campaign but does not manage it; a Manager who does not see one gets 404.
      await as(grouped).put('/api/campaigns', { campaign_id: owned, name: 'Mine now' }).expect(403);
      await as(otherManager).put('/api/campaigns', { campaign_id: owned, name: 'Mine now' }).expect(404);
      await as(outsider).delete(`/api/campaigns/campaign/${owned}`).expect(404);

      // The membership lists what was given.
      const membership = await t.db.query(
        `SELECT user_organization_id FROM user_organizations WHERE organization_id = $1 AND user_id = $2`,
        [org, grouped.user_id],
      );
      const uo = await as(admin)
        .get(`/api/user-organizations/${membership[0].user_organization_id}`)
        .expect(200);
      expect(uo.body.user_organization.campaigns_access).toEqual([{ campaign_id: owned }]);

      await as(manager).post(`/api/campaigns/revoke-access/${owned}`, { group_id: groupId }).expect(200);
      expect(await listNames(grouped)).toEqual([]);
      await as(manager).post(`/api/campaigns/revoke-access/${owned}`, { group_id: groupId }).expect(404);
    });

    it("opens a campaign's document and template for a Member of a group given it, and not after revoke", async () => {
      const doc = (
        await as(manager)
          .post(`/api/documents?organization_id=${org}`, { name: 'Brief', content: 'Secret' })
          .expect(201)
      ).body.document;
      const template = (
        await as(manager)
          .post(`/api/templates?organization_id=${org}`, {
            name: 'Pitch',
            description: 'A pitch',
            content: 'Write a pitch',
          })
          .expect(201)
      ).body.template;
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: doc.document_id,
          campaign_id: owned,
          type: 'document',
        })
        .expect(201);
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: doc.document_id,
          campaign_id: owned,
          type: 'document',
        })
        .expect(409);
      await as(manager)
        .put('/api/campaigns/campaign-resource', {
          resource_id: doc.document_id,
          campaign_id: owned,
          type: 'document',
        })
        .expect(200);
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: template.template_id,
          campaign_id: owned,
          type: 'template',
        })
        .expect(201);

      await as(grouped).get(`/api/campaigns/${owned}/documents/${doc.document_id}`).expect(404);
      await as(manager).post(`/api/campaigns/give-access/${owned}`, { group_id: groupId }).expect(200);

      const docs = await as(grouped).get(`/api/campaigns/${owned}/resources?resources=documents`).expect(200);
      expect(docs.body.resources).toEqual([
        expect.objectContaining({
          resource_id: doc.document_id,
          type: 'document',
          document: expect.objectContaining({ name: 'Brief' }),
        }),
      ]);
      const templates = await as(grouped)
        .get(`/api/campaigns/${owned}/resources?resources=templates&query=pit`)
        .expect(200);
      expect(templates.body.resources.map((r: { template: { name: string } }) => r.template.name)).toEqual([
        'Pitch',
      ]);
      const none = await as(grouped)
        .get(`/api/campaigns/${owned}/resources?resources=templates&query=zzz`)
        .expect(200);
      expect(none.body.total).toBe(0);

      const opened = await as(grouped)
        .get(`/api/campaigns/${owned}/documents/${doc.document_id}`)
        .expect(200);
      expect(opened.body.document).toMatchObject({ name: 'Brief', content: 'Secret' });
      await as(grouped).get(`/api/campaigns/${owned}/templates/${template.template_id}`).expect(200);
      await as(member).get(`/api/campaigns/${owned}/documents/${doc.document_id}`).expect(404);
      await as(outsider).get(`/api/campaigns/${owned}/documents/${doc.document_id}`).expect(404);

      await as(manager).post(`/api/campaigns/revoke-access/${owned}`, { group_id: groupId }).expect(200);
      await as(grouped).get(`/api/campaigns/${owned}/documents/${doc.document_id}`).expect(404);
      await as(grouped).get(`/api/campaigns/${owned}/templates/${template.template_id}`).expect(404);
      await as(grouped).get(`/api/campaigns/${owned}/resources`).expect(404);

      await as(manager)
        .delete(`/api/campaigns/campaign-resource/document/${doc.document_id}/${owned}`)
        .expect(204);
      await as(manager)
        .delete(`/api/campaigns/campaign-resource/document/${doc.document_id}/${owned}`)
        .expect(404);
      await as(manager)
        .delete(`/api/campaigns/campaign-resource/page/${doc.document_id}/${owned}`)
        .expect(400);
    });

    it("refuses a document that is not the caller's in the organization, and a missing campaign", async () => {
      const personal = (await as(manager).post('/api/documents', { name: 'Personal' }).expect(201)).body
        .document;
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: personal.document_id,
          campaign_id: owned,
          type: 'document',
        })
        .expect(404);
      const missing = await as(manager)
        .post('/api/campaigns/campaign-resource', { resource_id: personal.document_id, type: 'document' })
        .expect(400);
      expect(missing.body.message).toBe('Please select a campaign');
    });

    it('gives only to members of the organization and its own groups, one of user or group', async () => {
      const foreignGroup = (
        await as(outsider).post('/api/groups', { name: 'Foreign', organization_id: otherOrg }).expect(201)
      ).body.group;
      await as(manager)
        .post(`/api/campaigns/give-access/${owned}`, { user_id: outsider.user_id })
        .expect(400);
      await as(manager)
        .post(`/api/campaigns/give-access/${owned}`, { group_id: foreignGroup.group_id })
        .expect(404);
      await as(manager).post(`/api/campaigns/give-access/${owned}`, {}).expect(400);
      await as(manager)
        .post(`/api/campaigns/give-access/${owned}`, { user_id: member.user_id, group_id: groupId })
        .expect(400);
      await as(member).post(`/api/campaigns/give-access/${owned}`, { user_id: member.user_id }).expect(404);
      const given = await as(manager)
        .post(`/api/campaigns/give-access/${owned}`, { user_id: member.user_id })
        .expect(200);
      expect(given.body.campaign.campaign_users).toEqual([
        { user_id: member.user_id, name: 'Meg', last_name: 'Member', email: member.email },
      ]);
      await as(member).post(`/api/campaigns/give-access/${owned}`, { user_id: grouped.user_id }).expect(403);
      await as(manager)
        .post(`/api/campaigns/revoke-access/${owned}`, { user_id: member.user_id })
        .expect(200);
      await as(member).get(`/api/campaigns/${owned}`).expect(404);
    });
  });

  describe('campaign fields', () => {
    it('creates with a thumbnail (multipart), edits, sorts, searches and deletes', async () => {
      const created = await t
        .http()
        .post('/api/campaigns')
        .set('Authorization', admin.auth)
        .field('organization_id', String(org))
        .field('name', 'Beta launch')
        .field('description', 'Spring')
        .attach('thumbnail', PNG, 'thumb.png')
        .expect(201);
      const campaign = created.body.campaign;
      expect(campaign).toMatchObject({
        name: 'Beta launch',
        description: 'Spring',
        organization_id: org,
        user_id: admin.user_id,
        user: { user_id: admin.user_id, name: 'Ada', last_name: 'Admin' },
        thumbnail: expect.stringMatching(/^\/api\/files\/content\/[0-9a-f]+\.png$/),
      });
      await t.http().get(campaign.thumbnail).expect(200);

      const refused = await t
        .http()
        .post('/api/campaigns')
        .set('Authorization', admin.auth)
        .field('organization_id', String(org))
        .field('name', 'Bad thumb')
        .attach('thumbnail', PDF, 'thumb.pdf');
      expect(refused.status).toBe(415);

      await as(admin).post('/api/campaigns', { organization_id: org, name: 'alpha launch' }).expect(201);
      expect(await listNames(admin, '?query=launch&sortBy=name_asc')).toEqual([
        'alpha launch',
        'Beta launch',
      ]);
      expect(await listNames(admin, '?query=launch&sortBy=name_desc')).toEqual([
        'Beta launch',
        'alpha launch',
      ]);
      expect(await listNames(admin, '?query=launch&sortBy=createdAt_desc')).toEqual([
        'alpha launch',
        'Beta launch',
      ]);
      await as(admin)
        .put('/api/campaigns', { campaign_id: campaign.campaign_id, description: 'Summer' })
        .expect(200);
      expect(await listNames(admin, '?query=launch&sortBy=updatedAt_desc')).toEqual([
        'Beta launch',
        'alpha launch',
      ]);
      await as(admin).get(`/api/campaigns/organization/${org}?sortBy=oldest`).expect(400);

      const edited = await as(admin)
        .put('/api/campaigns', { campaign_id: campaign.campaign_id, name: 'Gamma', remove_thumbnail: '' })
        .expect(200);
      expect(edited.body.campaign).toMatchObject({ name: 'Gamma', description: 'Summer', thumbnail: null });

      await as(member).delete(`/api/campaigns/campaign/${campaign.campaign_id}`).expect(404);
      await as(admin).delete(`/api/campaigns/campaign/${campaign.campaign_id}`).expect(204);
      await as(admin).get(`/api/campaigns/${campaign.campaign_id}`).expect(404);
    });

    it("answers 'Please select an organization' without one, and refuses Members", async () => {
      const none = await as(manager).post('/api/campaigns', { name: 'Nowhere' }).expect(400);
      expect(none.body).toMatchObject({
        message: 'Please select an organization',
        code: 'organization_required',
      });
      const scoped = await as(manager)
        .post(`/api/campaigns?organization_id=${org}`, { name: 'Scoped' })
        .expect(201);
      expect(scoped.body.campaign.organization_id).toBe(org);
      await as(member).post('/api/campaigns', { organization_id: org, name: 'Not mine' }).expect(403);
      await as(outsider).post('/api/campaigns', { organization_id: org, name: 'Not mine' }).expect(404);
      const empty = await as(manager).post('/api/campaigns', { organization_id: org, name: ' ' }).expect(400);
      expect(empty.body.message).toBe('Please add a name to your campaign');
    });
  });
});
