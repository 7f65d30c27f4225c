import { Client } from 'pg';
import { AI_UNAVAILABLE_MESSAGE } from '../src/modules/ai/ai.errors';
import { countWords } from '../src/modules/ai/words';
import { AuthService } from '../src/modules/auth/auth.service';
import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TEST_DATABASE_URL, TestApp, TestUser } from './harness';
import { ClientSocket, userSocket } from './sockets';

interface Received {
  event: string;
  payload: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Messages', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let words: WordsService;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
    await t.app.listen(0);
    words = t.app.get(WordsService);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  /** A customer with words (or none). */
  async function customer(grant: number | null = 1000): Promise<TestUser> {
    const user = await t.createUser();
    if (grant) await words.grant(user.user_id, { words: grant, source: 'gift' });
    return user;
  }

  async function conversation(user: TestUser): Promise<number> {
    const res = await t
      .http()
      .post('/api/conversations')
      .set('Authorization', user.auth)
      .send({ name: 'Chat' })
      .expect(201);
    return res.body.conversation.conversation_id as number;
  }

  /** A connected socket (rooms joined) recording every event it receives. */
  async function listen(user: TestUser): Promise<{ socket: ClientSocket; events: Received[] }> {
    const events: Received[] = [];
    const socket = await userSocket(t.app, user, (s) =>
      s.onAny((event: string, payload: Record<string, unknown>) => events.push({ event, payload })),
    );
    sockets.push(socket);
    return { socket, events };
  }

  async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > until) throw new Error('timed out waiting');
      await sleep(20);
    }
  }

  const send = (user: TestUser, body: object) =>
    t.http().post('/api/messages').set('Authorization', user.auth).send(body);
  const balance = async (user: TestUser) => (await words.balance(user.user_id)).words;
  const rows = (conversationId: number) =>
    t.db.query(`SELECT * FROM messages WHERE conversation_id = $1 ORDER BY message_id`, [
      conversationId,
    ]) as Promise<{ role: string; content: string | null; finish_reason: string | null; words: number }[]>;

  it('streams the answer on the socket, saves it once and charges its words', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    const text = 'Hello there, ¿qué tal? 👋 Streaming works.\nSecond line with more words.';
    fake.reply({ text, chunks: 9, delayMs: 5 });

    const res = await send(user, { content: 'Say hello.', conversation_id: conversationId }).expect(201);
    expect(res.body.user_message).toMatchObject({ role: 'user', content: 'Say hello.' });
    expect(res.body.message).toMatchObject({ role: 'assistant', content: null });
    const messageId = res.body.message.message_id as number;

    const end = await waitFor(() => events.find((e) => e.event === 'message_stream_end'));
    const streamed = events
      .filter((e) => e.event === 'message_stream')
      .map((e) => {
        expect(e.payload).toMatchObject({ conversation_id: conversationId, message_id: messageId });
        return e.payload.content as string;
      });
    // The stream's last words may come only with the end event, which carries the whole saved text.
    expect(streamed.join('').length).toBeGreaterThan(0);
    expect(text.startsWith(streamed.join(''))).toBe(true);
    expect(streamed.length).toBeLessThan(9 + 1);
    expect(end.payload).toMatchObject({
      conversation_id: conversationId,
      message: { message_id: messageId, content: text, finish_reason: 'stop', words: countWords(text) },
    });

    const saved = await rows(conversationId);
    expect(saved.map((r) => [r.role, r.content])).toEqual([
      ['user', 'Say hello.'],
      ['assistant', text],
    ]);
    expect(await balance(user)).toBe(1000 - countWords(text));
    const [debit] = await t.db.query(`SELECT * FROM word_ledger WHERE user_id = $1 AND kind = 'debit'`, [
      user.user_id,
    ]);
    expect(debit).toMatchObject({ source: 'message', reference: `message:${messageId}` });
    expect(fake.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'Say hello.' });
  });

  it('sends the earlier messages as history and keeps finish_reason length', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    fake.reply({ text: 'First answer' }, { text: 'Cut short', finishReason: 'length' });
    await send(user, { content: 'One', conversation_id: conversationId, stream: false }).expect(201);
    const res = await send(user, { content: 'Two', conversation_id: conversationId, stream: false }).expect(
      201,
    );
    expect(res.body.message).toMatchObject({ content: 'Cut short', finish_reason: 'length' });
    expect(fake.requests[1].messages).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Two' },
    ]);
  });

  it('answers the complete message with stream false, charged the same way', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    fake.reply({ text: 'four words right here' });
    const res = await send(user, {
      content: 'Hi',
      conversation_id: conversationId,
      stream: false,
      model: 'grok-2-latest',
    }).expect(201);
    expect(res.body.message).toMatchObject({
      content: 'four words right here',
      words: 4,
      model: 'grok-2-latest',
    });
    expect(fake.requests[0].model).toBe('grok-2-latest');
    expect(await balance(user)).toBe(996);
    expect(events.filter((e) => e.event.startsWith('message_stream'))).toEqual([]);
  });

  it('never overdraws a balance under 100 concurrent generations: reservations cap them', async () => {
    const user = await customer(50);
    const conversations = await Promise.all(Array.from({ length: 10 }, () => conversation(user)));
    fake.reply(...Array.from({ length: 100 }, () => ({ text: 'one two three' })));
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(user, { content: `Hi ${i}`, conversation_id: conversations[i % 10], stream: false }).then(
          (res) => res.status,
        ),
      ),
    );
    // Each request got its answer, the 412 of no words left, or a 429 (the cap, or words held by running answers).
    expect(statuses.every((status) => [201, 412, 429].includes(status))).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    const [{ debited }] = (await t.db.query(
      `SELECT COALESCE(-SUM(words), 0)::int AS debited FROM word_ledger WHERE user_id = $1 AND kind = 'debit'`,
      [user.user_id],
    )) as { debited: number }[];
    expect(debited).toBeLessThanOrEqual(50);
    expect(await balance(user)).toBe(50 - debited);
  });

  it('answers 412 without access and saves nothing; staff need no words', async () => {
    const user = await customer(null);
    // Starting a conversation needs access too; one started while the user still had words is refused a send.
    const refused = await t
      .http()
      .post('/api/conversations')
      .set('Authorization', user.auth)
      .send({ name: 'Chat' });
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe('no_access');
    const [{ conversation_id: conversationId }] = (await t.db.query(
      `INSERT INTO conversations (user_id, name) VALUES ($1, 'Earlier chat') RETURNING conversation_id`,
      [user.user_id],
    )) as { conversation_id: number }[];
    const res = await send(user, { content: 'Hi', conversation_id: conversationId }).expect(412);
    expect(res.body).toMatchObject({
      code: 'no_access',
      message: 'Creating more content with the product requires an active subscription.',
    });
    expect(await rows(conversationId)).toEqual([]);
    expect(fake.requests).toHaveLength(0);

    const staff = await t.createUser({ staff: 'admin' });
    const staffConversation = await conversation(staff);
    await send(staff, { content: 'Hi', conversation_id: staffConversation, stream: false }).expect(201);
  });

  it('reports a provider 401 as openai-error, deletes the pending answer and charges nothing', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    fake.reply({ fail: { status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' } });
    await send(user, { content: 'Hi', conversation_id: conversationId }).expect(201);
    const error = await waitFor(() => events.find((e) => e.event === 'openai-error'));
    expect(error.payload).toEqual({ message: 'OpenAi Error: Incorrect API key provided.' });
    const left = await waitForRows(conversationId, 1);
    expect(left.map((r) => r.role)).toEqual(['user']);
    expect(await balance(user)).toBe(1000);
    expect(events.find((e) => e.event === 'message_stream_end')).toBeUndefined();
  });

  async function waitForRows(conversationId: number, count: number) {
    const until = Date.now() + 5000;
    for (;;) {
      const found = await rows(conversationId);
      if (found.length === count || Date.now() > until) return found;
      await sleep(20);
    }
  }

  it('ends a stream dropped after some text as interrupted with that text, uncharged', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    fake.reply({ text: 'one two three four five six', chunks: 6, delayMs: 30, dropAfterChunks: 2 });
    const res = await send(user, { content: 'Hi', conversation_id: conversationId }).expect(201);
    const interrupted = await waitFor(() => events.find((e) => e.event === 'message_interrupted'));
    const streamed = events
      .filter((e) => e.event === 'message_stream')
      .map((e) => e.payload.content)
      .join('');
    expect(interrupted.payload).toEqual({
      conversation_id: conversationId,
      message_id: res.body.message.message_id,
      content: streamed,
      reason: expect.stringMatching(/stopped answering/),
    });
    expect(streamed).toMatch(/^one/);
    const [, answer] = await rows(conversationId);
    expect(answer).toMatchObject({ status: 'interrupted', content: streamed, words: 0 });
    expect(await balance(user)).toBe(1000);
    expect(events.find((e) => e.event === 'error')).toBeUndefined();
  });

  it('answers 503 for a dropped stream before any text, with no answer and no charge', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    fake.reply({ text: 'one two', chunks: 2, dropAfterChunks: 0 });
    await send(user, { content: 'Hi', conversation_id: conversationId }).expect(201);
    const error = await waitFor(() => events.find((e) => e.event === 'error'));
    expect(error.payload).toEqual({ statusCode: 503, message: AI_UNAVAILABLE_MESSAGE });
    expect((await waitForRows(conversationId, 1)).map((r) => r.role)).toEqual(['user']);
    expect(await balance(user)).toBe(1000);
  });

  it('stops the provider call and charges nothing when the conversation is deleted mid-stream', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const { events } = await listen(user);
    fake.reply({ text: 'word '.repeat(40), chunks: 40, delayMs: 50 });
    await send(user, { content: 'Hi', conversation_id: conversationId }).expect(201);
    await waitFor(() => events.find((e) => e.event === 'message_stream'));
    await t.http().delete(`/api/conversations/${conversationId}`).set('Authorization', user.auth).expect(204);
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
    await sleep(100);
    expect(await balance(user)).toBe(1000);
    expect(events.find((e) => e.event === 'message_stream_end')).toBeUndefined();
  });

  it('stops the generation when the session that asked for it ends', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    fake.reply({ text: 'word '.repeat(40), chunks: 40, delayMs: 50 });
    await send(user, { content: 'Hi', conversation_id: conversationId }).expect(201);
    await waitFor(() => fake.requests.length === 1);
    // Ending the sessions publishes a cancel; nothing polls the sessions table.
    await t.app.get(AuthService).revokeAllSessions(user.user_id, 'test');
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
    expect((await waitForRows(conversationId, 1)).map((r) => r.role)).toEqual(['user']);
    expect(await balance(user)).toBe(1000);
  });

  // The admission's round trips: the first (the lock, the words, the conversation and its history) decides; the
  // exchange's insert and the reservation's with the commit follow, and the provider call begins beside them.
  describe.each([
    ['the exchange is saved', 'messages'],
    ['the admission commits', 'word_reservations'],
  ])('the provider call begun while %s', (_held, table) => {
    /**
     * Holds this user's insert into `table` (each row) for `holdMs`, then lets it through or makes it fail, so
     * what happens meanwhile can be seen.
     */
    async function holdAdmission(user: TestUser, holdMs: number, fail: boolean) {
      const name = `hold_${table}_${user.user_id}`;
      await t.db.query(`
        CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$
        BEGIN
          IF NEW.user_id = ${user.user_id} THEN
            PERFORM pg_sleep(${holdMs / 1000});
            ${fail ? "RAISE EXCEPTION 'admission refused by the test';" : ''}
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
      await t.db.query(`
        CREATE TRIGGER ${name} BEFORE INSERT ON ${table}
        FOR EACH ROW EXECUTE FUNCTION ${name}()`);
      return async () => {
        await t.db.query(`DROP TRIGGER ${name} ON ${table}`);
        await t.db.query(`DROP FUNCTION ${name}()`);
      };
    }

    it('sends the provider its request first, with the history, and streams nothing until it is committed', async () => {
      const user = await customer();
      const conversationId = await conversation(user);
      fake.reply({ text: 'Hello there' });
      await send(user, { content: 'Earlier', conversation_id: conversationId, stream: false }).expect(201);
      const { events } = await listen(user);
      const release = await holdAdmission(user, 400, false);
      try {
        fake.reply({ text: 'one two three', chunks: 3 });
        let answered = false;
        const posted = send(user, { content: 'Hi', conversation_id: conversationId })
          .expect(201)
          .then((res) => {
            answered = true;
            return res;
          });
        await waitFor(() => fake.requests.length === 2);
        expect(answered).toBe(false);
        expect(fake.requests[1].messages.slice(-3)).toEqual([
          { role: 'user', content: 'Earlier' },
          { role: 'assistant', content: 'Hello there' },
          { role: 'user', content: 'Hi' },
        ]);
        // The provider answers in full meanwhile; nothing of it goes out, nor is saved, before the commit.
        await sleep(150);
        expect(answered).toBe(false);
        expect(events.filter((e) => e.event.startsWith('message_stream'))).toEqual([]);
        expect((await rows(conversationId)).length).toBe(2);
        const { body } = await posted;
        const end = await waitFor(() => events.find((e) => e.event === 'message_stream_end'));
        expect(end.payload.message).toMatchObject({
          message_id: body.message.message_id,
          content: 'one two three',
        });
        const streamed = events.filter((e) => e.event === 'message_stream').map((e) => e.payload.content);
        expect('one two three'.startsWith(streamed.join(''))).toBe(true);
        expect(await balance(user)).toBe(1000 - 2 - 3);
      } finally {
        await release();
      }
    });

    it('stops the provider call when the admission fails: nothing streamed, saved or charged', async () => {
      const user = await customer();
      const conversationId = await conversation(user);
      const { events } = await listen(user);
      const release = await holdAdmission(user, 300, true);
      try {
        fake.reply({ text: 'word '.repeat(40), chunks: 40, delayMs: 50 });
        // supertest sends once it is awaited or then()'d.
        const posted = send(user, { content: 'Hi', conversation_id: conversationId }).then((res) => res);
        await waitFor(() => fake.requests.length === 1);
        expect((await posted).status).toBe(500);
        await fake.requests[0].closed;
        expect(fake.requests[0].closedByClient).toBe(true);
        await sleep(100);
        expect(events.filter((e) => e.event.startsWith('message_'))).toEqual([]);
        expect(await rows(conversationId)).toEqual([]);
        expect(await balance(user)).toBe(1000);
        // Its words are not held either: the next message is admitted and answered.
      } finally {
        await release();
      }
      fake.reply({ text: 'fine' });
      await send(user, { content: 'Again', conversation_id: conversationId }).expect(201);
      await waitFor(() => events.find((e) => e.event === 'message_stream_end'));
      expect(await balance(user)).toBe(1000 - 1);
    });
  });

  it("answers 404 for another user's conversation and messages", async () => {
    const owner = await customer();
    const other = await customer();
    const conversationId = await conversation(owner);
    fake.reply({ text: 'mine' });
    const sent = await send(owner, { content: 'Hi', conversation_id: conversationId, stream: false }).expect(
      201,
    );
    const messageId = sent.body.message.message_id as number;
    await send(other, { content: 'Hi', conversation_id: conversationId }).expect(404);
    // The conversation is judged before the words: without any, another's conversation is still 404.
    const broke = await customer(null);
    const missing = await send(broke, { content: 'Hi', conversation_id: conversationId }).expect(404);
    expect(missing.body.code).toBe('conversation_not_found');
    await t
      .http()
      .get(`/api/messages/conversation/${conversationId}`)
      .set('Authorization', other.auth)
      .expect(404);
    await t
      .http()
      .put('/api/messages')
      .set('Authorization', other.auth)
      .send({ message_id: messageId, favorite: true })
      .expect(404);
    await t.http().delete(`/api/messages/${messageId}`).set('Authorization', other.auth).expect(404);
    const mine = await t.http().get('/api/messages').set('Authorization', other.auth).expect(200);
    expect(mine.body.total).toBe(0);
  });

  it('validates the content and refuses web search', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    const fail = async (body: object) =>
      (await send(user, { conversation_id: conversationId, ...body }).expect(400)).body as {
        message: string;
        code: string;
      };
    expect(await fail({ content: '' })).toMatchObject({ message: "The message can't be empty." });
    expect(await fail({ content: '   ' })).toMatchObject({ message: "The message can't be empty." });
    // round(30002 / 4) = 7501 estimated tokens, one above the limit.
    expect(await fail({ content: 'x'.repeat(30002) })).toMatchObject({ message: 'The message is too long.' });
    expect(await fail({ content: 'Hi', searchOnInternet: true })).toMatchObject({
      message: 'Web search is not available.',
      code: 'search_unavailable',
    });
    expect(await rows(conversationId)).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('pages a conversation newest page first, each page oldest first', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    await t.db.query(
      `INSERT INTO messages (conversation_id, user_id, role, content, "createdAt")
       SELECT $1, $2, 'user', 'm' || i, now() - (100 - i) * interval '1 minute' FROM generate_series(1, 25) i`,
      [conversationId, user.user_id],
    );
    const page = async (n?: number) =>
      (
        await t
          .http()
          .get(`/api/messages/conversation/${conversationId}${n ? `?page=${n}` : ''}`)
          .set('Authorization', user.auth)
          .expect(200)
      ).body as { messages: { content: string }[]; total: number; page: number; limit: number };
    const first = await page();
    expect(first).toMatchObject({ total: 25, page: 1, limit: 20 });
    expect(first.messages.map((m) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect((await page(2)).messages.map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect((await page(3)).messages).toEqual([]);
  });

  it('toggles a favorite, edits, lists own favorites and deletes', async () => {
    const user = await customer();
    const conversationId = await conversation(user);
    fake.reply({ text: 'An answer' });
    const sent = await send(user, {
      content: 'Hi',
      conversation_id: conversationId,
      stream: false,
      message_type_id: 3,
    }).expect(201);
    const messageId = sent.body.message.message_id as number;
    const put = (body: object) => t.http().put('/api/messages').set('Authorization', user.auth).send(body);
    const fav = await put({ message_id: messageId, favorite: true }).expect(200);
    expect(fav.body.message).toMatchObject({ message_id: messageId, favorite: true });
    const edited = await put({ message_id: messageId, content: 'Better answer' }).expect(200);
    expect(edited.body.message).toMatchObject({ content: 'Better answer', favorite: true });
    expect((await put({ message_id: messageId, content: '' }).expect(400)).body.message).toBe(
      "The message can't be empty.",
    );

    const list = await t
      .http()
      .get('/api/messages?favorite=true&message_type_id=3')
      .set('Authorization', user.auth)
      .expect(200);
    expect(list.body.messages.map((m: { message_id: number }) => m.message_id)).toEqual([messageId]);
    await put({ message_id: messageId, favorite: false }).expect(200);
    const none = await t
      .http()
      .get('/api/messages?favorite=true')
      .set('Authorization', user.auth)
      .expect(200);
    expect(none.body.total).toBe(0);

    await t.http().delete(`/api/messages/${messageId}`).set('Authorization', user.auth).expect(204);
    await t.http().delete(`/api/messages/${messageId}`).set('Authorization', user.auth).expect(404);
    expect((await rows(conversationId)).map((r) => r.role)).toEqual(['user']);
  });

  it('ends in-flight generations as interrupted on shutdown past the drain time, charging nothing', async () => {
    const other = await startTestApp({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      SHUTDOWN_DRAIN_MS: '0',
    });
    const user = await other.createUser();
    await other.app.get(WordsService).grant(user.user_id, { words: 100, source: 'gift' });
    const created = await other
      .http()
      .post('/api/conversations')
      .set('Authorization', user.auth)
      .send({ name: 'Chat' })
      .expect(201);
    fake.reply({ text: 'word '.repeat(40), chunks: 40, delayMs: 50 });
    await other
      .http()
      .post('/api/messages')
      .set('Authorization', user.auth)
      .send({ content: 'Hi', conversation_id: created.body.conversation.conversation_id })
      .expect(201);
    await waitFor(() => fake.requests.length === 1);
    // app.close() alone (not the harness's close) so the schema can still be read afterwards.
    await other.app.close();
    // The fake sees the connection end a turn of its event loop after the client drops it.
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
    const schema = other.env.databaseSchema as string;
    const client = new Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const answers = await client.query(`SELECT status FROM ${schema}.messages WHERE role = 'assistant'`);
      const debits = await client.query(`SELECT 1 FROM ${schema}.word_ledger WHERE kind = 'debit'`);
      expect(answers.rows).toEqual([{ status: 'interrupted' }]);
      expect(debits.rowCount).toBe(0);
    } finally {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
  });
});
