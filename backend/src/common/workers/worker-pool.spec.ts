import { DomainError } from '../errors/domain-error';
import { WorkerPool, WorkerTaskFailed, workerTask } from './worker-pool';

const SPIN = workerTask(`${__dirname}/testing/x${__filename.slice(-3)}`, 'spin.worker');

describe('WorkerPool', () => {
  let pool: WorkerPool;
  beforeEach(() => {
    pool = WorkerPool.create({ size: 1, queueLimit: 1 });
  });
  afterEach(() => pool.close());

  it('runs a task off the main thread: timers keep firing while the task is busy', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await pool.run(SPIN, { ms: 50 }, { timeoutMs: 60_000 }); // thread started
      const started = Date.now();
      expect(await pool.run(SPIN, { ms: 1500 }, { timeoutMs: 60_000 })).toBe(1500);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
      expect(ticks).toBeGreaterThan(10);
    } finally {
      clearInterval(timer);
    }
  }, 60_000);

  it('refuses a task with 503 server_busy and Retry-After when every thread is busy and the queue is full', async () => {
    const running = pool.run(SPIN, { ms: 1000 }, { timeoutMs: 60_000 });
    const queued = pool.run(SPIN, { ms: 10 }, { timeoutMs: 60_000 });
    expect(pool.load).toEqual({ running: 1, queued: 1, size: 1 });
    const refused = await pool.run(SPIN, { ms: 10 }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 503, code: 'server_busy', retryAfterSeconds: 5 });
    expect((refused as Error).message).toMatch(/busy/);
    await expect(running).resolves.toBe(1000);
    await expect(queued).resolves.toBe(10);
    await expect(pool.run(SPIN, { ms: 1 }, { timeoutMs: 60_000 })).resolves.toBe(1);
  }, 60_000);

  it('stops a task past its time limit, and the pool goes on with a new thread', async () => {
    const failed = await pool.run(SPIN, { ms: 20_000 }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkerTaskFailed);
    expect(failed).toMatchObject({ reason: 'timeout' });
    await expect(pool.run(SPIN, { ms: 1 }, { timeoutMs: 60_000 })).resolves.toBe(1);
  }, 60_000);
});
