import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { dirname, extname, join } from 'node:path';
import { Piscina } from 'piscina';
import { APP_ENV, type AppEnv } from '../../config/env';
import { serverBusy } from '../errors/domain-error';

/** Heap cap of one pool thread: real documents and exports stay far below, PDF and zip bombs do not. */
export const WORKER_MAX_HEAP_MB = 512;
/** Seconds a client is told to wait when the pool's queue is full. */
export const POOL_BUSY_RETRY_SECONDS = 5;

export interface WorkerPoolOptions {
  size: number;
  queueLimit: number;
}

/** A task of the pool failed inside its thread: it threw, ran out of time or memory, or its thread died. */
export class WorkerTaskFailed extends Error {
  constructor(
    message: string,
    readonly reason: 'error' | 'timeout',
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** The task's thread is stopped after this long. */
  timeoutMs: number;
  /** Buffers handed over to the thread (no copy; unusable here afterwards). */
  transfer?: ArrayBuffer[];
}

/**
 * The one bounded pool of threads for CPU-heavy work on user content (document parsing, text clean-up, PDF and
 * Word rendering), so that no such work runs on the event loop. Each module keeps its task in its own
 * `*.worker.ts` file, whose default export takes and returns structured-clonable values. At most `size` tasks
 * run at once and `queueLimit` wait; beyond that a task is refused with 503 rather than queued without end.
 * Each thread has a heap cap and each task a time limit (the thread is then ended and replaced).
 */
@Injectable()
export class WorkerPool implements OnApplicationShutdown {
  private readonly logger = new Logger('WorkerPool');
  private readonly piscina: Piscina;
  private readonly size: number;
  private readonly queueLimit: number;
  /** Tasks accepted and not finished (running or waiting). */
  private active = 0;
  private closed = false;

  constructor(@Inject(APP_ENV) env: Pick<AppEnv, 'workerPoolSize' | 'workerQueueLimit'>) {
    this.size = env.workerPoolSize;
    this.queueLimit = env.workerQueueLimit;
    this.piscina = createPiscina({ size: this.size, queueLimit: this.queueLimit });
  }

  static create(options: WorkerPoolOptions): WorkerPool {
    return new WorkerPool({ workerPoolSize: options.size, workerQueueLimit: options.queueLimit });
  }

  /** Tasks running and waiting, and the number of threads. */
  get load(): { running: number; queued: number; size: number } {
    return {
      running: Math.min(this.active, this.size),
      queued: Math.max(0, this.active - this.size),
      size: this.size,
    };
  }

  /**
   * Runs the default export of `taskFile` (a path made by `workerTask`) with `input` in a pool thread.
   * Throws 503 (server_busy) when the queue is full, WorkerTaskFailed when the task fails.
   */
  async run<I, O>(taskFile: string, input: I, options: RunOptions): Promise<O> {
    if (this.closed) throw new WorkerTaskFailed('The worker pool is closed.', 'error');
    if (this.active >= this.size + this.queueLimit) throw busy();
    this.active++;
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      return (await this.piscina.run(input, {
        filename: taskFile,
        signal,
        transferList: options.transfer,
      })) as O;
    } catch (err) {
      if (signal.aborted) throw new WorkerTaskFailed('The task took too long.', 'timeout');
      const message = err instanceof Error ? err.message : String(err);
      if (/queue is at limit/i.test(message)) throw busy();
      // Also the heap cap (ERR_WORKER_OUT_OF_MEMORY) and a thread that exited.
      throw new WorkerTaskFailed(message, 'error');
    } finally {
      this.active--;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy().catch((err: unknown) => this.logger.warn(`Closing: ${String(err)}`));
  }
}

function busy() {
  return serverBusy(
    'The server is busy reading and exporting documents. Please try again in a few seconds.',
    POOL_BUSY_RETRY_SECONDS,
  );
}

/**
 * The path of a module's task file beside `fromFile` (its own `__filename`): `.js` once built, `.ts` in tests,
 * where the thread compiles it with the same SWC the tests use.
 */
export function workerTask(fromFile: string, baseName: string): string {
  return join(dirname(fromFile), baseName + (extname(fromFile) === '.ts' ? '.ts' : '.js'));
}

function createPiscina({ size, queueLimit }: WorkerPoolOptions): Piscina {
  const fromSource = extname(__filename) === '.ts';
  return new Piscina({
    minThreads: 0,
    maxThreads: size,
    // run() refuses first; this is the same bound, as a backstop.
    maxQueue: queueLimit + size,
    idleTimeout: 30_000,
    concurrentTasksPerWorker: 1,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MAX_HEAP_MB },
    execArgv: fromSource ? ['--require', '@swc-node/register'] : [],
  });
}
