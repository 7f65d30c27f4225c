import { Inject, Injectable } from '@nestjs/common';
import { APP_ENV, AppEnv } from '../../config/env';
import { JobQueue } from '../../common/jobs/job-queue';
import type { HealthReport } from './health.controller';
import { HealthRepository } from './health.repository';

/** How long the health check waits for the database before calling it down. */
const DATABASE_PROBE_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    private readonly db: HealthRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async report(): Promise<HealthReport> {
    // Bounded: a request waits out a short database outage, a load balancer's probe must not.
    let timer: NodeJS.Timeout | undefined;
    const database = await Promise.race([
      this.db.ping().then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      new Promise<'down'>((resolve) => (timer = setTimeout(() => resolve('down'), DATABASE_PROBE_MS))),
    ]).finally(() => clearTimeout(timer));
    const redis = this.env.redisUrl
      ? (await this.jobs.ping())
        ? ('up' as const)
        : ('down' as const)
      : ('not_configured' as const);
    const queue = await this.jobs
      .stats()
      .catch(() => ({ backend: this.jobs.backend, waiting: 0, active: 0, failed: 0, completed: 0 }));
    return {
      status: database === 'down' ? 'down' : redis === 'down' ? 'degraded' : 'up',
      database,
      database_kind: this.env.databaseUrl ? 'postgresql' : 'embedded',
      redis,
      queue,
      uptime_seconds: Math.round(process.uptime()),
    };
  }
}
