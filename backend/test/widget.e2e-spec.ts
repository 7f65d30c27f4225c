import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WIDGET_MESSAGES } from '@avatar-studio/contracts';
import { countWords } from '../src/modules/ai/words';
import type { TestUser } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

const SITE = 'https://shop.example.com';
const OTHER_SITE = 'https://evil.example.net';

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

describe('Chat widget', () => {
  let k: MessagesKit;
  let base: string;

  beforeAll(async () => {
    k = await startMessagesKit();
    base = `http://127.0.0.1:${(k.t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  const as = (who: TestUser) => ({
    get: (path: string) => k.t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object) => k.t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => k.t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => k.t.http().delete(path).set('Authorization', who.auth),
  });

  async function avatar(owner: TestUser, context = 'You sell handmade shoes.'): Promise<number> {
    const made = await as(owner).post('/api/avatars', { name: 'Shoe helper' }).expect(201);
    const id = made.body.avatar.avatar_id as number;
    await as(owner).put(`/api/avatars/add-context/${id}`, { context }).expect(200);
    return id;
  }

  async function widget(owner: TestUser, fields: Record<string, unknown> = {}) {
    const avatar_id = (fields.avatar_id as number | undefined) ?? (await avatar(owner));
    const res = await as(owner)
      .post('/api/widgets', { avatar_id, name: 'Shop chat', allowed_origins: [SITE], ...fields })
      .expect(201);
    return res.body as { widget_id: number; public_key: string; avatar_id: number };
  }

  const startSession = (key: string, origin: string | null, body: object = {}) => {
    const req = k.t.http().post(`/api/widget/${key}/sessions`).send(body);
    return origin ? req.set('Origin', origin) : req;
  };

  async function visitorToken(key: string, origin = SITE): Promise<string> {
    const res = await startSession(key, origin).expect(201);
    return res.body.token as string;
  }

  /** Sends a visitor's message and reads the whole answer stream. */
  async function ask(key: string, token: string, text: string, origin = SITE) {
    const res = await fetch(`${base}/api/widget/${key}/messages`, {
      method: 'POST',
      headers: { Origin: origin, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    const body = await res.text();
    const events: SseEvent[] = [];
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      for (const block of body.split('\n\n')) {
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
    return {
      status: res.status,
      events,
      json: events.length ? null : (JSON.parse(body) as Record<string, unknown>),
    };
  }

  it('generates, lists, changes and deletes an owner’s widgets with the spec’s validation', async () => {
    const owner = await k.customer();
    const noAvatar = await as(owner).post('/api/widgets', { name: 'X' }).expect(400);
    expect(noAvatar.body.message).toContain(WIDGET_MESSAGES.selectAvatar);
    const avatarId = await avatar(owner);
    const noName = await as(owner).post('/api/widgets', { avatar_id: avatarId, name: '  ' }).expect(400);
    expect(noName.body.message).toContain(WIDGET_MESSAGES.nameRequired);
    const badOrigin = await as(owner)
      .post('/api/widgets', { avatar_id: avatarId, name: 'A', allowed_origins: ['https://x.com/page'] })
      .expect(400);
    expect(badOrigin.body.message).toContain('is not a site address');
    // Super Fetch assistants are not offered.
    const superFetch = await avatar(owner);
    await k.t.db.query(`UPDATE avatars SET super_fetch_assistant = true WHERE avatar_id = $1`, [superFetch]);
    const refused = await as(owner).post('/api/widgets', { avatar_id: superFetch, name: 'A' }).expect(400);
    expect(refused.body).toMatchObject({
      code: 'widget_avatar_not_allowed',
      message: WIDGET_MESSAGES.selectAvatar,
    });

    const made = await as(owner)
      .post('/api/widgets', { avatar_id: avatarId, name: ' Shop chat ', allowed_origins: [`${SITE}/`, SITE] })
      .expect(201);
    expect(made.body).toMatchObject({
      name: 'Shop chat',
      accent_color: 'ff0000',
      allowed_origins: [SITE],
      disabled: false,
      public_key: expect.stringMatching(/^wk_[0-9a-f]{24}$/),
      usage: { conversations: 0, messages: 0, words: 0, words_today: 0 },
    });
    const id = made.body.widget_id as number;
    const changed = await as(owner)
      .put(`/api/widgets/${id}`, { accent_color: '#00AA11', words_per_day: 500, disabled: true })
      .expect(200);
    expect(changed.body).toMatchObject({ accent_color: '00aa11', words_per_day: 500, disabled: true });
    // An explicit null is refused with the field's sentence (it failed with a 500), and nothing changes.
    for (const body of [{ accent_color: null }, { max_concurrent_streams: null }, { name: null }]) {
      const refused = await as(owner).put(`/api/widgets/${id}`, body).expect(400);
      expect(refused.body.message).toEqual(expect.anything());
    }
    expect((await as(owner).get(`/api/widgets/${id}`).expect(200)).body).toMatchObject({
      accent_color: '00aa11',
      name: 'Shop chat',
    });
    const list = await as(owner).get('/api/widgets').expect(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(list.body.widgets[0].widget_id).toBe(id);

    const stranger = await k.customer();
    expect((await as(stranger).get(`/api/widgets/${id}`).expect(404)).body.code).toBe('widget_not_found');
    await as(stranger).delete(`/api/widgets/${id}`).expect(404);
    await as(owner).delete(`/api/widgets/${id}`).expect(204);
    expect((await as(owner).get('/api/widgets').expect(200)).body.total).toBe(0);
    await startSession(made.body.public_key, SITE).expect(404);
  });

  it('starts a session only with a known key from an allowed origin, with CORS for that origin alone', async () => {
    const owner = await k.customer();
    const w = await widget(owner, { accent_color: '123abc' });
    expect((await startSession('wk_000000000000000000000000', SITE).expect(404)).body.code).toBe(
      'widget_not_found',
    );
    const wrongOrigin = await startSession(w.public_key, OTHER_SITE).expect(403);
    expect(wrongOrigin.body).toMatchObject({
      code: 'widget_origin_refused',
      message: WIDGET_MESSAGES.originRefused,
    });
    expect(wrongOrigin.headers['access-control-allow-origin']).toBeUndefined();
    await startSession(w.public_key, null).expect(403);

    const ok = await startSession(w.public_key, SITE).expect(201);
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(ok.body).toMatchObject({
      token: expect.stringMatching(/^wv\./),
      visitor_id: expect.any(String),
      conversation_id: expect.any(Number),
      widget: { name: 'Shop chat', accent_color: '123abc', image_url: null, avatar_name: 'Shoe helper' },
    });
    const preflight = await k.t
      .http()
      .options(`/api/widget/${w.public_key}/messages`)
      .set('Origin', SITE)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.headers['access-control-allow-origin']).toBe(SITE);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/authorization/i);
    const refusedPreflight = await k.t
      .http()
      .options(`/api/widget/${w.public_key}/messages`)
      .set('Origin', OTHER_SITE)
      .set('Access-Control-Request-Method', 'POST');
    expect(refusedPreflight.headers['access-control-allow-origin']).toBeUndefined();

    // A returning visitor goes on with their conversation; a token from another origin starts a new one.
    const again = await startSession(w.public_key, SITE, { resume_token: ok.body.token }).expect(201);
    expect(again.body.conversation_id).toBe(ok.body.conversation_id);
    await as(owner)
      .put(`/api/widgets/${w.widget_id}`, { allowed_origins: [SITE, OTHER_SITE] })
      .expect(200);
    const elsewhere = await startSession(w.public_key, OTHER_SITE, { resume_token: ok.body.token }).expect(
      201,
    );
    expect(elsewhere.body.conversation_id).not.toBe(ok.body.conversation_id);
    const usage = (await as(owner).get(`/api/widgets/${w.widget_id}`).expect(200)).body.usage;
    expect(usage.conversations).toBe(2);
  });

  it('streams the avatar’s answer in full, saves it, charges the owner and keeps the conversation', async () => {
    const owner = await k.customer(5000);
    const w = await widget(owner);
    const token = await visitorToken(w.public_key);
    const answer = 'Our shoes are stitched by hand in Valencia and ship in three days.';
    k.fake.reply({ text: answer, chunks: 8, delayMs: 5 });
    const { status, events } = await ask(w.public_key, token, 'Where are your shoes made?');
    expect(status).toBe(200);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(0);
    let expected = 0;
    for (const d of deltas) {
      expect(d.data.offset).toBe(expected);
      expected += (d.data.content as string).length;
    }
    expect(deltas.map((d) => d.data.content).join('')).toBe(answer);
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: { message_id: expect.any(Number), content: answer, finish_reason: 'stop' },
    });
    // The avatar's context is its owner's instruction; the question is the visitor's.
    const prompt = k.fake.requests[0].messages;
    expect(prompt.some((m) => m.role === 'system' && m.content.includes('You sell handmade shoes.'))).toBe(
      true,
    );
    expect(prompt.at(-1)).toEqual({ role: 'user', content: 'Where are your shoes made?' });
    expect(await k.debits(owner)).toEqual([
      expect.objectContaining({ source: 'widget', words: String(-countWords(answer)) }),
    ]);
    const history = await k.t
      .http()
      .get(`/api/widget/${w.public_key}/messages`)
      .set('Origin', SITE)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(history.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Where are your shoes made?'],
      ['assistant', answer],
    ]);
    const usage = (await as(owner).get(`/api/widgets/${w.widget_id}`).expect(200)).body.usage;
    expect(usage).toEqual({
      conversations: 1,
      messages: 2,
      words: countWords(answer),
      words_today: countWords(answer),
    });

    // The next question carries the conversation so far.
    k.fake.reply({ text: 'Yes, worldwide.' });
    await ask(w.public_key, token, 'Do you ship abroad?');
    expect(k.fake.requests[1].messages.slice(-3)).toEqual([
      { role: 'user', content: 'Where are your shoes made?' },
      { role: 'assistant', content: answer },
      { role: 'user', content: 'Do you ship abroad?' },
    ]);
  });

  it('tells the visitor when the widget is disabled or its owner has no words, and charges nothing', async () => {
    const owner = await k.customer();
    const w = await widget(owner);
    const token = await visitorToken(w.public_key);
    await as(owner).put(`/api/widgets/${w.widget_id}`, { disabled: true }).expect(200);
    const session = await startSession(w.public_key, SITE).expect(403);
    expect(session.body).toMatchObject({ code: 'widget_disabled', message: WIDGET_MESSAGES.unavailable });
    const sent = await ask(w.public_key, token, 'Hello?');
    expect(sent.status).toBe(403);
    expect(sent.json).toMatchObject({ code: 'widget_disabled', message: WIDGET_MESSAGES.unavailable });
    await as(owner).put(`/api/widgets/${w.widget_id}`, { disabled: false }).expect(200);

    // The owner's words run out: the visitor reads that the chat is unavailable, never the owner's terms.
    await k.t.db.query(`DELETE FROM word_ledger WHERE user_id = $1`, [owner.user_id]);
    const noWords = await ask(w.public_key, token, 'Hello?');
    expect(noWords.status).toBe(412);
    expect(noWords.json).toMatchObject({ code: 'widget_unavailable', message: WIDGET_MESSAGES.unavailable });
    const noSession = await startSession(w.public_key, SITE).expect(412);
    expect(noSession.body.code).toBe('widget_unavailable');
    expect(k.fake.requests).toHaveLength(0);
    expect(await k.debits(owner)).toEqual([]);
  });

  it('keeps each widget within its words per day, messages per minute and concurrent streams', async () => {
    const owner = await k.customer(100_000);
    const daily = await widget(owner, { words_per_day: 100 });
    const token = await visitorToken(daily.public_key);
    k.fake.reply({ text: Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ') });
    expect((await ask(daily.public_key, token, 'Tell me a lot')).status).toBe(200);
    const over = await ask(daily.public_key, token, 'More');
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ code: 'widget_quota_exceeded', message: WIDGET_MESSAGES.dailyLimit });

    const perMinute = await widget(owner, { messages_per_minute: 1 });
    const t2 = await visitorToken(perMinute.public_key);
    k.fake.reply({ text: 'One.' });
    expect((await ask(perMinute.public_key, t2, 'First')).status).toBe(200);
    const second = await ask(perMinute.public_key, t2, 'Second');
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ code: 'widget_busy', message: WIDGET_MESSAGES.busy });

    const oneStream = await widget(owner, { max_concurrent_streams: 1 });
    const [a, b] = [await visitorToken(oneStream.public_key), await visitorToken(oneStream.public_key)];
    k.fake.reply({ text: 'A slow answer in many parts', chunks: 10, delayMs: 60 });
    const slow = ask(oneStream.public_key, a, 'Slow please');
    await waitFor(() => k.fake.requests.length === 3);
    const busy = await ask(oneStream.public_key, b, 'Me too');
    expect(busy.status).toBe(429);
    expect(busy.json).toMatchObject({ code: 'widget_busy' });
    expect((await slow).events.at(-1)?.event).toBe('done');
  });

  it('leaves the owner’s own cap of concurrent answers free while visitors are answered', async () => {
    const owner = await k.customer(100_000);
    const w = await widget(owner, { max_concurrent_streams: 5 });
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push(await visitorToken(w.public_key));
    // Three slow visitor answers: as many as the owner's own cap (3).
    k.fake.reply(...tokens.map(() => ({ text: 'word '.repeat(20), chunks: 20, delayMs: 50 })));
    const visitors = tokens.map((token, i) => ask(w.public_key, token, `Visitor ${i}`));
    await waitFor(() => k.fake.requests.length === 3);
    const conversationId = await k.conversation(owner);
    k.fake.reply({ text: 'Yours.' });
    await k
      .post(owner, '/api/messages', { content: 'Hi', conversation_id: conversationId, stream: false })
      .expect(201);
    for (const answer of await Promise.all(visitors)) expect(answer.events.at(-1)?.event).toBe('done');
  });

  it('limits one visitor’s messages a minute', async () => {
    const owner = await k.customer(100_000);
    const w = await widget(owner, { messages_per_minute: 100 });
    const token = await visitorToken(w.public_key);
    k.fake.defaultReply = { text: 'ok' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ask(w.public_key, token, `q${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });

  it('refuses a visitor token on every other route of the API, and other tokens on the visitor routes', async () => {
    const owner = await k.customer();
    const w = await widget(owner);
    const token = await visitorToken(w.public_key);
    const document = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const wrong: string[] = [];
    let walked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      if (path.startsWith('/api/widget/')) continue;
      const url = path.replace(/\{[^}]+\}/g, '1');
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        walked++;
        const agent = k.t.http();
        const res = await agent[method as 'get'](url)
          .set('Authorization', `Bearer ${token}`)
          .set('Origin', SITE);
        if (res.status !== 401 || res.body.code !== 'widget_token_refused')
          wrong.push(`${method.toUpperCase()} ${path}: ${res.status} ${res.body.code}`);
      }
    }
    expect(walked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);

    // A user's token, no token, or another widget's visitor token do not open a visitor route.
    const history = (auth?: string, key = w.public_key) => {
      const req = k.t.http().get(`/api/widget/${key}/messages`).set('Origin', SITE);
      return auth ? req.set('Authorization', auth) : req;
    };
    expect((await history(owner.auth).expect(401)).body.code).toBe('widget_token_invalid');
    expect((await history().expect(401)).body.code).toBe('widget_token_invalid');
    expect((await history(`Bearer ${token}x`).expect(401)).body.code).toBe('widget_token_invalid');
    const other = await widget(owner);
    await history(`Bearer ${token}`, other.public_key).expect(401);
    await history(`Bearer ${token}`).expect(200);
  });

  it('stops the answer when the visitor goes away, and charges nothing', async () => {
    const owner = await k.customer(5000);
    const w = await widget(owner);
    const token = await visitorToken(w.public_key);
    k.fake.reply({ text: 'a b c d e f g h i j k l m n o p', chunks: 16, delayMs: 100 });
    const controller = new AbortController();
    const res = await fetch(`${base}/api/widget/${w.public_key}/messages`, {
      method: 'POST',
      headers: { Origin: SITE, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Hi' }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await waitFor(() => k.fake.requests[0]?.closedByClient);
    await sleep(200);
    expect(await k.debits(owner)).toEqual([]);
    const rows = await k.t.db.query(`SELECT role FROM widget_messages WHERE widget_id = $1`, [w.widget_id]);
    expect(rows.map((r: { role: string }) => r.role)).toEqual(['user']);
  });
});
