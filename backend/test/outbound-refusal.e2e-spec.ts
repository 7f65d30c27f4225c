import { Logger } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretBox } from '../src/common/crypto/secret-box';
import { OutboundBlockedError, OutboundPolicy } from '../src/common/outbound/address-policy';
import { OutboundClient, OutboundError, OutboundHttp } from '../src/common/outbound/outbound-http';
import { PNG } from '../src/modules/files/testing/sample-files';
import { SEARCH_REFUSED_MESSAGE } from '../src/modules/search/search.service';
import type { TestUser } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

/** A local server that counts the requests it gets and answers each with `handler` (200 `{"results":[]}` by default). */
async function startTarget(
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}'),
): Promise<{ url: string; port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('Outbound requests to configured URLs, without an allow-list', () => {
  let k: MessagesKit;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let admin: TestUser;
  let http: OutboundHttp;

  beforeAll(async () => {
    target = await startTarget();
    k = await startMessagesKit({ OUTBOUND_ALLOW: '', SEARCH_URL: target.url, S3_ENDPOINT: target.url });
    admin = await k.t.createUser({ staff: 'admin' });
    http = k.t.app.get(OutboundHttp);
  });
  afterEach(() => k.disconnectAll());
  afterAll(async () => {
    await k.close();
    await target.close();
  });
  beforeEach(() => {
    target.hits.length = 0;
  });

  const privateUrls = (port: number): [string, string, RegExp][] => [
    ['loopback 127.0.0.1', `http://127.0.0.1:${port}/`, /loopback/],
    ['a 10.x address', 'http://10.1.2.3/hook', /private/],
    ['the link-local metadata address 169.254.169.254', 'http://169.254.169.254/latest/', /linkLocal/],
    ['IPv6 loopback [::1]', `http://[::1]:${port}/`, /loopback/],
    ['IPv4-mapped loopback [::ffff:127.0.0.1]', `http://[::ffff:127.0.0.1]:${port}/`, /loopback/],
    ['a host name resolving to 127.0.0.1 (localhost)', `http://localhost:${port}/`, /loopback/],
    ['loopback written as a number', `http://2130706433:${port}/`, /loopback/],
    ['the unspecified address 0.0.0.0', `http://0.0.0.0:${port}/`, /unspecified/],
    ['a unique-local IPv6 address', 'http://[fd12:3456::1]/', /uniqueLocal/],
  ];

  it('refuses every private, loopback, link-local and unspecified address, before connecting', async () => {
    for (const [name, url, range] of privateUrls(target.port)) {
      const refused = await http.request(url).then(
        () => null,
        (err: unknown) => err,
      );
      expect([name, refused instanceof OutboundBlockedError]).toEqual([name, true]);
      expect((refused as Error).message).toMatch(range);
      expect((refused as Error).message).toMatch(/OUTBOUND_ALLOW/);
      await expect(http.checkUrl(url)).rejects.toBeInstanceOf(OutboundBlockedError);
    }
    expect(target.hits).toEqual([]);
  });

  it('refuses a redirect from an allowed host to a private address, and follows one to an allowed address', async () => {
    const client = new OutboundClient(new OutboundPolicy(['127.0.0.1']));
    const ok = await client.request(target.url);
    expect(ok.status).toBe(200);
    for (const to of [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${target.port}/`,
    ]) {
      const redirector = await startTarget((_req, res) => res.writeHead(302, { location: to }).end());
      try {
        await expect(client.request(`${redirector.url}/start`)).rejects.toBeInstanceOf(OutboundBlockedError);
        expect(redirector.hits).toEqual(['/start']);
      } finally {
        await redirector.close();
      }
    }
    const hop = await startTarget((_req, res) =>
      res.writeHead(307, { location: `${target.url}/landed` }).end(),
    );
    try {
      const landed = await client.request(`${hop.url}/go`);
      expect(landed).toMatchObject({ status: 200, url: `${target.url}/landed` });
    } finally {
      await hop.close();
    }
  });

  it('bounds redirects, answer size and time', async () => {
    const client = new OutboundClient(new OutboundPolicy(['127.0.0.1']));
    const loop = await startTarget((req, res) => res.writeHead(302, { location: `/again${req.url}` }).end());
    const big = await startTarget((_req, res) => res.writeHead(200).end(Buffer.alloc(64 * 1024, 'a')));
    const silent = await startTarget(() => undefined);
    try {
      await expect(client.request(loop.url, { maxRedirects: 3 })).rejects.toMatchObject({
        reason: 'redirects',
      });
      expect(loop.hits).toHaveLength(4);
      await expect(client.request(big.url, { maxBytes: 1024 })).rejects.toMatchObject({
        reason: 'too_large',
      });
      const started = Date.now();
      const late = await client.request(silent.url, { timeoutMs: 300 }).catch((err: unknown) => err);
      expect(late).toBeInstanceOf(OutboundError);
      expect(late).toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started).toBeLessThan(3000);
      await expect(client.request('file:///etc/passwd')).rejects.toMatchObject({ reason: 'bad_url' });
    } finally {
      await Promise.all([loop.close(), big.close(), silent.close()]);
    }
  });

  it('refuses to save a search, webhook or S3 URL that leads to a private address, with a clear 400', async () => {
    const keys = [
      'search_url',
      'welcome_email_webhook_url',
      'reset_password_email_webhook_url',
      'S3_ENDPOINT',
    ];
    for (const key of keys) {
      for (const [, url, range] of privateUrls(target.port)) {
        const res = await k.t
          .http()
          .put('/api/appconfig')
          .set('Authorization', admin.auth)
          .send({ password: admin.password, config: [{ key, value: url }] });
        expect([key, url, res.status, res.body.code]).toEqual([key, url, 400, 'invalid_config_value']);
        expect(res.body.message).toMatch(range);
        expect(res.body.message).toContain(key);
      }
    }
    // A public address is accepted (a literal, so the test needs no DNS).
    await k.t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        password: admin.password,
        config: [{ key: 'welcome_email_webhook_url', value: 'https://93.184.215.14/hook' }],
      })
      .expect(200);
    expect(target.hits).toEqual([]);
  });

  it('reports web search at a private address as a failed search (502), never asking it or charging', async () => {
    await k.t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({ config: [{ key: 'search_enabled', value: 'true' }] })
      .expect(200);
    const user = await k.customer();
    const conversationId = await k.conversation(user);
    const { events } = await k.listen(user);
    await k
      .post(user, '/api/messages', { conversation_id: conversationId, content: 'Hi', searchOnInternet: true })
      .expect(201);
    const error = await waitFor(() => events.find((e) => e.event === 'error'));
    expect(error.payload).toEqual({ statusCode: 502, message: SEARCH_REFUSED_MESSAGE });
    expect(target.hits).toEqual([]);
    expect(k.fake.requests).toHaveLength(0);
    expect(await k.balance(user)).toBe(1000);
  });

  it('does not post an email to a webhook at a private address: the send fails cleanly, once, and says why', async () => {
    // As if saved before this rule existed: written straight into the table, encrypted like any secret.
    const box = new SecretBox(k.t.env.appSecret);
    await k.t.db.query(`UPDATE app_config SET value = $1 WHERE key = 'reset_password_email_webhook_url'`, [
      box.encrypt(`${target.url}/reset`),
    ]);
    const user = await k.customer();
    const warned: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warned.push(String(message));
    });
    try {
      await k.t.http().post('/api/auth/recovery').send({ email: user.email }).expect(200);
      await waitFor(() => warned.find((m) => m.includes(user.email)), 10_000);
      await sleep(300);
    } finally {
      spy.mockRestore();
    }
    const notSent = warned.filter((m) => m.includes(user.email));
    expect(notSent).toHaveLength(1);
    expect(notSent[0]).toMatch(/reset_password email to .* was not sent: .*loopback/);
    expect(notSent[0]).not.toMatch(/token|reset-password/);
    expect(target.hits).toEqual([]);
    // The encrypted link is gone with the failed send.
    expect(await k.t.db.query(`SELECT id FROM mail_secrets`)).toEqual([]);
  });

  it('refuses an S3 endpoint at a private address: uploads answer 502, the bucket is never asked', async () => {
    await k.t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        config: [
          { key: 'bucket', value: 'media' },
          { key: 'region', value: 'us-east-1' },
        ],
      })
      .expect(200);
    const user = await k.customer();
    const res = await k.t
      .http()
      .post('/api/files')
      .set('Authorization', user.auth)
      .attach('file', PNG, 'x.png')
      .expect(502);
    expect(res.body.message).toBe(
      'File storage is not available: an admin must check the S3 endpoint setting.',
    );
    expect(target.hits).toEqual([]);
  });
});
