import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import type { LandingPages, LandingRequest } from './landing.service';
import { createWebHandler } from './web-handler';

function appFor(frontendsDir: string) {
  const app = express();
  app.get('/api/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(createWebHandler(frontendsDir));
  // Stands in for Nest's not-found handler.
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).json({ statusCode: 404, code: 'not_found' });
  });
  return app;
}

describe('web handler', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'web-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function build(files: Record<string, string | Buffer>) {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  }

  it('serves the chat widget at /widget/ to other sites, compressed when asked, and nothing outside its build', async () => {
    const loader = 'console.log("widget");'.repeat(100);
    build({
      'widget/dist/widget.js': loader,
      'widget/dist/widget.js.br': brotliCompressSync(Buffer.from(loader)),
      'widget/dist/widget.css': '#avatar-studio-widget{position:fixed}',
      'shell/dist/index.html': '<html>shell</html>',
    });
    const plain = await request(appFor(dir)).get('/widget/widget.css').expect(200);
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(plain.text).toContain('position:fixed');
    const compressed = await request(appFor(dir))
      .get('/widget/widget.js')
      .set('Accept-Encoding', 'br')
      .buffer(true)
      .expect(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    await request(appFor(dir)).get('/widget/missing.js').expect(404);
    await request(appFor(dir)).get('/widget/../shell/dist/index.html').expect(404);
    await request(appFor(dir)).get('/widget/%2e%2e/shell/dist/index.html').expect(404);
  });

  it('says to run the build when the shell is not built', async () => {
    const res = await request(appFor(dir)).get('/').expect(200);
    expect(res.type).toBe('text/plain');
    expect(res.text).toMatch(/npm run build/);
  });

  it('serves the shell at / and for any page a browser opens, without caching index.html', async () => {
    build({ 'shell/dist/index.html': '<html>shell</html>' });
    const root = await request(appFor(dir)).get('/').expect(200);
    expect(root.text).toContain('shell');
    expect(root.headers['cache-control']).toBe('no-cache');
    const deep = await request(appFor(dir)).get('/avatars/12').set('Accept', 'text/html').expect(200);
    expect(deep.text).toContain('shell');
  });

  it('leaves /api, /socket.io and /widget to their own handlers', async () => {
    build({ 'shell/dist/index.html': '<html>shell</html>' });
    const app = appFor(dir);
    await request(app).get('/api/health').expect(200, { status: 'ok' });
    const missing = await request(app).get('/api/nope').set('Accept', 'text/html').expect(404);
    expect(missing.body.code).toBe('not_found');
    await request(app).get('/socket.io/x').set('Accept', 'text/html').expect(404);
    await request(app).get('/widget/x.js').set('Accept', 'text/html').expect(404);
  });

  it('does not answer non-page requests for unknown paths with the shell', async () => {
    build({ 'shell/dist/index.html': '<html>shell</html>' });
    await request(appFor(dir)).get('/missing.js').set('Accept', '*/*').expect(404);
  });

  it('caches hashed assets for a year and revalidates stable names', async () => {
    build({
      'shell/dist/index.html': 'x',
      'shell/dist/main.js': 'main',
      'shell/dist/123.0123abcd.js': 'chunk',
      'customer/dist/remoteEntry.js': 'entry',
      'customer/dist/45.89abcdef.js': 'remote chunk',
    });
    const app = appFor(dir);
    expect((await request(app).get('/123.0123abcd.js').expect(200)).headers['cache-control']).toMatch(
      /immutable/,
    );
    expect((await request(app).get('/main.js').expect(200)).headers['cache-control']).toBe('no-cache');
    const entry = await request(app).get('/remotes/customer/remoteEntry.js').expect(200);
    expect(entry.text).toBe('entry');
    expect(entry.headers['cache-control']).toBe('no-cache');
    const chunk = await request(app).get('/remotes/customer/45.89abcdef.js?v=1').expect(200);
    expect(chunk.headers['cache-control']).toMatch(/max-age=31536000/);
    await request(app).get('/remotes/customer/nope.js').expect(404);
    await request(app).get('/remotes/evil/remoteEntry.js').expect(404);
  });

  it('serves the precompressed build when the browser accepts it', async () => {
    build({
      'shell/dist/index.html': 'x',
      'shell/dist/main.js': 'plain',
      'shell/dist/main.js.br': brotliCompressSync('from the brotli twin'),
      'shell/dist/main.js.gz': 'gzip bytes',
    });
    const app = appFor(dir);
    const br = await request(app).get('/main.js').set('Accept-Encoding', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.text).toBe('from the brotli twin');
    const plain = await request(app).get('/main.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe('plain');
    await request(app).get('/../../etc/passwd').expect(404);
  });

  it('lists only the built remotes in /remotes.json, with the mounts and menus each build published', async () => {
    const customer = {
      mounts: ['/'],
      navigation: [{ labelKey: 'customer:nav', label: { en: 'Chats', es: 'Chats' }, path: '/conversations' }],
    };
    build({
      'customer/dist/remoteEntry.js': 'c',
      'customer/dist/remote-manifest.json': JSON.stringify(customer),
      'org/dist/remoteEntry.js': 'o',
      'org/dist/remote-manifest.json': JSON.stringify({ mounts: ['/organizations'], navigation: [] }),
      // A build without its manifest is not offered: the shell could neither mount nor list it.
      'admin/dist/remoteEntry.js': 'a',
    });
    const res = await request(appFor(dir)).get('/remotes.json').expect(200);
    expect(res.body).toEqual({
      remotes: {
        customer: { entry: '/remotes/customer/remoteEntry.js', ...customer },
        org: { entry: '/remotes/org/remoteEntry.js', mounts: ['/organizations'], navigation: [] },
      },
    });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it("passes a remote's staff audience on to the shell, and nothing else it does not know", async () => {
    build({
      'admin/dist/remoteEntry.js': 'a',
      'admin/dist/remote-manifest.json': JSON.stringify({
        mounts: ['/admin'],
        navigation: [],
        audience: 'staff',
      }),
      'org/dist/remoteEntry.js': 'o',
      'org/dist/remote-manifest.json': JSON.stringify({
        mounts: ['/org'],
        navigation: [],
        audience: 'everyone',
      }),
    });
    const res = await request(appFor(dir)).get('/remotes.json').expect(200);
    expect(res.body.remotes.admin).toEqual({
      entry: '/remotes/admin/remoteEntry.js',
      mounts: ['/admin'],
      navigation: [],
      audience: 'staff',
    });
    expect(res.body.remotes.org).toEqual({
      entry: '/remotes/org/remoteEntry.js',
      mounts: ['/org'],
      navigation: [],
    });
  });
});

describe('web handler: landing pages', () => {
  let dir: string;
  const seen: LandingRequest[] = [];
  const landing: LandingPages = {
    render: async (req, nonce) => {
      seen.push(req);
      if (req.path === '/' && (req.signedInHint || req.temporaryUid)) return null;
      return `<html>landing ${req.path} <script nonce="${nonce}"></script></html>`;
    },
  };

  function app() {
    const server = express();
    server.use(createWebHandler(dir, landing));
    return server;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'web-'));
    mkdirSync(join(dir, 'shell/dist'), { recursive: true });
    writeFileSync(join(dir, 'shell/dist/index.html'), '<html>shell</html>');
    seen.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers / and /latam with the landing page and its own nonce CSP, uncached', async () => {
    const res = await request(app()).get('/').set('Accept', 'text/html').expect(200);
    expect(res.text).toContain('landing /');
    const nonce = /nonce="([^"]+)"/.exec(res.text)![1];
    expect(res.headers['content-security-policy']).toContain(`'nonce-${nonce}' 'strict-dynamic'`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['vary']).toMatch(/Cookie/);
    const other = await request(app()).get('/').expect(200);
    expect(/nonce="([^"]+)"/.exec(other.text)![1]).not.toBe(nonce);
    const latam = await request(app()).get('/latam').set('Accept', 'text/html').expect(200);
    expect(latam.text).toContain('landing /latam');
  });

  it('gives the app to a browser with the signed-in hint or a temporary sign-in uid', async () => {
    const hinted = await request(app()).get('/').set('Cookie', 'theme=x; signed_in=1').expect(200);
    expect(hinted.text).toContain('shell');
    expect(seen[0]).toEqual({ path: '/', signedInHint: true, temporaryUid: false });
    const uid = await request(app()).get('/?uid=abc').expect(200);
    expect(uid.text).toContain('shell');
    const notHint = await request(app()).get('/').set('Cookie', 'not_signed_in=1').expect(200);
    expect(notHint.text).toContain('landing');
  });

  it('gzips the landing page when the browser accepts it, and falls back to the app when rendering fails', async () => {
    const res = await request(app()).get('/').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toContain('landing /');
    const failing = express();
    failing.use(createWebHandler(dir, { render: () => Promise.reject(new Error('db down')) }));
    expect((await request(failing).get('/').expect(200)).text).toContain('shell');
  });
});
