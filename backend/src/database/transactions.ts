import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Starts database transactions for services, which pass the EntityManager it hands them to the repositories
 * explicitly; services never hold the DataSource themselves, so only repositories reach the database.
 */
@Injectable()
export class Transactions {
  constructor(private readonly db: DataSource) {}

  run<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
