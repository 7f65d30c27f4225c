import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import type { StaffRole } from '../../common/auth/permissions';
import { conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { AuditService } from '../audit/audit.service';
import { User } from '../users/user.entity';
import type { StaffDto, StaffListQuery, StaffPageResponse } from './dto/staff.dto';
import { Staff } from './staff.entity';

/** The staff list pages by 10. */
export const STAFF_PAGE_SIZE = 10;

const LAST_ADMIN = 'The last admin cannot be removed or demoted. Make another staff member admin first.';

/**
 * Every change that could lower the number of staff admins (role changes, removals, an admin deleting their own
 * account) takes this transaction-scoped lock first, so two of them never both see "another admin remains".
 */
export async function lockStaffAdmins(tx: EntityManager): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('staff-admins'))`);
}

/**
 * Who works in the back office. Staff rows are re-read by the auth guard on every request, so a role change
 * or removal takes effect at once. There is always at least one admin, or nobody could manage staff again.
 */
@Injectable()
export class StaffService {
  constructor(
    @InjectRepository(Staff) private readonly staff: Repository<Staff>,
    private readonly db: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(query: StaffListQuery): Promise<StaffPageResponse> {
    const page = toPage(query, STAFF_PAGE_SIZE);
    const qb = this.staff
      .createQueryBuilder('s')
      .innerJoinAndSelect('s.user', 'u')
      .orderBy('s.staff_id', 'ASC')
      .skip(page.skip)
      .take(page.limit);
    const text = query.query?.trim();
    if (text) qb.where(`u.email ILIKE :q ESCAPE '\\'`, { q: likePattern(text) });
    const [rows, total] = await qb.getManyAndCount();
    return { staff: rows.map(toDto), total, page: page.page, limit: page.limit };
  }

  /** Makes an existing user staff (POST /staff). */
  async add(email: string, role: StaffRole = 'admin'): Promise<StaffDto> {
    return this.db.transaction(async (tx) => {
      const user = await tx.findOne(User, { where: { email: email.trim().toLowerCase() } });
      if (!user) throw notFound('User', 'user_not_found');
      if (await tx.exists(Staff, { where: { user_id: user.user_id } })) {
        throw conflict('This user is already a staff member.', 'already_staff');
      }
      // Whoever registered an address they do not own must not reach the back office through it.
      if (!user.email_verified_at) {
        throw conflict(
          'This person has not verified their email address yet. Ask them to open the link we emailed them (they can send it again from Settings).',
          'email_not_verified',
        );
      }
      const saved = await tx.save(tx.create(Staff, { user_id: user.user_id, role }));
      saved.user = user;
      await this.audit.record(
        'staff.created',
        { target_user_id: user.user_id, target_type: 'staff', target_id: saved.staff_id, details: { role } },
        tx,
      );
      return toDto(saved);
    });
  }

  /** `actorUserId`: the admin asking, who must still be an admin once the lock is held. */
  async changeRole(staffId: number, role: StaffRole, actorUserId?: number): Promise<StaffDto> {
    return this.db.transaction(async (tx) => {
      const member = await this.lockedMember(tx, staffId, actorUserId);
      if (member.role === 'admin' && role !== 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      if (member.role !== role) {
        const from = member.role;
        member.role = role;
        await tx.update(Staff, { staff_id: member.staff_id }, { role });
        member.updatedAt = new Date();
        await this.audit.record(
          'staff.role_changed',
          {
            target_user_id: member.user_id,
            target_type: 'staff',
            target_id: staffId,
            details: { from, to: role },
          },
          tx,
        );
      }
      return toDto(member);
    });
  }

  async remove(staffId: number, actorUserId?: number): Promise<StaffDto> {
    return this.db.transaction(async (tx) => {
      const member = await this.lockedMember(tx, staffId, actorUserId);
      if (member.role === 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      await tx.delete(Staff, { staff_id: member.staff_id });
      await this.audit.record(
        'staff.removed',
        {
          target_user_id: member.user_id,
          target_type: 'staff',
          target_id: staffId,
          details: { role: member.role },
        },
        tx,
      );
      return toDto(member);
    });
  }

  private async lockedMember(tx: EntityManager, staffId: number, actorUserId?: number): Promise<Staff> {
    // One lock shared with account deletion, then the admin rows in a fixed order: concurrent demotions,
    // removals and deletions take turns, and each sees what the previous one committed.
    await lockStaffAdmins(tx);
    await tx.query(`SELECT staff_id FROM staff WHERE role = 'admin' ORDER BY staff_id FOR UPDATE`);
    if (actorUserId !== undefined) {
      // The guard read the caller's role before the lock; an admin demoted meanwhile may no longer act.
      const [actor]: { role: string }[] = await tx.query(`SELECT role FROM staff WHERE user_id = $1`, [
        actorUserId,
      ]);
      if (actor?.role !== 'admin') throw forbidden();
    }
    const member = await tx
      .getRepository(Staff)
      .createQueryBuilder('s')
      .innerJoinAndSelect('s.user', 'u')
      .where('s.staff_id = :staffId', { staffId })
      .getOne();
    if (!member) throw notFound('Staff member', 'staff_not_found');
    return member;
  }

  private async ensureAnotherAdmin(tx: EntityManager, staffId: number): Promise<void> {
    const others = await tx.count(Staff, { where: { role: 'admin', staff_id: Not(staffId) } });
    if (others === 0) throw conflict(LAST_ADMIN, 'last_admin');
  }
}

function toDto(s: Staff): StaffDto {
  return {
    staff_id: s.staff_id,
    role: s.role,
    user_id: s.user_id,
    user: { name: s.user?.name ?? '', last_name: s.user?.last_name ?? '', email: s.user?.email ?? '' },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
