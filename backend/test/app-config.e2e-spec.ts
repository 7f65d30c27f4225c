import { CONFIG_KEYS } from '../src/modules/app-config/app-config.keys';
import { AppConfigService } from '../src/modules/app-config/app-config.service';
import { startTestApp, TestApp, TestUser } from './harness';

const SECRET_KEYS = [
  'stripe_private_key',
  'stripe_webhook_key',
  'openai_secret_key',
  'welcome_email_webhook_url',
  'reset_password_email_webhook_url',
  'firebaseConfig',
  'push_config',
];

describe('App config API', () => {
  let t: TestApp;
  let admin: TestUser;
  let manager: TestUser;
  let customer: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    manager = await t.createUser({ staff: 'manager' });
    customer = await t.createUser();
  });
  afterAll(() => t.close());

  const put = (config: { key: string; value: unknown }[], who: TestUser = admin) =>
    t.http().put('/api/appconfig').set('Authorization', who.auth).send({ config, password: who.password });

  it('seeds every key with its default at start', async () => {
    const rows: { key: string; value: string | null }[] = await t.db.query(
      `SELECT key, value FROM app_config`,
    );
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    for (const k of CONFIG_KEYS) expect(stored.has(k.key)).toBe(true);
    expect(stored.get('app_name')).toBe('Avatar Studio');
    expect(stored.get('signup_enabled')).toBe('true');
    expect(stored.get('landing_enabled')).toBe('false');
    expect(stored.get('openai_model')).toBe('gpt-4o-mini');
    expect(stored.get('templates_default_sort')).toBe('createdAt_desc');
    expect(stored.get('super_fetch_prompt')).toContain('{CTA}');
  });

  it('serves the public config to anyone, without any secret key', async () => {
    const res = await t.http().get('/api/appconfig').expect(200);
    const keys = res.body.config.map((e: { key: string }) => e.key);
    expect(keys).toEqual(
      expect.arrayContaining(['app_name', 'signup_enabled', 'documents_enabled', 'stripe_public_key']),
    );
    for (const secret of SECRET_KEYS) expect(keys).not.toContain(secret);
    for (const internal of ['bucket', 'region', 'S3_ENDPOINT', 'super_fetch_prompt', 'openai_model'])
      expect(keys).not.toContain(internal);
    expect(res.body.config).toContainEqual({ key: 'app_name', value: 'Avatar Studio' });
  });

  it('accepts organization_id on the public config call', async () => {
    await t.http().get('/api/appconfig?organization_id=').expect(200);
  });

  it.each([
    ['a customer', () => customer],
    ['a staff manager', () => manager],
  ])('answers 403 to %s on the admin routes', async (_who, who) => {
    await t.http().get('/api/appconfig/admin').set('Authorization', who().auth).expect(403);
    const res = await put([{ key: 'app_name', value: 'Hacked' }], who()).expect(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('answers 401 without a session on the admin routes', async () => {
    await t.http().get('/api/appconfig/admin').expect(401);
    await t.http().put('/api/appconfig').send({ config: [] }).expect(401);
  });

  it('lists every key for admins with type, group and secrets masked', async () => {
    await put([{ key: 'openai_secret_key', value: 'sk-test-1234567890abcdef' }]).expect(200);
    const res = await t.http().get('/api/appconfig/admin').set('Authorization', admin.auth).expect(200);
    expect(res.body.config).toHaveLength(CONFIG_KEYS.length);
    const openai = res.body.config.find((e: { key: string }) => e.key === 'openai_secret_key');
    expect(openai).toMatchObject({ secret: true, type: 'string', group: 'Advanced' });
    expect(openai.value).toBe('••••••••cdef');
    expect(JSON.stringify(res.body)).not.toContain('sk-test-1234567890abcdef');
    const flag = res.body.config.find((e: { key: string }) => e.key === 'super_fetch');
    expect(flag).toEqual({
      key: 'super_fetch',
      value: 'true',
      secret: false,
      type: 'boolean',
      group: 'Content',
    });
  });

  it('stores secrets encrypted and never in the public answer', async () => {
    await put([{ key: 'stripe_private_key', value: 'sk_live_supersecretvalue99' }]).expect(200);
    const [row] = await t.db.query(
      `SELECT value, updated_by FROM app_config WHERE key = 'stripe_private_key'`,
    );
    expect(row.value).toMatch(/^enc:v1:/);
    expect(row.updated_by).toBe(admin.user_id);
    const pub = await t.http().get('/api/appconfig').expect(200);
    expect(JSON.stringify(pub.body)).not.toContain('supersecretvalue');
    expect(await t.app.get(AppConfigService).get('stripe_private_key')).toBe('sk_live_supersecretvalue99');
  });

  it('keeps the stored secret when the masked value is sent back', async () => {
    await put([{ key: 'stripe_webhook_key', value: 'whsec_original_value_1234' }]).expect(200);
    const admin1 = await t.http().get('/api/appconfig/admin').set('Authorization', admin.auth).expect(200);
    // The settings screen sends every entry back as it got it, with one field edited.
    const edited = admin1.body.config.map((e: { key: string; value: string | null }) => ({
      key: e.key,
      value: e.key === 'tagline' ? 'Round trip' : e.value,
    }));
    const res = await put(edited).expect(200);
    expect(res.body.config.find((e: { key: string }) => e.key === 'tagline').value).toBe('Round trip');
    const service = t.app.get(AppConfigService);
    expect(await service.get('stripe_webhook_key')).toBe('whsec_original_value_1234');
    expect(await service.get('openai_secret_key')).toBe('sk-test-1234567890abcdef');
  });

  it('clears a secret sent as empty', async () => {
    await put([{ key: 'push_config', value: '{"vapid":"abc"}' }]).expect(200);
    await put([{ key: 'push_config', value: '' }]).expect(200);
    expect(await t.app.get(AppConfigService).get('push_config')).toBeNull();
  });

  it('refuses an unknown key, naming it, and changes nothing', async () => {
    const res = await put([
      { key: 'app_name', value: 'Should not stick' },
      { key: 'made_up_key', value: 'x' },
    ]).expect(400);
    expect(res.body).toMatchObject({ code: 'unknown_config_key', key: 'made_up_key' });
    expect(res.body.message).toContain('made_up_key');
    expect(await t.app.get(AppConfigService).get('app_name')).not.toBe('Should not stick');
  });

  it.each([
    ['signup_enabled', 'yes', 'signup_enabled must be true or false.'],
    ['primary_color', 'blue', 'primary_color must be a colour like #1a2b3c.'],
    ['favicon_url', 'javascript:alert(1)', 'favicon_url must be an http(s) URL.'],
    ['welcome_email_webhook_url', 'not a url', 'welcome_email_webhook_url must be an http(s) URL.'],
    ['firebaseConfig', '{nope', 'firebaseConfig must be valid JSON.'],
  ])('refuses %s = %s with 400', async (key, value, message) => {
    const res = await put([{ key, value }]).expect(400);
    expect(res.body).toMatchObject({ code: 'invalid_config_value', message, key });
  });

  it('refuses a body that is not a list of key/value pairs', async () => {
    const res = await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ config: [{ key: 'app_name', value: 12 }] })
      .expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('takes JSON booleans for switches and shows the change publicly at once', async () => {
    await t.http().get('/api/appconfig').expect(200); // warm the cache
    await put([
      { key: 'landing_enabled', value: true },
      { key: 'primary_color', value: '#112233' },
    ]).expect(200);
    const res = await t.http().get('/api/appconfig').expect(200);
    expect(res.body.config).toContainEqual({ key: 'landing_enabled', value: 'true' });
    expect(res.body.config).toContainEqual({ key: 'primary_color', value: '#112233' });
    expect(await t.app.get(AppConfigService).getFlag('landing_enabled')).toBe(true);
  });

  it('never overwrites stored values when seeding again', async () => {
    await put([{ key: 'app_name', value: 'My Brand' }]).expect(200);
    await t.app.get(AppConfigService).onModuleInit();
    expect(await t.app.get(AppConfigService).get('app_name')).toBe('My Brand');
  });
});
