import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { APP_ENV, AppEnv } from '../../config/env';
import { DomainError } from '../errors/domain-error';

export type JobHandler<T> = (data: T, attempt: number) => Promise<void>;

export interface JobOptions {
  /** Total tries, the first included. */
  attempts?: number;
  /** First retry delay in ms; doubles each time. */
  backoffMs?: number;
}

export interface WorkerOptions {
  /**
   * How long a job's lock holds without renewal (the worker renews it while it runs): after a worker dies, its
   * job is taken up again by another worker (or the restarted one) within about this time. Default 30 s.
   */
  lockDurationMs?: number;
}

export interface QueueStats {
  backend: 'bullmq' | 'in-process';
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

const DEFAULTS: Required<JobOptions> = { attempts: 5, backoffMs: 2000 };
/** Jobs held in memory while Redis is unreachable; past this, adding a job answers 503. */
const OUTBOX_LIMIT = 10_000;
/** How long a health probe waits for Redis. */
const PROBE_MS = 1000;
/**
 * How long an idle worker's blocking read for the next job lasts before it is sent again (BullMQ's drainDelay,
 * 5 s by default). A new job wakes the read at once whatever this is, so it only sets how often an idle
 * instance wakes: as long as BullMQ lets a read block (10 s).
 */
const WORKER_IDLE_WAIT_S = 10;

interface HeldJob {
  name: string;
  data: unknown;
  options: JobOptions;
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(timer));
}

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
  /** In-process jobs that failed their last try, per job name. */
  private readonly localFailed = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;
  /** Jobs added while Redis was unreachable, sent in order once it is back. */
  private readonly outbox: HeldJob[] = [];
  private flushing = false;

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.connection = env.redisUrl
      ? new IORedis(env.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false })
      : null;
    this.connection?.on('error', (err) => this.logger.warn(`Redis: ${err.message}`));
    this.connection?.on('ready', () => void this.flushOutbox());
    this.runsWorkers = env.role !== 'api';
  }

  get backend(): QueueStats['backend'] {
    return this.connection ? 'bullmq' : 'in-process';
  }

  /** Registers the handler of one job name; call once per name, at module init. */
  register<T>(name: string, handler: JobHandler<T>, options: WorkerOptions = {}): void {
    this.handlers.set(name, handler as JobHandler<unknown>);
    if (!this.connection || !this.runsWorkers) return;
    const connection = this.connection.duplicate();
    this.workerConnections.push(connection);
    const worker = new Worker(
      this.queueName(name),
      async (job) => handler(job.data as T, job.attemptsMade + 1),
      {
        connection,
        prefix: this.env.redisPrefix,
        concurrency: 4,
        drainDelay: WORKER_IDLE_WAIT_S,
        ...(options.lockDurationMs
          ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }
          : {}),
      },
    );
    worker.on('failed', (job, err) =>
      this.logger.warn(`${name} #${job?.id} failed (try ${job?.attemptsMade}): ${err.message}`),
    );
    worker.on('error', (err) => this.logger.warn(`${name} worker: ${err.message}`));
    this.workers.push(worker);
  }

  /**
   * Queues a job. While Redis is unreachable the job waits in this process and goes to Redis when it is back, so
   * the request that adds it is not held up (a crash of this process meanwhile loses the jobs it held).
   */
  async add<T>(name: string, data: T, options: JobOptions = {}): Promise<void> {
    if (this.connection) {
      if (this.connection.status !== 'ready' || this.outbox.length) {
        this.hold({ name, data, options });
        return;
      }
      await this.enqueue({ name, data, options });
      return;
    }
    const { attempts, backoffMs } = { ...DEFAULTS, ...options };
    this.local.waiting++;
    this.runLocal(name, data, 1, attempts, backoffMs, 0);
  }

  private async enqueue({ name, data, options }: HeldJob): Promise<void> {
    const { attempts, backoffMs } = { ...DEFAULTS, ...options };
    await this.queue(name).add(name, data, {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
  }

  private hold(job: HeldJob): void {
    if (this.outbox.length >= OUTBOX_LIMIT) {
      throw new DomainError(
        503,
        'jobs_unavailable',
        'The service is briefly unavailable. Please try again in a few seconds.',
      );
    }
    if (this.outbox.length === 0) this.logger.warn('Redis is unreachable: holding jobs until it is back');
    this.outbox.push(job);
  }

  private async flushOutbox(): Promise<void> {
    if (this.flushing || !this.connection) return;
    this.flushing = true;
    try {
      let sent = 0;
      while (this.outbox.length && this.connection.status === 'ready' && !this.closing) {
        await this.enqueue(this.outbox[0]);
        this.outbox.shift();
        sent++;
      }
      if (sent) this.logger.log(`Redis is back: queued ${sent} held job(s)`);
    } catch (err) {
      this.logger.warn(`Held jobs not queued yet: ${(err as Error).message}`);
    } finally {
      this.flushing = false;
    }
  }

  /** Jobs waiting in this process for Redis. */
  get held(): number {
    return this.outbox.length;
  }

  async stats(): Promise<QueueStats> {
    if (!this.connection) return { backend: 'in-process', ...this.local };
    const unknown: QueueStats = {
      backend: 'bullmq',
      waiting: this.outbox.length,
      active: 0,
      failed: 0,
      completed: 0,
    };
    if (this.connection.status !== 'ready') return unknown;
    return withTimeout(this.countJobs(), PROBE_MS, unknown);
  }

  private async countJobs(): Promise<QueueStats> {
    const totals = { waiting: this.outbox.length, active: 0, failed: 0, completed: 0 };
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

  /**
   * Jobs that failed their last try and are still kept (BullMQ keeps the newest 5,000 per queue), per job name
   * registered here, every name listed; null when Redis does not answer in time.
   */
  async failedByQueue(): Promise<{ queue: string; failed: number }[] | null> {
    const names = [...this.handlers.keys()].sort();
    if (!this.connection) return names.map((queue) => ({ queue, failed: this.localFailed.get(queue) ?? 0 }));
    if (this.connection.status !== 'ready') return null;
    const counts = Promise.all(
      names.map(async (queue) => ({
        queue,
        failed: (await this.queue(queue).getJobCounts('failed')).failed ?? 0,
      })),
    );
    return withTimeout<{ queue: string; failed: number }[] | null>(counts, PROBE_MS, null);
  }

  async ping(): Promise<boolean> {
    if (!this.connection) return true;
    try {
      // Commands wait for a reconnect; a probe must answer at once.
      if (this.connection.status !== 'ready') return false;
      return (await withTimeout(this.connection.ping(), PROBE_MS, 'TIMEOUT')) === 'PONG';
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
          this.localFailed.set(name, (this.localFailed.get(name) ?? 0) + 1);
          this.local.waiting--;
        }
      } finally {
        this.local.active--;
      }
    }, delay);
    this.timers.add(timer);
  }
}
