import { countWords } from '../src/modules/ai/words';
import { hashtagsInstruction, topicsInstruction } from '../src/modules/topics/idea-rules';
import type { TestUser } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

describe('Topic and hashtag generators', () => {
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
    delete: (path: string) => k.t.http().delete(path).set('Authorization', who.auth),
  });

  it('streams topic ideas, saves them in the history with the charge, and lists and deletes them', async () => {
    const user = await k.customer();
    const { events } = await k.listen(user);
    const answer = '1. Cold brew at home\n2. Coffee on a budget\n3. Latte art basics';
    k.fake.reply({ text: answer, chunks: 6, delayMs: 5 });
    const res = await as(user)
      .post('/api/topics/generate', { subject: 'Coffee', audience: 'Students', count: 3, language: 'es' })
      .expect(202);
    const id = res.body.generation_id as string;
    const end = await waitFor(() =>
      events.find((e) => e.event === 'topics_output' && e.payload.done === true),
    );
    expect(end.payload).toEqual({
      generation_id: id,
      kind: 'topics',
      content: answer,
      offset: 0,
      done: true,
      idea_id: expect.any(Number),
    });
    const pieces = events.filter((e) => e.event === 'topics_output' && e.payload.done === false);
    expect(pieces.map((p) => p.payload.content).join('')).toBe(answer);
    expect(k.fake.requests[0].messages).toEqual([
      { role: 'system', content: topicsInstruction(3, 'es') },
      { role: 'user', content: 'Subject: Coffee\nAudience: Students' },
    ]);
    expect(await k.debits(user)).toEqual([
      expect.objectContaining({ source: 'topics', words: String(-countWords(answer)) }),
    ]);
    const list = await as(user).get('/api/topics').expect(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(list.body.ideas[0]).toMatchObject({
      idea_id: end.payload.idea_id,
      kind: 'topics',
      input: { subject: 'Coffee', audience: 'Students', count: 3, language: 'es' },
      items: ['Cold brew at home', 'Coffee on a budget', 'Latte art basics'],
    });
    // Topics and hashtags are separate histories; another user's entry is 404.
    expect((await as(user).get('/api/hashtags').expect(200)).body.total).toBe(0);
    await as(user).delete(`/api/hashtags/${end.payload.idea_id}`).expect(404);
    const other = await k.customer();
    const missing = await as(other).delete(`/api/topics/${end.payload.idea_id}`).expect(404);
    expect(missing.body.code).toBe('idea_not_found');
    await as(user).delete(`/api/topics/${end.payload.idea_id}`).expect(204);
    expect((await as(user).get('/api/topics').expect(200)).body.total).toBe(0);
  });

  it('streams hashtags for a platform and keeps each once, in the scope it was asked in', async () => {
    const user = await k.customer();
    const org = await k.t.createOrganization();
    await k.t.addMember(org, user.user_id, 3);
    const { events } = await k.listen(user);
    k.fake.reply({ text: '#Coffee\n#coffee\n#MorningRitual\n#café' });
    await as(user)
      .post(`/api/hashtags/generate?organization_id=${org}`, {
        text: 'My morning coffee',
        platform: 'linkedin',
        count: 5,
      })
      .expect(202);
    await waitFor(() => events.find((e) => e.event === 'hashtags_output' && e.payload.done === true));
    expect(k.fake.requests[0].messages[0]).toEqual({
      role: 'system',
      content: hashtagsInstruction(5, 'linkedin'),
    });
    expect(k.fake.requests[0].messages[1]).toEqual({ role: 'user', content: 'My post:\nMy morning coffee' });
    const inOrg = await as(user).get(`/api/hashtags?organization_id=${org}`).expect(200);
    expect(inOrg.body.ideas[0]).toMatchObject({
      items: ['#Coffee', '#MorningRitual', '#café'],
      input: { text: 'My morning coffee', platform: 'linkedin', count: 5 },
    });
    expect((await as(user).get('/api/hashtags').expect(200)).body.total).toBe(0);
  });

  it('refuses bad input with clear sentences, and 412 without words', async () => {
    const user = await k.customer();
    const empty = await as(user).post('/api/topics/generate', { subject: '  ' }).expect(400);
    expect(JSON.stringify(empty.body.message)).toContain("The value can't be empty");
    const none = await as(user).post('/api/hashtags/generate', {}).expect(400);
    expect(JSON.stringify(none.body.message)).toContain("The value can't be empty");
    const many = await as(user).post('/api/topics/generate', { subject: 'x', count: 31 }).expect(400);
    expect(JSON.stringify(many.body.message)).toContain('count must be a whole number from 1 to 30.');
    await as(user).post('/api/topics/generate', { subject: 'x', count: 0 }).expect(400);
    const lang = await as(user).post('/api/topics/generate', { subject: 'x', language: 'fr' }).expect(400);
    expect(JSON.stringify(lang.body.message)).toContain('language must be one of en, es.');
    const platform = await as(user)
      .post('/api/hashtags/generate', { text: 'x', platform: 'myspace' })
      .expect(400);
    expect(JSON.stringify(platform.body.message)).toContain('platform must be one of');
    await as(user)
      .post('/api/hashtags/generate', { text: 'x'.repeat(4001) })
      .expect(400);
    await as(user).delete('/api/topics/abc').expect(400);
    const poor = await k.customer(null);
    const refused = await as(poor).post('/api/topics/generate', { subject: 'Coffee' }).expect(412);
    expect(refused.body.code).toBe('no_access');
    expect(k.fake.requests).toHaveLength(0);
  });

  it('stops a running generation: nothing saved or charged', async () => {
    const user = await k.customer();
    k.fake.reply({ text: '#one #two #three #four #five #six', chunks: 6, delayMs: 150 });
    const id = (await as(user).post('/api/hashtags/generate', { text: 'Post' }).expect(202)).body
      .generation_id as string;
    await sleep(200);
    await as(user).delete(`/api/hashtags/generations/${id}`).expect(204);
    await sleep(1200);
    expect(await k.debits(user)).toEqual([]);
    expect((await as(user).get('/api/hashtags').expect(200)).body.total).toBe(0);
  });
});
