import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TransactionStatement } from '../../database/unit-of-work';
import { UsersRepository } from './users.repository';

/**
 * Locks on a user's row for the modules whose records belong to one user (the word ledger), so their changes run
 * one at a time. Apart from UsersService because it needs nothing but the repository: the word ledger reaches it
 * without loading UsersService, which itself depends on the word ledger.
 */
@Injectable()
export class UserLocksService {
  constructor(private readonly users: UsersRepository) {}

  /** Locks the user's row until the transaction `m` ends; false: no such user. */
  lockForUpdate(user_id: number, m: EntityManager): Promise<boolean> {
    return this.users.lockForUpdate(user_id, m);
  }

  /** The same lock as a statement a transaction opens with (UnitOfWork.runBatched); it reads a row when the user exists. */
  lockStatement(user_id: number): TransactionStatement {
    return this.users.lockStatement(user_id);
  }
}
