import { loadEnv } from '../../config/env';
import { JobQueue } from './job-queue';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('JobQueue without Redis', () => {
  const env = loadEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), 'jobs-')) });

  it('retries a failing job with backoff until it succeeds', async () => {
    const queue = new JobQueue(env);
    const tries: number[] = [];
    await new Promise<void>((resolve) => {
      queue.register<{ n: number }>('flaky', async (_data, attempt) => {
        tries.push(attempt);
        if (attempt < 3) throw new Error('not yet');
        resolve();
      });
      void queue.add('flaky', { n: 1 }, { attempts: 5, backoffMs: 5 });
    });
    expect(tries).toEqual([1, 2, 3]);
    await new Promise((r) => setTimeout(r, 5));
    expect(await queue.stats()).toMatchObject({ backend: 'in-process', completed: 1, failed: 0, waiting: 0 });
    await queue.onApplicationShutdown();
  });

  it('gives up after the last attempt and counts the failure', async () => {
    const queue = new JobQueue(env);
    let calls = 0;
    queue.register('broken', async () => {
      calls++;
      throw new Error('down');
    });
    await queue.add('broken', {}, { attempts: 2, backoffMs: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(2);
    expect((await queue.stats()).failed).toBe(1);
    await queue.onApplicationShutdown();
  });

  it('counts the failures of each job name, every registered name listed', async () => {
    const queue = new JobQueue(env);
    queue.register('broken', async () => {
      throw new Error('down');
    });
    queue.register('fine', async () => undefined);
    await queue.add('broken', {}, { attempts: 1, backoffMs: 1 });
    await queue.add('broken', {}, { attempts: 2, backoffMs: 1 });
    await queue.add('fine', {});
    await new Promise((r) => setTimeout(r, 50));
    expect(await queue.failedByQueue()).toEqual([
      { queue: 'broken', failed: 2 },
      { queue: 'fine', failed: 0 },
    ]);
    await queue.onApplicationShutdown();
  });
});
