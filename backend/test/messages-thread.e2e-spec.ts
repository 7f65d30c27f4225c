import { MessagesKit, startMessagesKit } from './messages-kit';

describe('Messages: thread', () => {
  let k: MessagesKit;

  beforeAll(async () => {
    k = await startMessagesKit();
  });
  afterAll(() => k.close());

  it('pages the 10 latest messages per page, newest page first, each page oldest first', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    await k.t.db.query(
      `INSERT INTO messages (conversation_id, user_id, role, content, prompt, "createdAt")
       SELECT $1, $2, 'user', 'm' || i, 'hidden prompt', now() - (interval '1 minute' * (30 - i))
         FROM generate_series(1, 25) i`,
      [conversationId, user.user_id],
    );
    const get = (path: string) =>
      k.t.http().get(`/api/messages/thread/${path}`).set('Authorization', user.auth);
    const contents = (body: { messages: { content: string }[] }) => body.messages.map((m) => m.content);
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

    const first = await get(`${conversationId}`).expect(200);
    expect(first.body).toMatchObject({ total: 25, page: 1, limit: 10 });
    expect(contents(first.body)).toEqual(range(16, 25));
    expect(first.body.messages[0]).not.toHaveProperty('prompt');
    expect((await get(`${conversationId}/1`).expect(200)).body).toEqual(first.body);
    const second = await get(`${conversationId}/2`).expect(200);
    expect(contents(second.body)).toEqual(range(6, 15));
    const third = await get(`${conversationId}/3`).expect(200);
    expect(third.body).toMatchObject({ page: 3, total: 25 });
    expect(contents(third.body)).toEqual(range(1, 5));
    expect(contents((await get(`${conversationId}/4`).expect(200)).body)).toEqual([]);
  });

  it('answers 400 for a bad page or id and 404 for another user’s conversation', async () => {
    const owner = await k.customer();
    const other = await k.customer();
    const conversationId = await k.conversation(owner);
    for (const page of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const res = await k.t
        .http()
        .get(`/api/messages/thread/${conversationId}/${page}`)
        .set('Authorization', owner.auth)
        .expect(400);
      expect(res.body.code).toBe('invalid_page');
    }
    await k.t.http().get('/api/messages/thread/abc').set('Authorization', owner.auth).expect(400);
    for (const path of [`${conversationId}`, `${conversationId}/2`, '2000000000']) {
      const res = await k.t
        .http()
        .get(`/api/messages/thread/${path}`)
        .set('Authorization', other.auth)
        .expect(404);
      expect(res.body.code).toBe('conversation_not_found');
    }
    await k.t.http().get(`/api/messages/thread/${conversationId}`).expect(401);
  });
});
