import { countWords } from '../src/modules/ai/words';
import { SUPER_FETCH_AVATAR_REFUSED } from '../src/modules/documents/document-rules';
import { DOCUMENT_INSTRUCTION } from '../src/modules/documents/documents.service';
import type { TestUser } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

describe('Documents: opened through a campaign, and avatars answering into them', () => {
  let k: MessagesKit;

  beforeAll(async () => {
    k = await startMessagesKit();
  });
  afterEach(() => k.disconnectAll());
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  const as = (who: TestUser) => ({
    get: (path: string) => k.t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object) => k.t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => k.t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => k.t.http().delete(path).set('Authorization', who.auth),
  });

  describe('GET /documents/{id}/campaigns/{campaign_id}', () => {
    let org: number;
    let admin: TestUser;
    let manager: TestUser;
    let otherManager: TestUser;
    let member: TestUser;
    let grouped: TestUser;
    let bystander: TestUser;
    let otherOrgAdmin: TestUser;
    let stranger: TestUser;
    let campaign: number;
    let doc: { document_id: number };
    let outside: { document_id: number };

    beforeAll(async () => {
      org = await k.t.createOrganization('Campaign Docs Co');
      const otherOrg = await k.t.createOrganization('Elsewhere Co');
      [admin, manager, otherManager, member, grouped, bystander, otherOrgAdmin, stranger] = await Promise.all(
        Array.from({ length: 8 }, () => k.customer()),
      );
      await k.t.addMember(org, admin.user_id, 1);
      await k.t.addMember(org, manager.user_id, 2);
      await k.t.addMember(org, otherManager.user_id, 2);
      await k.t.addMember(org, member.user_id, 3);
      await k.t.addMember(org, grouped.user_id, 3);
      await k.t.addMember(org, bystander.user_id, 3);
      await k.t.addMember(otherOrg, otherOrgAdmin.user_id, 1);

      campaign = (
        await as(manager).post('/api/campaigns', { organization_id: org, name: 'Launch' }).expect(201)
      ).body.campaign.campaign_id;
      doc = (
        await as(manager)
          .post(`/api/documents?organization_id=${org}`, { name: 'Brief', content: 'Launch plan' })
          .expect(201)
      ).body.document;
      outside = (
        await as(manager).post(`/api/documents?organization_id=${org}`, { name: 'Not in it' }).expect(201)
      ).body.document;
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: doc.document_id,
          campaign_id: campaign,
          type: 'document',
        })
        .expect(201);
      const group = (
        await as(manager).post('/api/groups', { name: 'Writers', organization_id: org }).expect(201)
      ).body.group;
      await as(manager).post(`/api/groups/users/${group.group_id}/${grouped.user_id}`, {}).expect(201);
      await as(manager)
        .post(`/api/campaigns/give-access/${campaign}`, { group_id: group.group_id })
        .expect(200);
      await as(manager)
        .post(`/api/campaigns/give-access/${campaign}`, { user_id: member.user_id })
        .expect(200);
    });

    const open = (who: TestUser, scope = org, documentId = doc.document_id, campaignId = campaign) =>
      as(who).get(
        `/api/documents/${documentId}/campaigns/${campaignId}${scope ? `?organization_id=${scope}` : ''}`,
      );

    it('opens the document for whoever sees the campaign; only its maker in its scope may edit it', async () => {
      const mine = await open(manager).expect(200);
      expect(mine.body).toEqual({
        document: expect.objectContaining({
          document_id: doc.document_id,
          name: 'Brief',
          content: 'Launch plan',
          organization_id: org,
        }),
        campaign: { campaign_id: campaign, name: 'Launch', organization_id: org },
        editable: true,
      });
      // Seen from Personal the maker reads it only: the document calls work in its own scope.
      expect((await open(manager, 0).expect(200)).body.editable).toBe(false);
      for (const reader of [admin, member, grouped]) {
        const res = await open(reader).expect(200);
        expect(res.body).toMatchObject({ document: { name: 'Brief' }, editable: false });
      }
      // And they cannot change it through the document calls either.
      await as(member)
        .put(`/api/documents?organization_id=${org}`, { document_id: doc.document_id, name: 'Mine now' })
        .expect(404);
    });

    it('answers 404 to those who do not see the campaign, other organizations, and documents not in it', async () => {
      for (const who of [bystander, otherManager]) {
        expect((await open(who).expect(404)).body.code).toBe('campaign_not_found');
      }
      await open(otherOrgAdmin, 0).expect(404);
      await open(stranger, 0).expect(404);
      const notIn = await open(manager, org, outside.document_id).expect(404);
      expect(notIn.body.code).toBe('document_not_found');
      await open(manager, org, doc.document_id, 999_999).expect(404);
      await open(manager, org, 999_999).expect(404);
      await as(manager).get(`/api/documents/x/campaigns/${campaign}`).expect(400);
      await as(manager).get(`/api/documents/${doc.document_id}/campaigns/0`).expect(400);
      await k.t.http().get(`/api/documents/${doc.document_id}/campaigns/${campaign}`).expect(401);
    });

    it('stops opening it once access is taken back or the document leaves the campaign', async () => {
      const other = (
        await as(manager).post('/api/campaigns', { organization_id: org, name: 'Short lived' }).expect(201)
      ).body.campaign.campaign_id;
      await as(manager)
        .post('/api/campaigns/campaign-resource', {
          resource_id: doc.document_id,
          campaign_id: other,
          type: 'document',
        })
        .expect(201);
      await as(manager)
        .post(`/api/campaigns/give-access/${other}`, { user_id: bystander.user_id })
        .expect(200);
      await open(bystander, org, doc.document_id, other).expect(200);
      await as(manager)
        .post(`/api/campaigns/revoke-access/${other}`, { user_id: bystander.user_id })
        .expect(200);
      await open(bystander, org, doc.document_id, other).expect(404);
      await as(manager)
        .delete(`/api/campaigns/campaign-resource/document/${doc.document_id}/${other}`)
        .expect(204);
      await open(admin, org, doc.document_id, other).expect(404);
    });
  });

  describe('POST /documents/avatar-output', () => {
    async function avatar(who: TestUser, body: object): Promise<{ avatar_id: number }> {
      return (await as(who).post('/api/avatars', body).expect(201)).body.avatar;
    }

    it("streams the avatar's answer as document_avatar, with its context, charged, nothing stored", async () => {
      const user = await k.customer();
      const poet = await avatar(user, { name: 'Poet' });
      await as(user)
        .put(`/api/avatars/add-context/${poet.avatar_id}`, { context: 'You are a poet who writes in rhyme.' })
        .expect(200);
      const doc = (
        await as(user).post('/api/documents', { name: 'Notes', content: 'Coffee grows.' }).expect(201)
      ).body.document;
      const { events } = await k.listen(user);
      const answer = 'Beans in the sun,\nthe harvest is done.';
      k.fake.reply({ text: answer, chunks: 4, delayMs: 5 });
      const res = await as(user)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: poet.avatar_id,
          prompt: 'A verse about it',
        })
        .expect(202);
      const id = res.body.generation_id as string;
      const end = await waitFor(() => events.find((e) => e.event === 'document_avatar' && e.payload.done));
      expect(end.payload).toEqual({
        document_id: doc.document_id,
        avatar_id: poet.avatar_id,
        generation_id: id,
        content: answer,
        offset: 0,
        done: true,
      });
      const pieces = events.filter((e) => e.event === 'document_avatar' && !e.payload.done);
      expect(pieces.map((p) => p.payload.content).join('')).toBe(answer);
      expect(events.some((e) => e.event === 'document_output')).toBe(false);
      const messages = k.fake.requests[0].messages;
      expect(messages.slice(0, 2)).toEqual([
        { role: 'system', content: DOCUMENT_INSTRUCTION },
        { role: 'system', content: 'You are a poet who writes in rhyme.' },
      ]);
      expect(messages.at(-2)?.content).toContain('Coffee grows.');
      expect(messages.at(-1)).toEqual({ role: 'user', content: 'A verse about it' });
      expect(await k.debits(user)).toEqual([
        expect.objectContaining({ source: 'document', words: String(-countWords(answer)) }),
      ]);
      expect(
        (await as(user).get(`/api/documents/${doc.document_id}`).expect(200)).body.document.content,
      ).toBe('Coffee grows.');
    });

    it('applies a template through the avatar on a selection', async () => {
      const user = await k.customer();
      const writer = await avatar(user, { name: 'Writer' });
      const template = (
        await as(user)
          .post('/api/templates', {
            name: 'Title',
            description: 'A title',
            content: 'A title for [Audience].',
          })
          .expect(201)
      ).body.template;
      const doc = (
        await as(user).post('/api/documents', { name: 'Notes', content: 'All of it.' }).expect(201)
      ).body.document;
      const { events } = await k.listen(user);
      k.fake.reply({ text: 'Coffee for kids' });
      await as(user)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: writer.avatar_id,
          template_id: template.template_id,
          values: { Audience: 'kids' },
          selection: 'Part of it.',
        })
        .expect(202);
      await waitFor(() => events.find((e) => e.event === 'document_avatar' && e.payload.done));
      const messages = k.fake.requests[0].messages;
      expect(messages.at(-1)).toEqual({ role: 'user', content: 'A title for kids.' });
      expect(messages.at(-2)?.content).toContain('Part of it.');
      expect(messages.at(-2)?.content).not.toContain('All of it.');
    });

    it("refuses Super Fetch assistants, others' avatars and documents, bad input and no words", async () => {
      const user = await k.customer();
      const doc = (await as(user).post('/api/documents', { name: 'Notes' }).expect(201)).body.document;
      const fetcher = await avatar(user, { name: 'Fetcher', super_fetch_assistant: true });
      const refused = await as(user)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: fetcher.avatar_id,
          prompt: 'x',
        })
        .expect(400);
      expect(refused.body.message).toBe(SUPER_FETCH_AVATAR_REFUSED);

      const other = await k.customer();
      const theirs = await avatar(other, { name: 'Private' });
      const mine = await avatar(user, { name: 'Mine' });
      const hidden = await as(user)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: theirs.avatar_id,
          prompt: 'x',
        })
        .expect(404);
      expect(hidden.body.code).toBe('avatar_not_found');
      const notTheirs = await as(other)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: theirs.avatar_id,
          prompt: 'x',
        })
        .expect(404);
      expect(notTheirs.body.code).toBe('document_not_found');

      const empty = await as(user)
        .post('/api/documents/avatar-output', {
          document_id: doc.document_id,
          avatar_id: mine.avatar_id,
          prompt: ' ',
        })
        .expect(400);
      expect(JSON.stringify(empty.body.message)).toContain("The value can't be empty");
      await as(user)
        .post('/api/documents/avatar-output', { document_id: doc.document_id, prompt: 'x' })
        .expect(400);
      await as(user)
        .post('/api/documents/avatar-output', { avatar_id: mine.avatar_id, prompt: 'x' })
        .expect(400);
      await as(user)
        .post('/api/documents/avatar-output', { document_id: 'x', avatar_id: mine.avatar_id, prompt: 'x' })
        .expect(400);

      // Without words, an avatar the caller sees (one of their organization's) still cannot answer.
      const org = await k.t.createOrganization('Avatar Co');
      const poor = await k.customer(null);
      await k.t.addMember(org, user.user_id, 1);
      await k.t.addMember(org, poor.user_id, 3);
      const shared = (
        await as(user).post(`/api/avatars?organization_id=${org}`, { name: 'Shared' }).expect(201)
      ).body.avatar;
      const own = (await as(poor).post(`/api/documents?organization_id=${org}`, { name: 'Mine' }).expect(201))
        .body.document;
      const noWords = await as(poor)
        .post(`/api/documents/avatar-output?organization_id=${org}`, {
          document_id: own.document_id,
          avatar_id: shared.avatar_id,
          prompt: 'x',
        })
        .expect(412);
      expect(noWords.body.code).toBe('no_access');
      expect(k.fake.requests).toHaveLength(0);
    });

    it('stops on DELETE /documents/generations/{id}: nothing charged', async () => {
      const user = await k.customer();
      const helper = await avatar(user, { name: 'Helper' });
      const doc = (await as(user).post('/api/documents', { name: 'Notes' }).expect(201)).body.document;
      k.fake.reply({ text: 'one two three four five six seven eight', chunks: 8, delayMs: 150 });
      const id = (
        await as(user)
          .post('/api/documents/avatar-output', {
            document_id: doc.document_id,
            avatar_id: helper.avatar_id,
            prompt: 'Write',
          })
          .expect(202)
      ).body.generation_id as string;
      await sleep(200);
      await as(user).delete(`/api/documents/generations/${id}`).expect(204);
      await sleep(1500);
      expect(await k.debits(user)).toEqual([]);
    });
  });
});
