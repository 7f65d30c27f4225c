import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import IORedis from 'ioredis';
import { APP_ENV, AppEnv } from '../../config/env';

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

/** Counts and starts the window on the first hit, atomically, so every instance shares one count per key. */
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

/** Keys kept in memory at most, so a flood of distinct addresses cannot grow the process without bound. */
const MAX_LOCAL_KEYS = 100_000;

/**
 * Fixed-window counters for rate limits: in Redis when REDIS_URL is set (shared by every instance and kept
 * across restarts), in this process otherwise. When Redis does not answer within half a second the count
 * falls back to this process, so an outage never blocks sign-in.
 */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: IORedis | null;
  private readonly local = new Map<string, { count: number; resetAt: number }>();

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.redis = env.redisUrl
      ? new IORedis(env.redisUrl, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          commandTimeout: 500,
          lazyConnect: false,
        })
      : null;
    this.redis?.on('error', () => undefined);
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    if (this.redis) {
      try {
        const [count, ttl] = (await this.redis.eval(
          HIT_SCRIPT,
          1,
          `${this.env.redisPrefix}:rl:${key}`,
          String(windowMs),
        )) as [number, number];
        return { count, resetMs: ttl };
      } catch (err) {
        this.logger.debug(
          `Redis unavailable for rate limits, counting in this process: ${(err as Error).message}`,
        );
      }
    }
    return this.hitLocal(key, windowMs);
  }

  private hitLocal(key: string, windowMs: number): Hit {
    const now = Date.now();
    let entry = this.local.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.local.size >= MAX_LOCAL_KEYS) this.prune(now);
      entry = { count: 0, resetAt: now + windowMs };
      this.local.set(key, entry);
    }
    entry.count++;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }

  private prune(now: number): void {
    for (const [key, entry] of this.local) if (entry.resetAt <= now) this.local.delete(key);
    // Still full: drop the oldest half (Map keeps insertion order).
    if (this.local.size >= MAX_LOCAL_KEYS) {
      let drop = this.local.size / 2;
      for (const key of this.local.keys()) {
        if (drop-- <= 0) break;
        this.local.delete(key);
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
