import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Not, Repository } from 'typeorm';
import { selectColumns } from '../../common/database/select-columns';
import type { StaffRole } from '../../common/auth/permissions';
import { builtRead, type StatementRead } from '../../database/unit-of-work';
import { Staff } from './staff.entity';

/** The staff table: the only code that reads or writes it. */
@Injectable()
export class StaffRepository {
  constructor(@InjectRepository(Staff) private readonly staff: Repository<Staff>) {}

  private repo(tx?: EntityManager): Repository<Staff> {
    return tx ? tx.getRepository(Staff) : this.staff;
  }

  async any(tx?: EntityManager): Promise<boolean> {
    return (await this.repo(tx).count({ take: 1 })) > 0;
  }

  /** Every staff member by staff_id; the back office has a handful, so lists filter and page these in memory. */
  all(): Promise<Staff[]> {
    return this.staff.find({ order: { staff_id: 'ASC' } });
  }

  findById(staff_id: number, tx?: EntityManager): Promise<Staff | null> {
    return this.repo(tx).findOneBy({ staff_id });
  }

  findByUser(user_id: number, tx?: EntityManager): Promise<Staff | null> {
    return this.repo(tx).findOneBy({ user_id });
  }

  async insert(user_id: number, role: StaffRole, tx: EntityManager): Promise<Staff> {
    return this.repo(tx).save(this.repo(tx).create({ user_id, role }));
  }

  async setRole(staff_id: number, role: StaffRole, tx: EntityManager): Promise<void> {
    await this.repo(tx).update({ staff_id }, { role });
  }

  /** Makes the user a staff admin, whether or not they were staff. */
  async upsertAdmin(user_id: number, tx: EntityManager): Promise<void> {
    await this.repo(tx).upsert({ user_id, role: 'admin' }, { conflictPaths: ['user_id'] });
  }

  async delete(staff_id: number, tx: EntityManager): Promise<void> {
    await this.repo(tx).delete({ staff_id });
  }

  async adminsOtherThan(staff_id: number, tx: EntityManager): Promise<number> {
    return this.repo(tx).count({ where: { role: 'admin', staff_id: Not(staff_id) } });
  }

  async adminCount(tx: EntityManager): Promise<number> {
    return this.repo(tx).count({ where: { role: 'admin' } });
  }

  /**
   * Every change that could lower the number of staff admins (role changes, removals, an admin deleting their own
   * account) takes this lock first, then the admin rows in a fixed order, so two of them never both see "another
   * admin remains". An advisory lock has no query-builder form, hence the SQL.
   */
  async lockAdmins(tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('staff-admins'))`);
    await this.repo(tx)
      .createQueryBuilder('s')
      .select('s.staff_id')
      .where(`s.role = 'admin'`)
      .orderBy('s.staff_id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Serializes the first-admin check of instances starting together (advisory lock: no query-builder form). */
  async lockFirstAdmin(tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('first-staff-admin'))`);
  }

  /** The staff rows of these users (the others are customers). */
  byUsers(user_ids: number[]): Promise<Pick<Staff, 'user_id' | 'role'>[]> {
    if (!user_ids.length) return Promise.resolve([]);
    return this.byUsersQuery(user_ids).getRawMany<Pick<Staff, 'user_id' | 'role'>>();
  }

  /** Every staff row's user and role, by user, at most `limit` of them. */
  rolesRead(limit: number): StatementRead<Pick<Staff, 'user_id' | 'role'>[]> {
    return builtRead(
      selectColumns(this.staff.createQueryBuilder('s'), ['user_id', 'role'])
        .orderBy('s.user_id')
        .limit(limit),
      (rows: Pick<Staff, 'user_id' | 'role'>[]) => rows,
    );
  }

  private byUsersQuery(user_ids: number[]) {
    return selectColumns(this.staff.createQueryBuilder('s'), ['user_id', 'role']).where(
      's.user_id = ANY(:ids)',
      {
        ids: [...new Set(user_ids)],
      },
    );
  }
}
