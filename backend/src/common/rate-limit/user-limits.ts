import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import IORedis from 'ioredis';
import { APP_ENV, type AppEnv } from '../../config/env';
import { tooManyRequests } from '../errors/domain-error';

/** What is counted per user and minute. */
export type UserLimitKind = 'upload' | 'export';

const WINDOW_MS = 60_000;
/** Seconds a caller at their concurrency cap is told to wait. */
export const BUSY_RETRY_SECONDS = 5;
/** A slot left by an instance that died mid-request is forgotten after this long without use. */
const SLOT_TTL_MS = 15 * 60_000;
/** A Redis call slower than this is given up, and the limit is counted in this process instead. */
const REDIS_TIMEOUT_MS = 500;

const WHAT: Record<UserLimitKind, string> = { upload: 'uploads', export: 'exports' };

// Fixed window: the first hit of a window sets its expiry; answers the count and the milliseconds left.
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;
const ACQUIRE = `
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if n > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]); return 0 end
return 1`;
const RELEASE = `
local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n`;

/**
 * Per-user limits on heavy work outside sign-in: so many uploads and exports a minute (fixed window), and so
 * many of them (uploads, document reads, exports) at once. Counted in Redis when REDIS_URL is set, so they
 * hold across instances; in this process otherwise, or while Redis does not answer (a user is never refused
 * because Redis is down). Over a limit: 429 with Retry-After.
 */
@Injectable()
export class UserLimits implements OnApplicationShutdown {
  private readonly logger = new Logger('UserLimits');
  private readonly redis: IORedis | null;
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly running = new Map<number, number>();

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.redis = env.redisUrl
      ? new IORedis(env.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
      : null;
    this.redis?.on('error', (err) => this.logger.debug(`Redis: ${err.message}`));
  }

  private perMinute(kind: UserLimitKind): number {
    return kind === 'upload' ? this.env.uploadRateLimitPerMinute : this.env.exportRateLimitPerMinute;
  }

  /** Counts one `kind` for the user; 429 when that makes more than the per-minute limit. */
  async hit(kind: UserLimitKind, userId: number): Promise<void> {
    const key = `${this.env.redisPrefix}:limits:${kind}:${userId}`;
    const remote = await this.redisCall<[number, number]>(
      () => this.redis!.eval(HIT, 1, key, WINDOW_MS) as Promise<[number, number]>,
    );
    const [count, msLeft] = remote ?? this.hitLocal(key);
    if (count > this.perMinute(kind)) {
      const seconds = Math.ceil(msLeft / 1000);
      throw tooManyRequests(
        `Too many ${WHAT[kind]} in a minute (at most ${this.perMinute(kind)}). Please try again in ${seconds} seconds.`,
        seconds,
      );
    }
  }

  /**
   * Takes one of the user's slots for heavy work; 429 when all are taken. Answers the function that gives
   * it back (call it once, when the work is over).
   */
  async acquire(userId: number): Promise<() => Promise<void>> {
    const cap = this.env.heavyTasksPerUser;
    const key = `${this.env.redisPrefix}:limits:running:${userId}`;
    const remote = await this.redisCall<number>(
      () => this.redis!.eval(ACQUIRE, 1, key, cap, SLOT_TTL_MS) as Promise<number>,
    );
    if (remote !== null) {
      if (remote === 0) throw this.busy(cap);
      return async () => {
        await this.redisCall(() => this.redis!.eval(RELEASE, 1, key) as Promise<number>);
      };
    }
    const now = this.running.get(userId) ?? 0;
    if (now >= cap) throw this.busy(cap);
    this.running.set(userId, now + 1);
    return () => {
      const left = (this.running.get(userId) ?? 1) - 1;
      if (left > 0) this.running.set(userId, left);
      else this.running.delete(userId);
      return Promise.resolve();
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
  }

  private busy(cap: number) {
    return tooManyRequests(
      `You already have ${cap} uploads or exports in progress. Please wait for one to finish and try again.`,
      BUSY_RETRY_SECONDS,
    );
  }

  private hitLocal(key: string): [number, number] {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      // Forget ended windows now and then, so the map stays as small as the users of the last minute.
      if (this.windows.size > 10_000)
        for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count++;
    return [window.count, window.resetAt - now];
  }

  /** The call's answer, or null without Redis or when it fails or is slow. */
  private async redisCall<T>(call: () => Promise<T>): Promise<T | null> {
    if (!this.redis || this.redis.status !== 'ready') return null;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call(),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REDIS_TIMEOUT_MS))),
      ]);
    } catch (err) {
      this.logger.warn(`Redis limit check failed, counting in this process: ${String(err)}`);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
