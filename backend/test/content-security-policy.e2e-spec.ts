import { startTestApp, TestApp } from './harness';

/** The CSP directive `name` of a response, as a list of sources. */
function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found ? found.slice(1) : [];
}

describe('Content security policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('loads images only from this origin, and connects only to this origin and its socket', async () => {
    const res = await t.http().get('/api/health/live').expect(200);
    const csp = String(res.headers['content-security-policy']);
    expect(directive(csp, 'img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(directive(csp, 'media-src')).toEqual(["'self'", 'blob:']);
    const connect = directive(csp, 'connect-src');
    expect(connect[0]).toBe("'self'");
    // Never a bare scheme, which would let a page talk to any host.
    expect(connect).not.toContain('ws:');
    expect(connect).not.toContain('wss:');
    expect(connect).not.toContain('https:');
    expect(connect[1]).toMatch(/^ws:\/\/localhost:\d+$/);
  });

  it('adds the https host of a branding image set by an admin, and no other', async () => {
    const admin = await t.createUser({ staff: 'admin' });
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        config: [
          { key: 'landing_logo_src', value: 'https://cdn.example.com/brand/logo.png' },
          { key: 'favicon_url', value: '/api/files/content/favicon.png' },
        ],
      })
      .expect(200);
    const res = await t.http().get('/api/health/live').expect(200);
    const csp = String(res.headers['content-security-policy']);
    expect(directive(csp, 'img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.example.com']);
  });
});
