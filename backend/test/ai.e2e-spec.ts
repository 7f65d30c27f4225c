import { AI_UNAVAILABLE_MESSAGE, AiError } from '../src/modules/ai/ai.errors';
import { AiRequest, AiResult, AiService } from '../src/modules/ai/ai.service';
import { FakeOpenAi, splitText, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp, TestUser } from './harness';

const messages: AiRequest['messages'] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello.' },
];

/** Runs a stream to the end, keeping each delta, and the error it ended with if any. */
async function drain(
  ai: AiService,
  request: AiRequest,
  onDelta?: (delta: string, index: number) => void,
): Promise<{ deltas: string[]; result?: AiResult; error?: AiError }> {
  const deltas: string[] = [];
  try {
    const result = await ai.complete(request, (d) => {
      deltas.push(d);
      onDelta?.(d, deltas.length - 1);
    });
    return { deltas, result };
  } catch (err) {
    if (!(err instanceof AiError)) throw err;
    return { deltas, error: err };
  }
}

describe('AI provider layer', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let ai: AiService;
  let admin: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      XAI_API_KEY: 'xai-test',
      XAI_BASE_URL: `${fake.url}/v1`,
    });
    ai = t.app.get(AiService);
    admin = await t.createUser({ staff: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('streams deltas that reassemble to exactly the text the provider sent', async () => {
    const text = 'Hello there, ¿qué tal? 👋 Streaming works.\nSecond line.';
    fake.reply({ text, chunks: 7 });
    const { deltas, result, error } = await drain(ai, { messages });
    expect(error).toBeUndefined();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(result).toMatchObject({
      content: text,
      finish_reason: 'stop',
      model: 'gpt-4o-mini',
      provider: 'openai',
    });
    expect(result?.usage?.completion_tokens).toBe(text.length);
    expect(fake.requests[0]).toMatchObject({ model: 'gpt-4o-mini', messages, stream: true });
  });

  it('reports finish_reason length when the answer was cut at the token limit', async () => {
    fake.reply({ text: 'Cut short', finishReason: 'length' });
    const result = await ai.complete({ messages, maxTokens: 2 });
    expect(result.finish_reason).toBe('length');
    expect(result.content).toBe('Cut short');
    expect(fake.requests[0].body.max_tokens).toBe(2);
  });

  it("sends the app config's model for 'Unset' and the chosen model otherwise", async () => {
    await ai.complete({ messages, model: 'Unset' });
    await ai.complete({ messages, model: 'gpt-4.1-nano' });
    expect(fake.requests.map((r) => r.model)).toEqual(['gpt-4o-mini', 'gpt-4.1-nano']);
  });

  it('sends grok models with the xAI key', async () => {
    const result = await ai.complete({ messages, model: 'grok-2-latest' });
    expect(result.provider).toBe('xai');
    expect(fake.requests[0]).toMatchObject({ model: 'grok-2-latest', authorization: 'Bearer xai-test' });
  });

  it("turns a provider 401 into 'Open AI Error: {message}'", async () => {
    fake.reply({
      fail: { status: 401, message: 'Incorrect API key provided: sk-test.', code: 'invalid_api_key' },
    });
    const { error } = await drain(ai, { messages });
    expect(error).toMatchObject({
      status: 400,
      code: 'openai_error',
      message: 'Open AI Error: Incorrect API key provided: [redacted]',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('turns a provider 500 that persists after one retry into the service-failure message', async () => {
    const failure = { fail: { status: 500, message: 'The server had an error', type: 'server_error' } };
    fake.reply(failure, failure);
    const { error } = await drain(ai, { messages });
    expect(error).toMatchObject({ status: 503, code: 'ai_unavailable', message: AI_UNAVAILABLE_MESSAGE });
    expect(fake.requests).toHaveLength(2);
  });

  it('treats a connection dropped mid-stream as an error, not a shorter answer', async () => {
    const text = 'one two three four five six';
    fake.reply({ text, chunks: 6, dropAfterChunks: 2 });
    const { deltas, result, error } = await drain(ai, { messages });
    expect(result).toBeUndefined();
    expect(error).toMatchObject({ code: 'ai_unavailable', message: AI_UNAVAILABLE_MESSAGE });
    expect(deltas.join('')).toBe(splitText(text, 6).slice(0, 2).join(''));
    expect(fake.requests).toHaveLength(1);
  });

  it('treats an answer that ends without a finish reason as an error, not a shorter answer', async () => {
    fake.reply({ text: 'one two three four five six', chunks: 6, endAfterChunks: 3 });
    const { result, error } = await drain(ai, { messages });
    expect(result).toBeUndefined();
    expect(error).toMatchObject({ code: 'ai_unavailable' });
  });

  it('cancels when the signal aborts, and the provider sees the connection close', async () => {
    fake.reply({ text: 'a'.repeat(50), chunks: 50, delayMs: 50 });
    const controller = new AbortController();
    const { deltas, error } = await drain(ai, { messages, signal: controller.signal }, (_d, i) => {
      if (i === 1) controller.abort();
    });
    expect(error).toMatchObject({ code: 'ai_cancelled' });
    expect(deltas.length).toBeLessThan(50);
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
  });

  it('stops waiting for a silent provider after the timeout', async () => {
    fake.reply({ hang: true });
    const started = Date.now();
    const { error } = await drain(ai, { messages, timeoutMs: 300 });
    expect(error).toMatchObject({ status: 503, code: 'ai_unavailable' });
    expect(Date.now() - started).toBeLessThan(5_000);
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
  });

  it('times out when the provider goes quiet between chunks', async () => {
    fake.reply({ text: 'slow answer', chunks: 2, delayMs: 1_000 });
    const { error } = await drain(ai, { messages, timeoutMs: 300 });
    expect(error).toMatchObject({ code: 'ai_unavailable' });
  });

  it('closes the provider connection when the consumer stops reading early', async () => {
    fake.reply({ text: 'b'.repeat(40), chunks: 40, delayMs: 30 });
    for await (const piece of ai.stream({ messages })) {
      expect(piece.delta).toBe('b');
      break;
    }
    await fake.requests[0].closed;
    expect(fake.requests[0].closedByClient).toBe(true);
  });

  it('uses the organization key, then the app config key, then OPENAI_API_KEY', async () => {
    const withKey = await t
      .http()
      .post('/api/organizations')
      .set('Authorization', admin.auth)
      .send({ name: 'Keyed Org', openai_api_key: 'sk-org' })
      .expect(201);
    const orgWithKey: number = withKey.body.organization.organization_id;
    const orgWithout = await t.createOrganization('Keyless Org');

    await ai.complete({ messages, organization_id: orgWithKey });
    await ai.complete({ messages });
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ password: admin.password, config: [{ key: 'openai_secret_key', value: 'sk-app' }] })
      .expect(200);
    try {
      await ai.complete({ messages, organization_id: orgWithKey });
      await ai.complete({ messages, organization_id: orgWithout });
      await ai.complete({ messages });
    } finally {
      await t
        .http()
        .put('/api/appconfig')
        .set('Authorization', admin.auth)
        .send({ password: admin.password, config: [{ key: 'openai_secret_key', value: null }] })
        .expect(200);
    }
    expect(fake.requests.map((r) => r.authorization)).toEqual([
      'Bearer sk-org',
      'Bearer sk-test',
      'Bearer sk-org',
      'Bearer sk-app',
      'Bearer sk-app',
    ]);
  });

  it('lists the models, the default and configured true on GET /api/ai/models', async () => {
    const user = await t.createUser();
    const res = await t.http().get('/api/ai/models').set('Authorization', user.auth).expect(200);
    expect(res.body).toEqual({
      models: [
        { id: 'gpt-4o-mini', label: 'GPT-4o mini', provider: 'openai', vision: true },
        { id: 'grok-2-latest', label: 'Grok 2', provider: 'xai', vision: false },
      ],
      default_model: 'gpt-4o-mini',
      configured: true,
    });
  });

  it('answers 401 on GET /api/ai/models without a session', async () => {
    await t.http().get('/api/ai/models').expect(401);
  });
});

describe('AI provider layer with no key anywhere', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
  });
  afterAll(() => t.close());

  it('says configured false on GET /api/ai/models', async () => {
    const user = await t.createUser();
    const res = await t.http().get('/api/ai/models').set('Authorization', user.auth).expect(200);
    expect(res.body).toMatchObject({ configured: false, default_model: 'gpt-4o-mini' });
  });

  it("says configured true for an organization's members once the organization has a key", async () => {
    const created = await t
      .http()
      .post('/api/organizations')
      .set('Authorization', admin.auth)
      .send({ name: 'Own Key Org', openai_api_key: 'sk-own' })
      .expect(201);
    const id: number = created.body.organization.organization_id;
    const member = await t.createUser();
    await t.addMember(id, member.user_id, 3);
    const scoped = await t
      .http()
      .get(`/api/ai/models?organization_id=${id}`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(scoped.body.configured).toBe(true);
    const personal = await t.http().get('/api/ai/models').set('Authorization', member.auth).expect(200);
    expect(personal.body.configured).toBe(false);
  });

  it('refuses to generate with 409 ai_not_configured and a sentence saying how to fix it', async () => {
    const ai = t.app.get(AiService);
    await expect(ai.complete({ messages })).rejects.toMatchObject({
      status: 409,
      code: 'ai_not_configured',
      message:
        'No AI provider is configured. An admin can add an OpenAI key in Admin → Settings → Advanced, or set OPENAI_API_KEY.',
    });
  });
});
