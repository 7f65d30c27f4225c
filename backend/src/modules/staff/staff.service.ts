import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import type { StaffRole } from '../../common/auth/permissions';
import { conflict, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { User } from '../users/user.entity';
import type { StaffDto, StaffListQuery, StaffPageResponse } from './dto/staff.dto';
import { Staff } from './staff.entity';

/** 000 §2 /staff: the staff list pages by 10. */
export const STAFF_PAGE_SIZE = 10;

const LAST_ADMIN = 'The last admin cannot be removed or demoted. Make another staff member admin first.';

/**
 * Who works in the back office. Staff rows are re-read by the auth guard on every request, so a role change
 * or removal takes effect at once. There is always at least one admin, or nobody could manage staff again.
 */
@Injectable()
export class StaffService {
  constructor(
    @InjectRepository(Staff) private readonly staff: Repository<Staff>,
    private readonly db: DataSource,
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

  /** Makes an existing user staff (000 §7 POST /staff). */
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
      return toDto(saved);
    });
  }

  async changeRole(staffId: number, role: StaffRole): Promise<StaffDto> {
    return this.db.transaction(async (tx) => {
      const member = await this.lockedMember(tx, staffId);
      if (member.role === 'admin' && role !== 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      if (member.role !== role) {
        member.role = role;
        await tx.update(Staff, { staff_id: member.staff_id }, { role });
        member.updatedAt = new Date();
      }
      return toDto(member);
    });
  }

  async remove(staffId: number): Promise<StaffDto> {
    return this.db.transaction(async (tx) => {
      const member = await this.lockedMember(tx, staffId);
      if (member.role === 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      await tx.delete(Staff, { staff_id: member.staff_id });
      return toDto(member);
    });
  }

  private async lockedMember(tx: EntityManager, staffId: number): Promise<Staff> {
    // Lock every admin row first, in a fixed order, so two requests demoting the last two admins cannot both pass.
    await tx.query(`SELECT staff_id FROM staff WHERE role = 'admin' ORDER BY staff_id FOR UPDATE`);
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
