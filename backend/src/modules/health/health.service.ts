import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_ENV, AppEnv } from '../../config/env';
import { JobQueue } from '../../common/jobs/job-queue';
import type { HealthReport } from './health.controller';

@Injectable()
export class HealthService {
  constructor(
    private readonly db: DataSource,
    private readonly jobs: JobQueue,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async report(): Promise<HealthReport> {
    const database = await this.db.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
    const redis = this.env.redisUrl
      ? (await this.jobs.ping())
        ? ('up' as const)
        : ('down' as const)
      : ('not_configured' as const);
    const queue = await this.jobs
      .stats()
      .catch(() => ({ backend: this.jobs.backend, waiting: 0, active: 0, failed: 0, completed: 0 }));
    return {
      status: database === 'up' && redis !== 'down' ? 'ok' : 'degraded',
      database,
      database_kind: this.env.databaseUrl ? 'postgresql' : 'embedded',
      redis,
      queue,
      uptime_seconds: Math.round(process.uptime()),
    };
  }
}
