import { AuthService } from '../src/modules/auth/auth.service';
import { countWords } from '../src/modules/ai/words';
import { ENHANCE_SYSTEM_PROMPT } from '../src/modules/messages/enhance.service';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Messages: prompt enhancement', () => {
  let k: MessagesKit;

  beforeAll(async () => {
    k = await startMessagesKit();
  });
  afterEach(() => k.disconnectAll());
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  const prompt = 'write a blog post about coffee';

  it('streams the improved prompt on the socket and charges its words once, storing no message', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { events } = await k.listen(user);
    const improved = 'Write a 600-word blog post for students about how coffee is grown, in a friendly tone.';
    k.fake.reply({ text: improved, chunks: 10, delayMs: 5 });

    const res = await k
      .post(user, '/api/messages/enhance', { content: prompt, model: 'grok-2-latest' })
      .expect(201);
    expect(res.body).toEqual({ enhance_id: expect.stringMatching(UUID), content: null });
    const id = res.body.enhance_id as string;

    const end = await waitFor(() => events.find((e) => e.event === 'message_stream_enhance_end'));
    expect(end.payload).toEqual({ enhance_id: id, content: improved });
    const pieces = events.filter((e) => e.event === 'message_stream_enhance');
    expect(pieces.length).toBeGreaterThan(0);
    for (const p of pieces) expect(p.payload.enhance_id).toBe(id);
    expect(pieces.map((p) => p.payload.content).join('')).toBe(improved);
    expect(events.findIndex((e) => e.event === 'message_stream_enhance_end')).toBe(events.length - 1);

    expect(k.fake.requests).toHaveLength(1);
    expect(k.fake.requests[0].model).toBe('grok-2-latest');
    expect(k.fake.requests[0].messages).toEqual([
      { role: 'system', content: ENHANCE_SYSTEM_PROMPT },
      { role: 'user', content: prompt },
    ]);
    expect(await k.debits(user)).toEqual([
      expect.objectContaining({
        source: 'enhance',
        reference: `enhance:${id}`,
        words: String(-countWords(improved)),
      }),
    ]);
    expect(await k.balance(user)).toBe(1000 - countWords(improved));
    expect(await k.rows(conversationId)).toEqual([]);
    const [{ count }] = await k.t.db.query(`SELECT count(*)::int AS count FROM messages WHERE user_id = $1`, [
      user.user_id,
    ]);
    expect(count).toBe(0);
  });

  it('answers the whole improved prompt with stream false, also through POST /api/messages enhance', async () => {
    const user = await k.customer();
    k.fake.reply({ text: '  Better prompt one.  ' }, { text: 'Better prompt two.' });
    const direct = await k
      .post(user, '/api/messages/enhance', { content: prompt, stream: false })
      .expect(201);
    expect(direct.body).toEqual({ enhance_id: expect.stringMatching(UUID), content: 'Better prompt one.' });
    // The spec's body: no conversation needed.
    const viaSend = await k
      .post(user, '/api/messages', { content: prompt, enhance: true, stream: false })
      .expect(201);
    expect(viaSend.body).toEqual({ enhance_id: expect.stringMatching(UUID), content: 'Better prompt two.' });
    expect(k.fake.requests[1].messages[0]).toEqual({ role: 'system', content: ENHANCE_SYSTEM_PROMPT });
    expect(await k.debits(user)).toHaveLength(2);
    expect(await k.balance(user)).toBe(1000 - 3 - 3);
  });

  it('refuses a text of 12 characters or fewer, an empty one and one too long', async () => {
    const user = await k.customer();
    for (const path of ['/api/messages/enhance', '/api/messages']) {
      const body = (content: string) => ({ content, ...(path === '/api/messages' ? { enhance: true } : {}) });
      const short = await k.post(user, path, body('123456789012')).expect(400);
      expect(short.body).toEqual(
        expect.objectContaining({
          code: 'enhance_too_short',
          message: 'Enhance is available only when the text is longer than 12 characters.',
        }),
      );
      await k.post(user, path, body('   123456789012   ')).expect(400);
      expect((await k.post(user, path, body('')).expect(400)).body.message).toBe(
        "The message can't be empty.",
      );
      expect((await k.post(user, path, body('x'.repeat(30002))).expect(400)).body.message).toBe(
        'The message is too long.',
      );
    }
    await k.post(user, '/api/messages/enhance', { content: prompt, stream: 'yes' }).expect(400);
    await k.post(user, '/api/messages/enhance', { content: 5 }).expect(400);
    expect(k.fake.requests).toHaveLength(0);
  });

  it('answers 412 without access', async () => {
    const user = await k.customer(null);
    const res = await k.post(user, '/api/messages/enhance', { content: prompt }).expect(412);
    expect(res.body.code).toBe('no_access');
    await k.post(user, '/api/messages', { content: prompt, enhance: true }).expect(412);
    expect(k.fake.requests).toHaveLength(0);
  });

  it('charges nothing when the provider fails, reporting it on the socket', async () => {
    const user = await k.customer();
    const { events } = await k.listen(user);
    k.fake.reply(
      { fail: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
      { text: 'Half an improved', chunks: 4, dropAfterChunks: 2 },
      { fail: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    );
    await k.post(user, '/api/messages/enhance', { content: prompt }).expect(201);
    const failed = await waitFor(() => events.find((e) => e.event === 'openai-error'));
    expect(failed.payload).toEqual({ message: 'OpenAi Error: Incorrect API key provided' });

    await k.post(user, '/api/messages/enhance', { content: prompt }).expect(201);
    const dropped = await waitFor(() => events.find((e) => e.event === 'error'));
    expect(dropped.payload).toMatchObject({ statusCode: 503 });

    const sync = await k.post(user, '/api/messages/enhance', { content: prompt, stream: false }).expect(400);
    expect(sync.body.code).toBe('openai_error');
    await sleep(100);
    expect(events.some((e) => e.event === 'message_stream_enhance_end')).toBe(false);
    expect(await k.debits(user)).toEqual([]);
    expect(await k.balance(user)).toBe(1000);
  });

  it('stops the enhancement and charges nothing when the session ends', async () => {
    const user = await k.customer();
    const { events } = await k.listen(user);
    k.fake.reply({ text: 'one two three four five six seven eight', chunks: 8, delayMs: 150 });
    await k.post(user, '/api/messages/enhance', { content: prompt }).expect(201);
    await waitFor(() => k.fake.requests[0]);
    // Ending the sessions publishes a cancel; nothing polls the sessions table.
    await k.t.app.get(AuthService).revokeAllSessions(user.user_id, 'test');
    await k.fake.requests[0].closed;
    expect(k.fake.requests[0].closedByClient).toBe(true);
    await sleep(100);
    expect(events.some((e) => e.event === 'message_stream_enhance_end')).toBe(false);
    expect(await k.debits(user)).toEqual([]);
  });
});
