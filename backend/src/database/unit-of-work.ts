import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Opens a transaction and hands its EntityManager to the work, which passes it explicitly to every repository
 * (its own module's, or another module's through that module's service) that must commit or roll back with it.
 * The one place outside repositories that holds the DataSource, so a transaction is never picked up implicitly.
 */
@Injectable()
export class UnitOfWork {
  constructor(private readonly db: DataSource) {}

  run<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
