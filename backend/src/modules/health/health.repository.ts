import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The health check's reach into the database: it owns no table, it only asks whether the database answers. */
@Injectable()
export class HealthRepository {
  constructor(private readonly db: DataSource) {}

  /** A bare round trip (no table, so no entity to go through). */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
