import { forwardRef, Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { StaffRole } from '../../common/auth/permissions';
import { conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { PrincipalCache } from '../../common/auth/principal-cache';
import { AuditService } from '../audit/audit.service';
import { AccessPolicy } from '../organizations/access-policy';
import type { UserName } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import type { StaffDto, StaffListQuery, StaffPageResponse } from './dto/staff.dto';
import type { Staff } from './staff.entity';
import { StaffRepository } from './staff.repository';

/**
 * Types of the services reached through forwardRef (their modules use each other): the constructor names them by
 * alias, so the decorator metadata does not read the classes while the files are still loading each other.
 */
type UsersServiceRef = UsersService;

/** The staff list pages by 10. */
export const STAFF_PAGE_SIZE = 10;

/** Up to this many staff members, a list reads all their roles with its page (everyRoleRead). */
export const STAFF_ROLES_READ_AT_ONCE = 500;

const LAST_ADMIN = 'The last admin cannot be removed or demoted. Make another staff member admin first.';

/**
 * Who works in the back office. A role change or removal takes effect at once: this instance forgets the person's
 * remembered sessions after the commit, and the others hear the database's notification. There is always at least
 * one admin, or nobody could manage staff again.
 */
@Injectable()
export class StaffService {
  constructor(
    private readonly staff: StaffRepository,
    private readonly transactions: UnitOfWork,
    @Inject(forwardRef(() => UsersService)) private readonly users: UsersServiceRef,
    private readonly audit: AuditService,
    private readonly policy: AccessPolicy,
    private readonly principals: PrincipalCache,
  ) {}

  /** The person's role changed: their next request here reads it again. */
  private roleChanged<T>(user_id: number, result: T): T {
    this.principals.forgetUser(user_id);
    return result;
  }

  /** The back office has a handful of staff members: the email search and the paging run over all of them. */
  async list(query: StaffListQuery): Promise<StaffPageResponse> {
    const page = toPage(query, STAFF_PAGE_SIZE);
    const rows = await this.staff.all();
    const names = new Map(
      (await this.users.namesByIds(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]),
    );
    const text = query.query?.trim().toLowerCase();
    const matching = rows.filter((r) => {
      const user = names.get(r.user_id);
      return user && (!text || user.email.toLowerCase().includes(text));
    });
    return {
      staff: matching.slice(page.skip, page.skip + page.limit).map((r) => toDto(r, names.get(r.user_id))),
      total: matching.length,
      page: page.page,
      limit: page.limit,
    };
  }

  /** The user's staff row, or null when they are not staff. */
  memberOf(user_id: number): Promise<Staff | null> {
    return this.staff.findByUser(user_id);
  }

  /** The staff role of each of these users who is staff (the back office's customer list marks them). */
  async rolesOf(user_ids: number[]): Promise<Map<number, StaffRole>> {
    return new Map((await this.staff.byUsers(user_ids)).map((s) => [s.user_id, s.role]));
  }

  /**
   * Every staff member's role, as a read to send with others (UnitOfWork.readTogether), so a list can mark its
   * page's staff without waiting for the page first; null when there are more than `max` staff members (then
   * ask rolesOf for the page's users).
   */
  everyRoleRead(max = STAFF_ROLES_READ_AT_ONCE): StatementRead<Map<number, StaffRole> | null> {
    const read = this.staff.rolesRead(max + 1);
    return {
      statement: read.statement,
      read: (rows) => {
        const staff = read.read(rows);
        return staff.length > max ? null : new Map(staff.map((s) => [s.user_id, s.role]));
      },
    };
  }

  /** The user's staff role, or null when they are not staff. */
  async roleOf(user_id: number, tx?: EntityManager): Promise<StaffRole | null> {
    return (await this.staff.findByUser(user_id, tx))?.role ?? null;
  }

  /**
   * Inside the transaction deleting a user's account: the last staff admin cannot leave the back office without
   * an admin. Takes the admins lock, so concurrent deletions and demotions take turns.
   */
  async assertMayLeave(user_id: number, tx: EntityManager): Promise<void> {
    await this.staff.lockAdmins(tx);
    const role = await this.roleOf(user_id, tx);
    if (role === 'admin' && (await this.staff.adminCount(tx)) <= 1) {
      throw conflict(
        'You are the only staff admin. Make someone else an admin before deleting your account.',
        'last_admin',
      );
    }
  }

  /** Whether any staff member exists (the first-admin check on start). */
  anyStaff(tx?: EntityManager): Promise<boolean> {
    return this.staff.any(tx);
  }

  /** Holds the first-admin decision for this transaction, so instances starting together make one admin. */
  lockFirstAdmin(tx: EntityManager): Promise<void> {
    return this.staff.lockFirstAdmin(tx);
  }

  /** Makes the user a staff admin (the first admin on start). */
  makeAdmin(user_id: number, tx: EntityManager): Promise<void> {
    return this.staff.upsertAdmin(user_id, tx);
  }

  /** Makes an existing user staff (POST /staff). */
  async add(email: string, role: StaffRole = 'admin'): Promise<StaffDto> {
    const changed = await this.transactions.run(async (tx) => {
      const user = await this.users.findByEmail(email);
      if (!user) throw notFound('User', 'user_not_found');
      if (await this.staff.findByUser(user.user_id, tx)) {
        throw conflict('This user is already a staff member.', 'already_staff');
      }
      // Whoever registered an address they do not own must not reach the back office through it.
      if (!user.email_verified_at) {
        throw conflict(
          'This person has not verified their email address yet. Ask them to open the link we emailed them (they can send it again from Settings).',
          'email_not_verified',
        );
      }
      const saved = await this.staff.insert(user.user_id, role, tx);
      await this.audit.record(
        'staff.created',
        { target_user_id: user.user_id, target_type: 'staff', target_id: saved.staff_id, details: { role } },
        tx,
      );
      return toDto(saved, user);
    });
    return this.roleChanged(changed.user_id, changed);
  }

  /** `actorUserId`: the admin asking, who must still be an admin once the lock is held. */
  async changeRole(staffId: number, role: StaffRole, actorUserId?: number): Promise<StaffDto> {
    const changed = await this.transactions.run(async (tx) => {
      const member = await this.lockedMember(tx, staffId, actorUserId);
      if (member.role === 'admin' && role !== 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      if (member.role !== role) {
        const from = member.role;
        member.role = role;
        await this.staff.setRole(member.staff_id, role, tx);
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
      return toDto(member, await this.users.findById(member.user_id));
    });
    return this.roleChanged(changed.user_id, changed);
  }

  async remove(staffId: number, actorUserId?: number): Promise<StaffDto> {
    const changed = await this.transactions.run(async (tx) => {
      const member = await this.lockedMember(tx, staffId, actorUserId);
      if (member.role === 'admin') await this.ensureAnotherAdmin(tx, member.staff_id);
      await this.staff.delete(member.staff_id, tx);
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
      return toDto(member, await this.users.findById(member.user_id));
    });
    return this.roleChanged(changed.user_id, changed);
  }

  private async lockedMember(tx: EntityManager, staffId: number, actorUserId?: number): Promise<Staff> {
    // One lock shared with account deletion, then the admin rows in a fixed order: concurrent demotions,
    // removals and deletions take turns, and each sees what the previous one committed.
    await this.staff.lockAdmins(tx);
    if (actorUserId !== undefined) {
      // The guard read the caller's role before the lock; an admin demoted meanwhile may no longer act.
      const staffRole = await this.roleOf(actorUserId, tx);
      if (!this.policy.allows({ staffRole, orgRole: null }, 'staff.manage')) throw forbidden();
    }
    const member = await this.staff.findById(staffId, tx);
    if (!member) throw notFound('Staff member', 'staff_not_found');
    return member;
  }

  private async ensureAnotherAdmin(tx: EntityManager, staffId: number): Promise<void> {
    const others = await this.staff.adminsOtherThan(staffId, tx);
    if (others === 0) throw conflict(LAST_ADMIN, 'last_admin');
  }
}

function toDto(s: Staff, user: Pick<UserName, 'name' | 'last_name' | 'email'> | null | undefined): StaffDto {
  return {
    staff_id: s.staff_id,
    role: s.role,
    user_id: s.user_id,
    user: { name: user?.name ?? '', last_name: user?.last_name ?? '', email: user?.email ?? '' },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
