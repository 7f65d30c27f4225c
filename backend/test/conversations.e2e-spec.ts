import { startTestApp, TestApp, TestUser } from './harness';

describe('Conversations API', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createUser({ words: 1000 });
    other = await t.createUser({ words: 1000 });
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (url: string) => t.http().get(url).set('Authorization', who.auth),
    post: (url: string, body: object) => t.http().post(url).set('Authorization', who.auth).send(body),
    put: (url: string, body: object) => t.http().put(url).set('Authorization', who.auth).send(body),
    del: (url: string) => t.http().delete(url).set('Authorization', who.auth),
  });

  async function create(who: TestUser, body: object, scope = ''): Promise<Record<string, unknown>> {
    const res = await as(who).post(`/api/conversations${scope}`, body).expect(201);
    return res.body.conversation;
  }

  const names = (body: { conversations: { name: string }[] }) => body.conversations.map((c) => c.name);

  it('answers 401 without a session', async () => {
    await t.http().get('/api/conversations').expect(401);
  });

  it('refuses to start a conversation without access (412 no_access), as a send would, and creates nothing', async () => {
    const broke = await t.createUser();
    const res = await as(broke).post('/api/conversations', { name: 'Not yet' }).expect(412);
    expect(res.body).toMatchObject({
      code: 'no_access',
      message: 'Creating more content with the product requires an active subscription.',
    });
    const [{ count }] = await t.db.query(
      `SELECT count(*)::int AS count FROM conversations WHERE user_id = $1`,
      [broke.user_id],
    );
    expect(count).toBe(0);
    // Words give access; staff use the product without buying words.
    const staff = await t.createUser({ staff: 'manager' });
    await create(staff, { name: 'Staff chat' });
    const paying = await t.createUser({ words: 1 });
    await create(paying, { name: 'Paid chat' });
  });

  it('creates, reads, updates and deletes a conversation', async () => {
    const created = await create(owner, { name: '  First chat ', model: 'grok-2-latest', tags: ' a, b,a,' });
    expect(created).toMatchObject({
      user_id: owner.user_id,
      organization_id: null,
      name: 'First chat',
      model: 'grok-2-latest',
      tags: 'a,b',
      archived: false,
      avatar_id: null,
    });
    const id = created.conversation_id as number;

    const got = await as(owner).get(`/api/conversations/conversation/${id}`).expect(200);
    expect(got.body.conversation).toMatchObject({ conversation_id: id, name: 'First chat' });

    const updated = await as(owner)
      .put('/api/conversations', { conversation_id: id, name: 'Renamed', model: 'Unset', tags: ['c', 'd,e'] })
      .expect(200);
    expect(updated.body.conversation).toMatchObject({ name: 'Renamed', model: null, tags: 'c,d,e' });
    expect(new Date(updated.body.conversation.updatedAt).getTime()).toBeGreaterThan(
      new Date(created.updatedAt as string).getTime(),
    );
    const rows = await t.db.query(
      `SELECT tag FROM conversation_tags WHERE conversation_id = $1 ORDER BY tag`,
      [id],
    );
    expect(rows.map((r: { tag: string }) => r.tag)).toEqual(['c', 'd', 'e']);

    // Fields left out stay as they were.
    const partial = await as(owner).put('/api/conversations', { conversation_id: id }).expect(200);
    expect(partial.body.conversation).toMatchObject({ name: 'Renamed', tags: 'c,d,e', model: null });

    await as(owner).del(`/api/conversations/${id}`).expect(204);
    await as(owner).get(`/api/conversations/conversation/${id}`).expect(404);
    await as(owner).del(`/api/conversations/${id}`).expect(404);
    expect(await t.db.query(`SELECT 1 FROM conversation_tags WHERE conversation_id = $1`, [id])).toHaveLength(
      0,
    );
  });

  it("answers 404 for another user's conversation on get, put and delete", async () => {
    const mine = await create(owner, { name: 'Private' });
    const id = mine.conversation_id as number;
    const res = await as(other).get(`/api/conversations/conversation/${id}`).expect(404);
    expect(res.body).toMatchObject({ message: 'Conversation not found.', code: 'conversation_not_found' });
    await as(other).put('/api/conversations', { conversation_id: id, name: 'Stolen' }).expect(404);
    await as(other).del(`/api/conversations/${id}`).expect(404);
    const still = await as(owner).get(`/api/conversations/conversation/${id}`).expect(200);
    expect(still.body.conversation.name).toBe('Private');
  });

  it('answers 400, not 500, for bad ids', async () => {
    for (const bad of ['abc', '1.5', '0', '99999999999']) {
      const res = await as(owner).get(`/api/conversations/conversation/${bad}`).expect(400);
      expect(res.body.code).toBe('invalid_id');
      await as(owner).del(`/api/conversations/${bad}`).expect(400);
    }
    for (const conversation_id of ['x', 0, 99999999999, null]) {
      const res = await as(owner).put('/api/conversations', { conversation_id, name: 'x' }).expect(400);
      expect(res.body.message).toBe('conversation_id must be a whole number.');
    }
  });

  it('refuses invalid input with the spec messages', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }, { name: 5 }]) {
      const res = await as(owner).post('/api/conversations', body).expect(400);
      expect(res.body).toMatchObject({
        message: 'Conversation name is required.',
        code: 'validation_failed',
      });
    }
    const long = await as(owner)
      .post('/api/conversations', { name: 'x'.repeat(201) })
      .expect(400);
    expect(long.body.message).toBe('Conversation name must be 200 characters or fewer.');
    const model = await as(owner).post('/api/conversations', { name: 'x', model: 'gpt-5' }).expect(400);
    expect(model.body.message).toBe('Model must be one of gpt-4o-mini, grok-2-latest or Unset.');
    const tooMany = Array.from({ length: 21 }, (_, i) => `t${i}`);
    const many = await as(owner).post('/api/conversations', { name: 'x', tags: tooMany }).expect(400);
    expect(many.body).toMatchObject({
      message: 'A conversation can have at most 20 tags.',
      code: 'invalid_tags',
    });
    const longTag = await as(owner)
      .post('/api/conversations', { name: 'x', tags: 'y'.repeat(101) })
      .expect(400);
    expect(longTag.body.message).toBe('Each tag must be 100 characters or fewer.');
    const badTags = await as(owner).post('/api/conversations', { name: 'x', tags: 5 }).expect(400);
    expect(badTags.body.message).toBe('Tags must be a comma-separated text or a list of texts.');
    await as(owner).post('/api/conversations', { name: 'x', organization_id: 1 }).expect(400);
    const created = await create(owner, { name: 'ok' });
    const rename = await as(owner)
      .put('/api/conversations', { conversation_id: created.conversation_id, name: null })
      .expect(400);
    expect(rename.body.message).toBe('Conversation name is required.');
    await as(owner)
      .put('/api/conversations', { conversation_id: created.conversation_id, archived: 'yes' })
      .expect(400);
    const sort = await as(owner).get('/api/conversations?sortBy=oldest').expect(400);
    expect(sort.body.message).toBe(
      'sortBy must be one of createdAt_desc, updatedAt_desc, name_asc, name_desc.',
    );
    await as(owner).get('/api/conversations?archived=maybe').expect(400);
    await as(owner)
      .get('/api/conversations?tags=' + 'z'.repeat(101))
      .expect(400);
  });

  describe('lists', () => {
    let user: TestUser;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      user = await t.createUser({ words: 1000 });
      for (const [name, tags] of [
        ['banana', 'fruit,yellow'],
        ['Apple', 'fruit,red'],
        ['cherry 50%_off', 'red'],
      ] as const)
        ids[name] = (await create(user, { name, tags })).conversation_id as number;
      // Touching the oldest makes it the most recently used.
      await as(user)
        .put('/api/conversations', { conversation_id: ids.banana, model: 'gpt-4o-mini' })
        .expect(200);
    });

    it('sorts by last created by default and by each named sort', async () => {
      const byDefault = await as(user).get('/api/conversations').expect(200);
      expect(byDefault.body).toMatchObject({ total: 3, page: 1, limit: 20 });
      expect(names(byDefault.body)).toEqual(['cherry 50%_off', 'Apple', 'banana']);
      const expected: Record<string, string[]> = {
        createdAt_desc: ['cherry 50%_off', 'Apple', 'banana'],
        updatedAt_desc: ['banana', 'cherry 50%_off', 'Apple'],
        name_asc: ['Apple', 'banana', 'cherry 50%_off'],
        name_desc: ['cherry 50%_off', 'banana', 'Apple'],
      };
      for (const [sortBy, order] of Object.entries(expected)) {
        const res = await as(user).get(`/api/conversations?sortBy=${sortBy}`).expect(200);
        expect(names(res.body)).toEqual(order);
      }
    });

    it('pages', async () => {
      const res = await as(user).get('/api/conversations?sortBy=name_asc&limit=2&page=2').expect(200);
      expect(res.body).toMatchObject({ total: 3, page: 2, limit: 2 });
      expect(names(res.body)).toEqual(['cherry 50%_off']);
    });

    it('searches names case-insensitively with LIKE wildcards taken literally', async () => {
      const apple = await as(user).get('/api/conversations?query=APP').expect(200);
      expect(names(apple.body)).toEqual(['Apple']);
      const percent = await as(user)
        .get(`/api/conversations?query=${encodeURIComponent('50%_')}`)
        .expect(200);
      expect(names(percent.body)).toEqual(['cherry 50%_off']);
      const wildcard = await as(user)
        .get(`/api/conversations?query=${encodeURIComponent('%')}`)
        .expect(200);
      expect(names(wildcard.body)).toEqual(['cherry 50%_off']);
      const underscore = await as(user).get('/api/conversations?query=a_p').expect(200);
      expect(underscore.body).toMatchObject({ conversations: [], total: 0 });
    });

    it('filters by tags, requiring every listed tag', async () => {
      const red = await as(user).get('/api/conversations?tags=red&sortBy=name_asc').expect(200);
      expect(names(red.body)).toEqual(['Apple', 'cherry 50%_off']);
      const both = await as(user)
        .get(`/api/conversations?tags=${encodeURIComponent('fruit, red')}`)
        .expect(200);
      expect(names(both.body)).toEqual(['Apple']);
      const none = await as(user).get('/api/conversations?tags=blue').expect(200);
      expect(none.body.total).toBe(0);
    });

    it('counts tags in scope', async () => {
      const res = await as(user).get('/api/conversations/tags').expect(200);
      expect(res.body).toEqual({
        tags: [
          { tag: 'fruit', conversations: 2 },
          { tag: 'red', conversations: 2 },
          { tag: 'yellow', conversations: 1 },
        ],
        total: 3,
      });
    });

    it('filters by the archived flag', async () => {
      await as(user).put('/api/conversations', { conversation_id: ids.Apple, archived: true }).expect(200);
      const archived = await as(user).get('/api/conversations?archived=true').expect(200);
      expect(names(archived.body)).toEqual(['Apple']);
      const active = await as(user).get('/api/conversations?archived=false&sortBy=name_asc').expect(200);
      expect(names(active.body)).toEqual(['banana', 'cherry 50%_off']);
      const all = await as(user).get('/api/conversations').expect(200);
      expect(all.body.total).toBe(3);
      const activeTags = await as(user).get('/api/conversations/tags?archived=false').expect(200);
      expect(activeTags.body.tags).toEqual([
        { tag: 'fruit', conversations: 1 },
        { tag: 'red', conversations: 1 },
        { tag: 'yellow', conversations: 1 },
      ]);
      await as(user).put('/api/conversations', { conversation_id: ids.Apple, archived: false }).expect(200);
      const back = await as(user).get('/api/conversations?archived=false').expect(200);
      expect(back.body.total).toBe(3);
    });

    it('clears tags with an empty value', async () => {
      const extra = await create(user, { name: 'temp', tags: ['gone'] });
      const res = await as(user)
        .put('/api/conversations', { conversation_id: extra.conversation_id, tags: '' })
        .expect(200);
      expect(res.body.conversation.tags).toBe('');
      const tags = await as(user).get('/api/conversations/tags').expect(200);
      expect(tags.body.tags.map((x: { tag: string }) => x.tag)).not.toContain('gone');
      await as(user).del(`/api/conversations/${extra.conversation_id}`).expect(204);
    });

    it("never lists another user's conversations", async () => {
      const res = await as(other).get('/api/conversations?query=apple').expect(200);
      expect(res.body.total).toBe(0);
      const tags = await as(other).get('/api/conversations/tags').expect(200);
      expect(tags.body.tags.map((x: { tag: string }) => x.tag)).not.toContain('fruit');
    });
  });

  it('keeps Personal and organization conversations apart', async () => {
    const member = await t.createUser({ words: 1000 });
    const orgId = await t.createOrganization('Chats Inc');
    await t.addMember(orgId, member.user_id, 3);
    const scope = `?organization_id=${orgId}`;
    const personal = await create(member, { name: 'Personal one', tags: 'home' });
    const inOrg = await create(member, { name: 'Org one', tags: 'work' }, scope);
    expect(personal.organization_id).toBeNull();
    expect(inOrg.organization_id).toBe(orgId);

    const personalList = await as(member).get('/api/conversations').expect(200);
    expect(names(personalList.body)).toEqual(['Personal one']);
    const orgList = await as(member).get(`/api/conversations${scope}`).expect(200);
    expect(names(orgList.body)).toEqual(['Org one']);
    const orgTags = await as(member).get(`/api/conversations/tags${scope}`).expect(200);
    expect(orgTags.body).toEqual({ tags: [{ tag: 'work', conversations: 1 }], total: 1 });

    // A conversation is reached only from the scope it was created in.
    await as(member).get(`/api/conversations/conversation/${inOrg.conversation_id}`).expect(404);
    await as(member).get(`/api/conversations/conversation/${inOrg.conversation_id}${scope}`).expect(200);
    await as(member).get(`/api/conversations/conversation/${personal.conversation_id}${scope}`).expect(404);
    // The organization is fixed at creation: an update never moves it.
    const moved = await as(member)
      .put(`/api/conversations${scope}`, { conversation_id: inOrg.conversation_id, name: 'Still org' })
      .expect(200);
    expect(moved.body.conversation.organization_id).toBe(orgId);
    await as(member).del(`/api/conversations/${inOrg.conversation_id}`).expect(404);

    // Another member of the same organization does not see it either.
    const colleague = await t.createUser();
    await t.addMember(orgId, colleague.user_id, 1);
    const theirs = await as(colleague).get(`/api/conversations${scope}`).expect(200);
    expect(theirs.body.total).toBe(0);
    await as(colleague).get(`/api/conversations/conversation/${inOrg.conversation_id}${scope}`).expect(404);

    // Non-members cannot use the organization's scope at all.
    await as(other).get(`/api/conversations${scope}`).expect(404);
    await as(member).del(`/api/conversations/${inOrg.conversation_id}${scope}`).expect(204);
  });
});
