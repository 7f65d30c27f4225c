import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfigService } from '../src/modules/app-config/app-config.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { FakeSearch, startFakeSearch } from './fakes/search-server';
import { FakeWebhook } from './fakes/webhook';
import type { TestUser } from './harness';
import { PaymentsKit, PLATFORM_KEY, startPaymentsKit } from './payments-kit';
import { userSocket } from './sockets';

/** A port where nothing listens: a fake started and stopped. */
async function stoppedUrl(): Promise<string> {
  const hook = new FakeWebhook();
  await hook.start();
  await hook.stop();
  return hook.url;
}

describe('Setup checklist', () => {
  let k: PaymentsKit;
  let ai: FakeOpenAi;
  let search: FakeSearch;
  let admin: TestUser;
  let manager: TestUser;
  /** Every answer of these tests, searched for secrets at the end. */
  const answers: string[] = [];

  const setConfig = (changes: Record<string, string | null>) =>
    k.t.app.get(AppConfigService).update(
      Object.entries(changes).map(([key, value]) => ({ key, value })),
      admin.user_id,
    );
  const checklist = async () => {
    const res = await k.t.http().get('/api/setup/checklist').set('Authorization', admin.auth).expect(200);
    answers.push(JSON.stringify(res.body));
    return res.body as {
      items: { item: string; state: string; required: boolean; link: string; detail: string | null }[];
      complete: boolean;
    };
  };
  const stateOf = async (item: string) => (await checklist()).items.find((i) => i.item === item)?.state;
  const test = async (item: string, body: Record<string, string> = {}) => {
    const res = await k.t
      .http()
      .post(`/api/setup/test/${item}`)
      .set('Authorization', admin.auth)
      .send(body)
      .expect(200);
    answers.push(JSON.stringify(res.body));
    return res.body as {
      ok: boolean;
      problem: string | null;
      message: string;
      warnings: string[];
      models?: string[];
      answer?: string;
      results?: number;
    };
  };

  beforeAll(async () => {
    ai = await startFakeOpenAi();
    search = await startFakeSearch();
    k = await startPaymentsKit();
    admin = k.admin;
    manager = await k.t.createUser({ staff: 'manager' });
  });
  afterAll(async () => {
    await k.close();
    await ai.close();
    await search.close();
  });

  it('is for staff admins only', async () => {
    await k.t.http().get('/api/setup/checklist').expect(401);
    await k.t.http().get('/api/setup/checklist').set('Authorization', manager.auth).expect(403);
    await k.t.http().post('/api/setup/test/ai').set('Authorization', manager.auth).send({}).expect(403);
    const bad = await k.t.http().post('/api/setup/test/printer').set('Authorization', admin.auth).send({});
    expect(bad.status).toBe(400);
  });

  it('reads every item from the live settings, with the field that sets it', async () => {
    const list = await checklist();
    expect(list.items.map((i) => i.item)).toEqual([
      'ai',
      'search',
      'email',
      'storage',
      'stripe',
      'paypal',
      'branding',
      'product',
      'signup',
    ]);
    const byItem = Object.fromEntries(list.items.map((i) => [i.item, i]));
    expect(byItem.ai).toMatchObject({ state: 'todo', required: true });
    expect(byItem.ai.link).toBe('/admin/settings?tab=Advanced&field=openai_base_url');
    expect(byItem.storage).toMatchObject({ state: 'untested', detail: 'disk' });
    // The payments kit set the Stripe and PayPal keys.
    expect(byItem.stripe.state).toBe('untested');
    expect(byItem.paypal.state).toBe('untested');
    expect(byItem.branding).toMatchObject({ state: 'todo', detail: 'Avatar Studio' });
    expect(byItem.signup).toMatchObject({ state: 'done', detail: 'open' });
    expect(list.complete).toBe(false);

    await setConfig({ app_name: 'Quill', signup_enabled: 'false' });
    const after = Object.fromEntries((await checklist()).items.map((i) => [i.item, i]));
    expect(after.branding).toMatchObject({ state: 'done', detail: 'Quill' });
    expect(after.signup.detail).toBe('closed');
  });

  it('AI: lists the models and streams a one-line answer to the admin, then the item is done', async () => {
    expect(await stateOf('ai')).toBe('todo');
    await setConfig({ openai_base_url: `${ai.url}/v1` });
    expect(await stateOf('ai')).toBe('untested');

    ai.reply({ text: 'Connected and ready to write.', chunks: 4 });
    const deltas: { test_id: string; delta: string }[] = [];
    const socket = await userSocket(k.t.app, admin, (s) => s.on('setup_test_output', (p) => deltas.push(p)));
    try {
      const result = await test('ai', { test_id: 'check-1' });
      expect(result).toMatchObject({ ok: true, problem: null, answer: 'Connected and ready to write.' });
      expect(result.models).toEqual(['gpt-4o-mini', 'gpt-4o']);
      await new Promise((r) => setTimeout(r, 200));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.every((d) => d.test_id === 'check-1')).toBe(true);
      expect(deltas.map((d) => d.delta).join('')).toBe('Connected and ready to write.');
    } finally {
      socket.disconnect();
    }
    expect(await stateOf('ai')).toBe('done');
    // Nobody was charged: the check is not a generation.
    const [{ n }] = await k.t.db.query(`SELECT count(*)::int AS n FROM word_ledger`);
    expect(n).toBe(0);
  });

  it('AI: a wrong key fails in plain words, and the key is never shown', async () => {
    ai.requiredKey = 'sk-right-key';
    try {
      await setConfig({ openai_secret_key: 'sk-wrong-key-0123456789' });
      const result = await test('ai');
      expect(result).toMatchObject({ ok: false, problem: 'ai_key_rejected' });
      expect(result.message).toMatch(/refused the API key/);
      expect(await stateOf('ai')).toBe('failed');
      await setConfig({ openai_secret_key: 'sk-right-key' });
      expect((await test('ai')).ok).toBe(true);
    } finally {
      ai.requiredKey = undefined;
    }
  });

  it('AI: a stopped provider fails as unreachable', async () => {
    await setConfig({ openai_base_url: `${await stoppedUrl()}/v1` });
    const result = await test('ai');
    expect(result).toMatchObject({ ok: false, problem: 'ai_unreachable' });
    expect(result.message).toMatch(/did not answer/);
    await setConfig({ openai_base_url: `${ai.url}/v1` });
  });

  it('web search: runs one query, and fails when the server is stopped', async () => {
    expect((await test('search')).problem).toBe('not_configured');
    await setConfig({ search_enabled: 'true', search_url: search.url });
    search.reply({ results: [{ title: 'Ideas', url: 'https://example.com/ideas', content: 'Some ideas.' }] });
    const result = await test('search');
    expect(result).toMatchObject({ ok: true, results: 1 });
    expect(search.requests).toHaveLength(1);
    expect(await stateOf('search')).toBe('done');

    await setConfig({ search_url: await stoppedUrl() });
    expect(await test('search')).toMatchObject({ ok: false, problem: 'search_failed' });
  });

  it('email: sends a sample welcome message to the admin through the webhook', async () => {
    expect((await test('email')).problem).toBe('not_configured');
    await setConfig({ welcome_email_webhook_url: `${k.mail.url}/welcome` });
    expect(await test('email')).toMatchObject({ ok: true });
    const sent = await k.mail.next('/welcome', admin.email);
    expect(sent).toMatchObject({ type: 'welcome', to: admin.email, app_name: 'Quill' });

    await setConfig({ welcome_email_webhook_url: `${await stoppedUrl()}/welcome` });
    const failed = await test('email');
    expect(failed).toMatchObject({ ok: false, problem: 'email_failed' });
    expect(failed.message).toMatch(/webhook did not accept/);
  });

  it('file storage: writes, reads back and deletes a small file', async () => {
    const folder = join(k.t.env.dataDir, 'files');
    const filesBefore = (() => {
      try {
        return readdirSync(folder).length;
      } catch {
        return 0;
      }
    })();
    expect(await test('storage')).toMatchObject({ ok: true, problem: null });
    expect(readdirSync(folder)).toHaveLength(filesBefore);
    expect(await stateOf('storage')).toBe('done');

    await setConfig({ bucket: 'uploads', region: 'us-east-1', S3_ENDPOINT: await stoppedUrl() });
    const failed = await test('storage');
    expect(failed).toMatchObject({ ok: false, problem: 'storage_write_failed' });
    await setConfig({ bucket: null, region: null, S3_ENDPOINT: null });
  });

  it('Stripe: checks the key through the SDK and the webhook settings; a wrong key fails', async () => {
    const result = await test('stripe');
    expect(result).toMatchObject({ ok: true });
    // The test server listens on 127.0.0.1, which Stripe cannot reach.
    expect(result.warnings).toContain('webhook_address_private');
    expect(k.stripe.requests.some((r) => r.path === '/v1/products' && r.key === PLATFORM_KEY)).toBe(true);

    await setConfig({ stripe_private_key: 'sk_test_wrong_0123456789' });
    expect(await test('stripe')).toMatchObject({ ok: false, problem: 'stripe_key_rejected' });
    await setConfig({ stripe_private_key: PLATFORM_KEY, stripe_webhook_key: null });
    expect(await test('stripe')).toMatchObject({ ok: false, problem: 'stripe_webhook_secret_missing' });
    await setConfig({ stripe_webhook_key: k.stripe.webhookSecret });
  });

  it('PayPal: checks the client id and secret; a wrong secret fails', async () => {
    expect(await test('paypal')).toMatchObject({ ok: true });
    await setConfig({ paypal_client_secret: 'wrong-paypal-secret-0123' });
    expect(await test('paypal')).toMatchObject({ ok: false, problem: 'paypal_key_rejected' });
    await setConfig({ paypal_client_secret: k.paypal.clientSecret });
  });

  it('forgets test results when a setting changes', async () => {
    expect(await test('storage')).toMatchObject({ ok: true });
    expect(await stateOf('storage')).toBe('done');
    await setConfig({ tagline: 'Write more' });
    expect(await stateOf('storage')).toBe('untested');
  });

  it('never answers with a key or a configured address', () => {
    const all = answers.join('\n');
    for (const secret of [
      'sk-wrong-key-0123456789',
      'sk-right-key',
      'sk_test_wrong_0123456789',
      PLATFORM_KEY,
      'wrong-paypal-secret-0123',
      k.paypal.clientSecret,
      k.stripe.webhookSecret,
      ai.url,
      search.url,
      k.mail.url,
    ])
      expect(all).not.toContain(secret);
  });
});
