import type { TestUser } from './harness';
import { MessagesKit, startMessagesKit, waitFor } from './messages-kit';

describe('Messages: template apply and history flags', () => {
  let k: MessagesKit;
  let admin: TestUser;

  beforeAll(async () => {
    k = await startMessagesKit();
    admin = await k.t.createUser({ staff: 'admin' });
  });
  afterEach(() => k.disconnectAll());
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  async function template(who: TestUser, body: object = {}): Promise<{ template_id: number; name: string }> {
    const res = await k
      .post(who, '/api/templates', {
        name: 'Blog post',
        description: 'Writes a post',
        content: 'Write about [Topic] in a [Tone[warm/formal]] tone for [Audience].',
        fields: [{ name: 'Audience', label: 'Target audience' }],
        ...body,
      })
      .expect(201);
    return res.body.template;
  }

  const values = { Topic: 'coffee', Tone: 'warm', Audience: 'students' };
  const rendered = 'Write about coffee in a warm tone for students.';

  it('sends the rendered template to the model, shows the template name and never returns the prompt', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(user);
    k.fake.reply({ text: 'A post about coffee.' }, { text: 'Shorter.' });

    const res = await k
      .post(user, '/api/messages', { conversation_id: conversationId, template_id, values, stream: false })
      .expect(201);
    expect(k.fake.requests[0].messages).toEqual([{ role: 'user', content: rendered }]);
    expect(res.body.user_message).toMatchObject({ role: 'user', content: 'Blog post' });
    expect(res.body.user_message).not.toHaveProperty('prompt');
    expect(res.body.message).toMatchObject({ content: 'A post about coffee.', sources: null });
    expect(res.body.message).not.toHaveProperty('prompt');

    const stored = await k.rows(conversationId);
    expect(stored.map((r) => [r.role, r.content, r.prompt])).toEqual([
      ['user', 'Blog post', rendered],
      ['assistant', 'A post about coffee.', null],
    ]);
    const listed = await k.t
      .http()
      .get(`/api/messages/conversation/${conversationId}`)
      .set('Authorization', user.auth)
      .expect(200);
    for (const m of listed.body.messages) expect(m).not.toHaveProperty('prompt');
    expect(JSON.stringify(listed.body)).not.toContain(rendered);

    // The next message's history carries the prompt the model saw, not the template's name.
    await k
      .post(user, '/api/messages', { conversation_id: conversationId, content: 'Shorter', stream: false })
      .expect(201);
    expect(k.fake.requests[1].messages).toEqual([
      { role: 'user', content: rendered },
      { role: 'assistant', content: 'A post about coffee.' },
      { role: 'user', content: 'Shorter' },
    ]);
  });

  it('applies a public template whose prompt is hidden from the caller', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(admin, { public: true, show_prompt: false, name: 'Secret' });
    const seen = await k.t
      .http()
      .get(`/api/templates/${template_id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(seen.body.template.content).toBeNull();

    const res = await k
      .post(user, '/api/messages', { conversation_id: conversationId, template_id, values, stream: false })
      .expect(201);
    expect(res.body.user_message.content).toBe('Secret');
    expect(k.fake.requests[0].messages.at(-1)).toEqual({ role: 'user', content: rendered });
  });

  it('refuses missing or blank values, naming the fields, and stores nothing', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(user);
    const res = await k
      .post(user, '/api/messages', {
        conversation_id: conversationId,
        template_id,
        values: { Topic: 'coffee', Tone: '   ' },
      })
      .expect(400);
    expect(res.body).toMatchObject({ code: 'missing_values' });
    expect(res.body.message).toContain('Tone');
    expect(res.body.message).toContain('Target audience');
    expect(res.body.message).not.toContain('Topic');

    const noValues = await k.post(user, '/api/messages', { conversation_id: conversationId, template_id });
    expect(noValues.status).toBe(400);
    expect(noValues.body.code).toBe('missing_values');
    const notText = await k.post(user, '/api/messages', {
      conversation_id: conversationId,
      template_id,
      values: { ...values, Topic: 5 },
    });
    expect(notText.status).toBe(400);
    const notObject = await k.post(user, '/api/messages', {
      conversation_id: conversationId,
      template_id,
      values: ['coffee'],
    });
    expect(notObject.status).toBe(400);
    expect(await k.rows(conversationId)).toEqual([]);
    expect(k.fake.requests).toHaveLength(0);
  });

  it("answers 404 for another user's private template and for a missing one", async () => {
    const owner = await k.customer();
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(owner);
    for (const id of [template_id, 2_000_000_000]) {
      const res = await k
        .post(user, '/api/messages', { conversation_id: conversationId, template_id: id, values })
        .expect(404);
      expect(res.body.code).toBe('template_not_found');
    }
    await k
      .post(user, '/api/messages', { conversation_id: conversationId, template_id: 'x', values })
      .expect(400);
    expect(await k.rows(conversationId)).toEqual([]);
  });

  it('deletes the user message once the answer is saved with deleteUserMsg', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(user);
    const { events } = await k.listen(user);
    k.fake.reply({ text: 'Answer kept.' });
    const res = await k
      .post(user, '/api/messages', {
        conversation_id: conversationId,
        template_id,
        values,
        deleteUserMsg: true,
        stream: true,
      })
      .expect(201);
    expect(res.body.message.user_message_id).toBe(res.body.user_message.message_id);
    const end = await waitFor(() => events.find((e) => e.event === 'message_stream_end'));
    expect(end.payload.message).toMatchObject({ content: 'Answer kept.', user_message_id: null });
    const stored = await k.rows(conversationId);
    expect(stored.map((r) => [r.role, r.content, r.user_message_id])).toEqual([
      ['assistant', 'Answer kept.', null],
    ]);
  });

  it('sends no earlier messages when saveOnConversation or learnFromPrevResponse is false', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const send = (body: object) =>
      k.post(user, '/api/messages', { conversation_id: conversationId, stream: false, ...body }).expect(201);
    await send({ content: 'First' });
    await send({ content: 'Second', saveOnConversation: false });
    await send({ content: 'Third', learnFromPrevResponse: false });
    await send({ content: 'Fourth', saveOnConversation: true, learnFromPrevResponse: true });
    const sent = k.fake.requests.map((r) => r.messages.map((m) => m.content));
    expect(sent[1]).toEqual(['Second']);
    expect(sent[2]).toEqual(['Third']);
    // The exchange sent with saveOnConversation false never entered the conversation.
    expect(sent[3]).toEqual(['First', 'Hello from the fake.', 'Third', 'Hello from the fake.', 'Fourth']);
  });

  it('keeps an exchange with saveOnConversation false out of the conversation, yet streams, returns and charges it', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { template_id } = await template(user);
    const { events } = await k.listen(user);
    const before = await k.balance(user);
    k.fake.reply({ text: 'Streamed but not kept.' });
    const res = await k
      .post(user, '/api/messages', {
        conversation_id: conversationId,
        template_id,
        values,
        saveOnConversation: false,
        stream: true,
      })
      .expect(201);
    const messageId = res.body.message.message_id as number;
    const end = await waitFor(() => events.find((e) => e.event === 'message_stream_end'));
    expect(end.payload).toMatchObject({
      conversation_id: conversationId,
      message: { message_id: messageId, content: 'Streamed but not kept.', status: 'complete' },
    });
    const chunks = events.filter((e) => e.event === 'message_stream' && e.payload.message_id === messageId);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0].payload.offset).toBe(0);
    // The last words may come only with the end event, which carries the whole text.
    expect('Streamed but not kept.'.startsWith(chunks.map((e) => e.payload.content).join(''))).toBe(true);
    expect(await k.rows(conversationId)).toEqual([]);
    const debits = await k.debits(user);
    expect(debits.map((d) => d.reference)).toEqual([`message:${messageId}`]);
    expect(await k.balance(user)).toBeLessThan(before);

    // Not streamed: the answer comes back in the response, and nothing is stored either.
    k.fake.reply({ text: 'Returned but not kept.' });
    const direct = await k
      .post(user, '/api/messages', {
        conversation_id: conversationId,
        content: 'Just this once',
        saveOnConversation: false,
        stream: false,
      })
      .expect(201);
    expect(direct.body.message).toMatchObject({ content: 'Returned but not kept.', status: 'complete' });
    expect(await k.rows(conversationId)).toEqual([]);
    expect(await k.debits(user)).toHaveLength(2);
  });

  it('refuses an avatar the caller cannot see, and a message without content or template', async () => {
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const avatar = await k
      .post(user, '/api/messages', { conversation_id: conversationId, content: 'Hi', avatar_id: 2_000_000 })
      .expect(404);
    expect(avatar.body).toMatchObject({ code: 'avatar_not_found', message: 'Avatar not found.' });
    // null is "no avatar", as the client sends it.
    await k
      .post(user, '/api/messages', {
        conversation_id: conversationId,
        content: 'Hi',
        avatar_id: null,
        stream: false,
      })
      .expect(201);
    const empty = await k.post(user, '/api/messages', { conversation_id: conversationId }).expect(400);
    expect(empty.body.message).toBe("The message can't be empty.");
    await k.post(user, '/api/messages', { content: 'Hi' }).expect(400);
  });
});
