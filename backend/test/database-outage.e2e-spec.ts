import { TcpProxy } from './fakes/tcp-proxy';
import { startTestApp, TEST_DATABASE_URL, TestApp, TestUser } from './harness';

/** The app reaches PostgreSQL through a proxy that the tests cut, as a restart or a failover would. */
async function appBehindProxy(extraEnv: Record<string, string> = {}) {
  const target = new URL(TEST_DATABASE_URL);
  const proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
  const t = await startTestApp({ DATABASE_URL: proxy.url(TEST_DATABASE_URL), ...extraEnv });
  return { proxy, t };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a database outage', () => {
  jest.setTimeout(60_000);

  describe('shorter than the retry window (2 s cut, 10 s window)', () => {
    let proxy: TcpProxy;
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      ({ proxy, t } = await appBehindProxy());
      user = await t.createUser();
    });
    afterAll(async () => {
      await t.close();
      await proxy.stop();
    });

    it('makes requests wait and then answer, none failing', async () => {
      proxy.cut();
      const started = Date.now();
      const requests = Array.from({ length: 20 }, () =>
        t.http().get('/api/users').set('Authorization', user.auth),
      );
      setTimeout(() => proxy.restore(), 2000);
      const answers = await Promise.all(requests);
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      expect(answers[0].body.user.user_id).toBe(user.user_id);
    });
  });

  describe('longer than the retry window (8 s cut, 3 s window)', () => {
    let proxy: TcpProxy;
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      ({ proxy, t } = await appBehindProxy({ DATABASE_RETRY_MS: '3000' }));
      user = await t.createUser();
    });
    afterAll(async () => {
      proxy.restore();
      await t.close();
      await proxy.stop();
    });

    it('answers 503 with Retry-After and a clear message (never a 500), says so in health, and recovers', async () => {
      proxy.cut();
      const started = Date.now();
      const [read, write, health, live] = await Promise.all([
        t.http().get('/api/users').set('Authorization', user.auth),
        t.http().put('/api/users').set('Authorization', user.auth).send({ name: 'Changed' }),
        t.http().get('/api/health'),
        t.http().get('/api/health/live'),
      ]);
      for (const res of [read, write]) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toMatchObject({
          statusCode: 503,
          code: 'database_unavailable',
          message: 'The service is briefly unavailable. Please try again in a few seconds.',
        });
      }
      // Bounded: the retry window plus the last attempt, not an indefinite hang.
      expect(Date.now() - started).toBeLessThan(8000);
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'down', database: 'down' });
      expect(live.status).toBe(200);

      await sleep(Math.max(0, 8000 - (Date.now() - started)));
      proxy.restore();
      const after = await t.http().get('/api/users').set('Authorization', user.auth);
      expect(after.status).toBe(200);
      // The refused write left nothing behind.
      expect(after.body.user.name).not.toBe('Changed');
      const healthy = await t.http().get('/api/health').expect(200);
      expect(healthy.body.status).toBe('up');
    });
  });
});
