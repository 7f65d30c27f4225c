import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_ENV, AppEnv } from '../../config/env';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, QueryFailedError, Repository } from 'typeorm';
import { likePattern } from '../../common/http/pagination';
import type { Principal } from '../../common/auth/principal';
import { CurrentPassword } from '../../common/auth/current-password';
import {
  DEFAULT_API_KEY_EXPIRY_DAYS,
  type CustomerSearchField,
  type CustomerSort,
} from '@avatar-studio/contracts';
import type { CreateApiKeyDto } from './dto/reauth.dto';
import {
  badInput,
  conflict,
  DomainError,
  forbidden,
  notFound,
  preconditionFailed,
} from '../../common/errors/domain-error';
import { Staff } from '../staff/staff.entity';
import { RealtimeService } from '../realtime/realtime.service';
import { WordsService } from '../words/words.service';
import { PublicUserDto } from './dto/public-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { hashPassword, randomPassword } from './password';
import {
  generateApiKey,
  isValidPhone,
  maskApiKey,
  normalizeEmail,
  shapePhone,
  USER_MESSAGES,
} from './user-fields';
import { User } from './user.entity';

export interface CreateUserInput {
  name: string;
  last_name?: string;
  email: string;
  phone?: string | null;
  password?: string;
  signup_reason?: string | null;
}

/** Fields of PUT /users that are copied as they are (after validation) onto the user. */
const PLAIN_FIELDS = [
  'name',
  'last_name',
  'company',
  'birthday',
  'lang',
  'zappier_webhook_url',
  'manual_mode',
  'dark_mode',
  'instagram',
  'file',
  'show_video',
] as const;

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Staff) private readonly staff: Repository<Staff>,
    private readonly db: DataSource,
    private readonly words: WordsService,
    private readonly currentPassword: CurrentPassword,
    @Inject(APP_ENV) private readonly env: AppEnv,
    @Optional() private readonly realtime?: RealtimeService,
  ) {}

  /**
   * Creates an account. Without a password a random one is set (the person sets theirs through recovery).
   * The email is stored lowercased and trimmed; the phone as at most 10 digits.
   */
  async createUser(input: CreateUserInput): Promise<User> {
    const email = normalizeEmail(input.email);
    let phone: string | null = null;
    if (input.phone !== undefined && input.phone !== null && input.phone.trim() !== '') {
      if (!isValidPhone(input.phone)) throw badInput(USER_MESSAGES.phone, 'invalid_phone');
      phone = shapePhone(input.phone);
    }
    if (await this.findByEmail(email)) throw emailExists();
    const entity = this.users.create({
      name: input.name.trim(),
      last_name: (input.last_name ?? '').trim(),
      email,
      phone,
      uid: randomUUID(),
      password_hash: await hashPassword(input.password ?? randomPassword()),
      signup_reason: input.signup_reason?.trim() || null,
    });
    try {
      const saved = await this.users.insert(entity);
      const user_id = (saved.identifiers[0] as { user_id: number }).user_id;
      return (await this.users.findOneBy({ user_id }))!;
    } catch (err) {
      // Two sign-ups with the same email at once: the unique index decides, the loser gets the same answer.
      if (err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505') {
        throw emailExists();
      }
      throw err;
    }
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  findById(user_id: number): Promise<User | null> {
    return this.users.findOneBy({ user_id });
  }

  /** The user with the password hash (which is never selected otherwise), for sign-in checks. */
  findWithPasswordHash(where: { email: string } | { user_id: number }): Promise<User | null> {
    return this.users
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where(
        'email' in where ? 'u.email = :email' : 'u.user_id = :user_id',
        'email' in where ? { email: normalizeEmail(where.email) } : where,
      )
      .getOne();
  }

  /**
   * Adds a payment to the user's lifetime value (negative for a refund), in the caller's transaction so the value
   * moves exactly when the payment commits. `cents` are whole cents; `value` is stored in USD.
   */
  async addLifetimeValue(user_id: number, cents: number, manager: EntityManager): Promise<void> {
    if (!cents) return;
    await manager
      .getRepository(User)
      .createQueryBuilder()
      .update()
      .set({ value: () => 'GREATEST(value + :usd, 0)' })
      .setParameter('usd', (cents / 100).toFixed(2))
      .where('user_id = :user_id', { user_id })
      .execute();
  }

  /** Name and email of users by id (for other modules' lists); missing ids are left out. */
  async summaries(
    user_ids: number[],
  ): Promise<Map<number, { user_id: number; name: string; last_name: string; email: string }>> {
    if (!user_ids.length) return new Map();
    const rows = await this.users.find({
      where: { user_id: In([...new Set(user_ids)]) },
      select: { user_id: true, name: true, last_name: true, email: true },
    });
    return new Map(rows.map((u) => [u.user_id, u]));
  }

  /** Ids of users whose name, last name or email contains `text` (at most `limit`, newest first). */
  async searchIds(text: string, limit: number): Promise<number[]> {
    const pattern = likePattern(text.trim().toLowerCase());
    const rows = await this.users
      .createQueryBuilder('u')
      .select('u.user_id', 'user_id')
      .where(
        `(lower(u.name) LIKE :pattern OR lower(u.last_name) LIKE :pattern OR lower(u.email) LIKE :pattern
          OR lower(u.name || ' ' || u.last_name) LIKE :pattern)`,
        { pattern },
      )
      .orderBy('u.user_id', 'DESC')
      .limit(limit)
      .getRawMany<{ user_id: number }>();
    return rows.map((r) => r.user_id);
  }

  async setPasswordHash(user_id: number, password_hash: string): Promise<void> {
    await this.users.update({ user_id }, { password_hash });
  }

  /** Whether the user may generate content: staff always, anyone else while their word ledger allows it. */
  async hasAccess(user_id: number): Promise<boolean> {
    if ((await this.staff.countBy({ user_id })) > 0) return true;
    return this.words.hasAccess(user_id);
  }

  /** The `{ user }` payload of GET /users and of sign-in answers. */
  async toPublicUser(user_id: number): Promise<PublicUserDto> {
    const user = await this.users.findOne({ where: { user_id }, relations: { staff: true } });
    if (!user) throw notFound('User', 'user_not_found');
    return {
      user_id: user.user_id,
      uid: user.uid,
      name: user.name,
      last_name: user.last_name,
      email: user.email,
      phone: user.phone,
      company: user.company,
      lang: user.lang,
      api_key: maskApiKey(user.api_key_last4),
      api_key_expires_at: user.api_key_last4 ? user.api_key_expires_at : null,
      api_key_staff: !!user.api_key_last4 && user.api_key_staff,
      email_verified: user.email_verified_at !== null,
      two_factor_enabled: user.totp_enabled_at !== null,
      two_factor_required: this.twoFactorRequired(user.staff?.role ?? null, user.totp_enabled_at !== null),
      zappier_webhook_url: user.zappier_webhook_url,
      manual_mode: user.manual_mode,
      dark_mode: user.dark_mode,
      has_access: await this.hasAccess(user.user_id),
      staff: user.staff ? { staff_id: user.staff.staff_id, role: user.staff.role } : null,
      default_organization: user.default_organization,
      birthday: user.birthday,
      instagram: user.instagram,
      file: user.file,
      signup_reason: user.signup_reason,
      show_video: user.show_video,
      value: user.value,
      last_used: user.last_used,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    };
  }

  /** PUT /users: saves the caller's own profile and settings. */
  async updateOwn(user_id: number, input: UpdateUserDto): Promise<PublicUserDto> {
    const changes: Partial<User> = {};
    for (const field of PLAIN_FIELDS) {
      if (input[field] !== undefined) (changes as Record<string, unknown>)[field] = input[field];
    }
    if (input.phone !== undefined) changes.phone = input.phone === null ? null : shapePhone(input.phone);
    if (input.default_organization !== undefined) {
      if (input.default_organization !== null) {
        const member = await this.db.query(
          `SELECT 1 FROM user_organizations WHERE user_id = $1 AND organization_id = $2`,
          [user_id, input.default_organization],
        );
        if (member.length === 0) throw notFound('Organization', 'organization_not_found');
      }
      changes.default_organization = input.default_organization;
    }
    if (Object.keys(changes).length > 0) await this.users.update({ user_id }, changes);
    return this.toPublicUser(user_id);
  }

  /**
   * A new personal API key replaces any previous one; the full key is returned this once. It expires after the
   * lifetime chosen, and carries the staff role only when a staff member asks for it.
   */
  async createApiKey(
    principal: Principal,
    input: Pick<CreateApiKeyDto, 'password' | 'expires_in_days' | 'staff'>,
  ): Promise<{ api_key: string; expires_at: Date; staff: boolean }> {
    requireSession(principal);
    if (input.staff && !principal.staffRole) {
      throw forbidden('Only staff members can make a key for staff use.', 'staff_key_not_allowed');
    }
    await this.currentPassword.check(principal.user_id, input.password);
    const days = input.expires_in_days ?? DEFAULT_API_KEY_EXPIRY_DAYS;
    const expires_at = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
    const staff = !!input.staff;
    const { key, hash, last4 } = generateApiKey();
    await this.users.update(
      { user_id: principal.user_id },
      { api_key_hash: hash, api_key_last4: last4, api_key_expires_at: expires_at, api_key_staff: staff },
    );
    return { api_key: key, expires_at, staff };
  }

  async revokeApiKey(principal: Principal): Promise<void> {
    requireSession(principal);
    await this.users.update(
      { user_id: principal.user_id },
      { api_key_hash: null, api_key_last4: null, api_key_expires_at: null, api_key_staff: false },
    );
  }

  /** Staff admins must use two-factor when STAFF_2FA_REQUIRED is on; the principal resolver applies the same rule. */
  private twoFactorRequired(role: string | null, enrolled: boolean): boolean {
    return this.env.staff2faRequired && role === 'admin' && !enrolled;
  }

  /**
   * DELETE /users: the account and everything hanging off it (sessions included, by cascade, so its tokens
   * stop working at once). The last staff admin cannot leave the back office without an admin.
   */
  async deleteOwn(principal: Principal, password: string): Promise<void> {
    requireSession(principal);
    await this.currentPassword.check(principal.user_id, password);
    await this.db.transaction(async (tx) => {
      // Serializes concurrent deletions of admins so two of them cannot both pass the last-admin check.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('staff-admins'))`);
      const [row]: { role: string | null; admins: number }[] = await tx.query(
        `SELECT (SELECT role FROM staff WHERE user_id = $1) AS role,
                (SELECT count(*)::int FROM staff WHERE role = 'admin') AS admins`,
        [principal.user_id],
      );
      if (row.role === 'admin' && row.admins <= 1) {
        throw conflict(
          'You are the only staff admin. Make someone else an admin before deleting your account.',
          'last_admin',
        );
      }
      await tx.query(`DELETE FROM users WHERE user_id = $1`, [principal.user_id]);
    });
    // The sessions went with the account; close its open sockets too (on every instance).
    this.realtime?.disconnectUser(principal.user_id);
  }

  /**
   * The back-office customer list: `text` searched in one field or in all of them (case-insensitive), sorted by a
   * listed column (then by id, so pages never overlap), one page. Staff members are listed too, with their role.
   */
  async adminPage(filter: {
    text?: string;
    field: CustomerSearchField;
    sort: CustomerSort;
    direction: 'asc' | 'desc';
    skip: number;
    limit: number;
  }): Promise<{ rows: User[]; total: number }> {
    const qb = this.users.createQueryBuilder('u').leftJoinAndSelect('u.staff', 'staff');
    const text = filter.text?.trim();
    if (text) {
      const pattern = likePattern(text.toLowerCase());
      const digits = text.replace(/\D/g, '');
      const clauses: Record<Exclude<CustomerSearchField, 'all'>, string> = {
        name: 'lower(u.name) LIKE :pattern',
        last_name: 'lower(u.last_name) LIKE :pattern',
        email: 'lower(u.email) LIKE :pattern',
        phone: digits ? 'u.phone LIKE :phone' : 'false',
      };
      const where =
        filter.field === 'all'
          ? `(${Object.values(clauses).join(' OR ')} OR lower(u.name || ' ' || u.last_name) LIKE :pattern)`
          : clauses[filter.field];
      qb.where(where, { pattern, phone: likePattern(digits) });
    }
    const direction = filter.direction === 'desc' ? 'DESC' : 'ASC';
    qb.orderBy(`u.${filter.sort}`, direction).addOrderBy('u.user_id', direction);
    const [rows, total] = await qb.skip(filter.skip).take(filter.limit).getManyAndCount();
    return { rows, total };
  }

  /** Accounts created in [from, to): how many, and the newest `limit` of them (over the index on createdAt). */
  async signUps(range: { from: Date; to: Date }, limit: number): Promise<{ count: number; rows: User[] }> {
    const qb = this.users
      .createQueryBuilder('u')
      .where('u."createdAt" >= :from AND u."createdAt" < :to', range);
    const [count, rows] = await Promise.all([
      qb.clone().getCount(),
      qb.clone().orderBy('u.createdAt', 'DESC').addOrderBy('u.user_id', 'DESC').limit(limit).getMany(),
    ]);
    return { count, rows };
  }

  /** Staff lookup by email (GET /users/email). */
  async lookupByEmail(email: string): Promise<PublicUserDto> {
    const user = await this.findByEmail(email);
    if (!user) throw new DomainError(404, 'user_not_found', USER_MESSAGES.emailNotFound);
    return this.toPublicUser(user.user_id);
  }

  /** Staff lookup by phone (GET /users/phone); the phone is shaped like stored ones first. */
  async lookupByPhone(phone: string): Promise<PublicUserDto> {
    const [user] = await this.users.find({
      where: { phone: shapePhone(phone) },
      order: { user_id: 'ASC' },
      take: 1,
    });
    if (!user) throw new DomainError(404, 'user_not_found', USER_MESSAGES.phoneNotFound);
    return this.toPublicUser(user.user_id);
  }
}

function emailExists(): DomainError {
  return preconditionFailed(USER_MESSAGES.emailExists, 'email_exists');
}

/** Managing keys and deleting the account need a real sign-in, so a leaked API key cannot do either. */
function requireSession(principal: Principal): void {
  if (principal.via !== 'token') {
    throw forbidden('This needs a signed-in session; an API key cannot do it.', 'session_required');
  }
}
