import { startTestApp, TestApp, TestUser } from './harness';

describe('Landing pages (server-rendered by the web module)', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
  });
  afterAll(() => t.close());

  const configure = (entries: Record<string, string>) =>
    t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ config: Object.entries(entries).map(([key, value]) => ({ key, value })) })
      .expect(200);

  it('answers / with the landing page from the app config only while landing_enabled is on', async () => {
    await configure({ landing_enabled: 'false', spanish_enabled: 'false' });
    const off = await t.http().get('/').set('Accept', 'text/html').expect(200);
    expect(off.text).not.toContain('<html lang="en">');

    await configure({
      landing_enabled: 'true',
      title: 'Landing Title Here',
      feature1_title: 'First feature',
      tracking_code: '<script>window.tracked = true</script>',
    });
    const on = await t.http().get('/').set('Accept', 'text/html').expect(200);
    expect(on.type).toBe('text/html');
    expect(on.text).toContain('<html lang="en">');
    expect(on.text).toContain('Landing Title Here');
    expect(on.text).toContain('First feature');
    expect(on.text).toContain('href="/auth/signup"');
    const nonce = /<script nonce="([^"]+)">/.exec(on.text)![1];
    expect(on.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);

    // A browser holding a session gets the app at /.
    const app = await t.http().get('/').set('Cookie', 'signed_in=1').set('Accept', 'text/html').expect(200);
    expect(app.text).not.toContain('Landing Title Here');
  });

  it('answers /latam in Spanish only while spanish_enabled is on', async () => {
    await configure({ landing_enabled: 'true', spanish_enabled: 'false' });
    const off = await t.http().get('/latam').set('Accept', 'text/html').expect(200);
    expect(off.text).not.toContain('<html lang="es">');
    await configure({ spanish_enabled: 'true' });
    const on = await t
      .http()
      .get('/latam')
      .set('Accept', 'text/html')
      .set('Cookie', 'signed_in=1')
      .expect(200);
    expect(on.text).toContain('<html lang="es">');
    expect(on.text).toContain('Registrarse');
    await configure({ landing_enabled: 'false', spanish_enabled: 'false' });
  });
});
