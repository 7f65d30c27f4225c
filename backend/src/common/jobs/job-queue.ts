import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { APP_ENV, AppEnv } from '../../config/env';

export type JobHandler<T> = (data: T, attempt: number) => Promise<void>;

export interface JobOptions {
  /** Total tries, the first included. */
  attempts?: number;
  /** First retry delay in ms; doubles each time. */
  backoffMs?: number;
}

export interface QueueStats {
  backend: 'bullmq' | 'in-process';
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

const DEFAULTS: Required<JobOptions> = { attempts: 5, backoffMs: 2000 };

/**
 * Background jobs. With REDIS_URL they go through BullMQ (durable, shared by every instance, workers only
 * where ROLE is worker or all); without it the same interface runs them in this process with the same retries.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  /** BullMQ does not close connections it was given, so we keep and close the workers' own. */
  private readonly workerConnections: IORedis[] = [];
  private readonly connection: IORedis | null;
  private readonly runsWorkers: boolean;
  private readonly local = { waiting: 0, active: 0, failed: 0, completed: 0 };
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.connection = env.redisUrl
      ? new IORedis(env.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false })
      : null;
    this.connection?.on('error', (err) => this.logger.warn(`Redis: ${err.message}`));
    this.runsWorkers = env.role !== 'api';
  }

  get backend(): QueueStats['backend'] {
    return this.connection ? 'bullmq' : 'in-process';
  }

  /** Registers the handler of one job name; call once per name, at module init. */
  register<T>(name: string, handler: JobHandler<T>): void {
    this.handlers.set(name, handler as JobHandler<unknown>);
    if (!this.connection || !this.runsWorkers) return;
    const connection = this.connection.duplicate();
    this.workerConnections.push(connection);
    const worker = new Worker(
      this.queueName(name),
      async (job) => handler(job.data as T, job.attemptsMade + 1),
      { connection, prefix: this.env.redisPrefix, concurrency: 4 },
    );
    worker.on('failed', (job, err) =>
      this.logger.warn(`${name} #${job?.id} failed (try ${job?.attemptsMade}): ${err.message}`),
    );
    worker.on('error', (err) => this.logger.warn(`${name} worker: ${err.message}`));
    this.workers.push(worker);
  }

  async add<T>(name: string, data: T, options: JobOptions = {}): Promise<void> {
    const { attempts, backoffMs } = { ...DEFAULTS, ...options };
    if (this.connection) {
      await this.queue(name).add(name, data, {
        attempts,
        backoff: { type: 'exponential', delay: backoffMs },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      });
      return;
    }
    this.local.waiting++;
    this.runLocal(name, data, 1, attempts, backoffMs, 0);
  }

  async stats(): Promise<QueueStats> {
    if (!this.connection) return { backend: 'in-process', ...this.local };
    const totals = { waiting: 0, active: 0, failed: 0, completed: 0 };
    for (const name of this.handlers.keys()) {
      const counts = await this.queue(name).getJobCounts(
        'waiting',
        'delayed',
        'active',
        'failed',
        'completed',
      );
      totals.waiting += (counts.waiting ?? 0) + (counts.delayed ?? 0);
      totals.active += counts.active ?? 0;
      totals.failed += counts.failed ?? 0;
      totals.completed += counts.completed ?? 0;
    }
    return { backend: 'bullmq', ...totals };
  }

  async ping(): Promise<boolean> {
    if (!this.connection) return true;
    try {
      return (await this.connection.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all(this.workerConnections.map((c) => c.quit().catch(() => undefined)));
    await this.connection?.quit().catch(() => undefined);
  }

  private queueName(name: string): string {
    return name.replace(/[^\w-]/g, '-');
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(this.queueName(name), { connection: this.connection!, prefix: this.env.redisPrefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private runLocal(
    name: string,
    data: unknown,
    attempt: number,
    attempts: number,
    backoffMs: number,
    delay: number,
  ): void {
    const timer = setTimeout(async () => {
      this.timers.delete(timer);
      if (this.closing) return;
      const handler = this.handlers.get(name);
      if (!handler) {
        this.logger.error(`No handler for job ${name}`);
        this.local.waiting--;
        this.local.failed++;
        return;
      }
      this.local.active++;
      try {
        await handler(data, attempt);
        this.local.completed++;
        this.local.waiting--;
      } catch (err) {
        this.logger.warn(`${name} failed (try ${attempt}/${attempts}): ${(err as Error).message}`);
        if (attempt < attempts) {
          this.runLocal(name, data, attempt + 1, attempts, backoffMs, backoffMs * 2 ** (attempt - 1));
        } else {
          this.local.failed++;
          this.local.waiting--;
        }
      } finally {
        this.local.active--;
      }
    }, delay);
    this.timers.add(timer);
  }
}
