import { JobQueue } from '../src/common/jobs/job-queue';
import { RealtimeService } from '../src/modules/realtime/realtime.service';
import { TcpProxy } from './fakes/tcp-proxy';
import { startTestApp, TEST_REDIS_URL, TestApp, TestUser } from './harness';
import { ClientSocket, userSocket } from './sockets';

/** The app reaches Redis through a proxy that the test cuts. */
describe('Redis unreachable', () => {
  jest.setTimeout(60_000);
  let proxy: TcpProxy;
  let t: TestApp;
  let user: TestUser;
  let socket: ClientSocket;
  const ran: number[] = [];

  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 6379)).start();
    t = await startTestApp({ REDIS_URL: proxy.url(TEST_REDIS_URL) });
    await t.app.listen(0);
    user = await t.createUser();
    t.app.get(JobQueue).register<{ n: number }>('outage-probe', async ({ n }) => {
      ran.push(n);
    });
    socket = await userSocket(t.app, user);
  });
  afterAll(async () => {
    proxy.restore();
    socket?.close();
    await t.close();
    await proxy.stop();
  });

  it('keeps HTTP and this instance’s sockets working, holds jobs, and runs them once Redis is back', async () => {
    proxy.cut();
    const started = Date.now();
    await t.http().get('/api/users').set('Authorization', user.auth).expect(200);

    const health = await t.http().get('/api/health').expect(200);
    expect(health.body).toMatchObject({ status: 'degraded', database: 'up', redis: 'down' });

    const jobs = t.app.get(JobQueue);
    await jobs.add('outage-probe', { n: 1 });
    await jobs.add('outage-probe', { n: 2 });
    expect(jobs.held).toBe(2);
    // Nothing above waited for Redis.
    expect(Date.now() - started).toBeLessThan(5000);

    const received = new Promise((resolve) => socket.once('error', resolve));
    t.app.get(RealtimeService).emitToUser(user.user_id, 'error', { message: 'still delivered' } as never);
    await expect(received).resolves.toMatchObject({ message: 'still delivered' });

    proxy.restore();
    for (let i = 0; i < 100 && ran.length < 2; i++) await new Promise((r) => setTimeout(r, 200));
    expect(ran.sort()).toEqual([1, 2]);
    expect(jobs.held).toBe(0);
    const healthy = await t.http().get('/api/health').expect(200);
    expect(healthy.body).toMatchObject({ status: 'up', redis: 'up' });
  });
});
