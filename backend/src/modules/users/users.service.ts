import { forwardRef, Inject, Injectable, Optional } from '@nestjs/common';
import { APP_ENV, AppEnv } from '../../config/env';
import { randomUUID } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { PrincipalCache } from '../../common/auth/principal-cache';
import type { Page } from '../../common/http/pagination';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { DEFAULT_API_KEY_EXPIRY_DAYS, type CustomerSearchField } from '@avatar-studio/contracts';
import type { CreateApiKeyDto } from './dto/reauth.dto';
import {
  badInput,
  DomainError,
  forbidden,
  notFound,
  preconditionFailed,
} from '../../common/errors/domain-error';
import { FilesService } from '../files/files.service';
import { AccessPolicy } from '../organizations/access-policy';
import { OrganizationsService } from '../organizations/organizations.service';
import { StaffService } from '../staff/staff.service';
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
import { CurrentPassword } from './current-password';
import { User } from './user.entity';
import {
  ApiKeyOwner,
  CustomerListPage,
  CustomerListRow,
  SignInState,
  SignUpRow,
  TwoFactorState,
  UserIdentity,
  UserName,
  UsersRepository,
} from './users.repository';

/**
 * Types of the services reached through forwardRef (their modules use each other): the constructor names them by
 * alias, so the decorator metadata does not read the classes while the files are still loading each other.
 */
type StaffServiceRef = StaffService;
type OrganizationsServiceRef = OrganizationsService;

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

/** Profile fields staff may change on a customer, copied as they are (after validation). */
const STAFF_PLAIN_FIELDS = ['name', 'last_name', 'company', 'birthday', 'lang', 'instagram'] as const;

/** What staff may change on a customer (PUT /users/{id}/admin). */
export type StaffUserUpdate = Partial<Pick<UpdateUserDto, (typeof STAFF_PLAIN_FIELDS)[number] | 'phone'>> & {
  email?: string;
};

@Injectable()
export class UsersService {
  private readonly ownDeletionChecks: ((user_id: number, tx: EntityManager) => Promise<void>)[] = [];
  constructor(
    private readonly users: UsersRepository,
    private readonly transactions: UnitOfWork,
    @Inject(forwardRef(() => StaffService)) private readonly staff: StaffServiceRef,
    private readonly files: FilesService,
    private readonly policy: AccessPolicy,
    @Inject(forwardRef(() => OrganizationsService)) private readonly memberships: OrganizationsServiceRef,
    private readonly words: WordsService,
    private readonly currentPassword: CurrentPassword,
    @Inject(APP_ENV) private readonly env: AppEnv,
    /** Forgets a changed account's sessions here at once; other instances hear the database's notification. */
    private readonly principals: PrincipalCache,
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
    const entity: Partial<User> = {
      name: input.name.trim(),
      last_name: (input.last_name ?? '').trim(),
      email,
      phone,
      uid: randomUUID(),
      password_hash: await hashPassword(input.password ?? randomPassword()),
      signup_reason: input.signup_reason?.trim() || null,
    };
    try {
      const user_id = await this.users.insert(entity);
      return (await this.users.findById(user_id))!;
    } catch (err) {
      // Two sign-ups with the same email at once: the unique index decides, the loser gets the same answer.
      if (err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505') {
        throw emailExists();
      }
      throw err;
    }
  }

  findByEmail(email: string, tx?: EntityManager): Promise<User | null> {
    return this.users.findByEmail(normalizeEmail(email), tx);
  }

  findById(user_id: number, tx?: EntityManager): Promise<User | null> {
    return this.users.findById(user_id, tx);
  }

  /** Names and emails of several users, for lists that show who someone is. */
  namesByIds(ids: number[]): Promise<UserName[]> {
    return this.users.namesByIds([...new Set(ids)]);
  }

  /**
   * Adds a payment to the user's lifetime value (negative for a refund), in the caller's transaction so the value
   * moves exactly when the payment commits.
   */
  async addLifetimeValue(user_id: number | null, cents: number, tx: EntityManager): Promise<void> {
    // A deleted customer's payments (anonymised) have no one to count them for.
    if (cents && user_id !== null) await this.users.addLifetimeValue(user_id, cents, tx);
  }

  /** Name and email of users by id (for other modules' lists); missing ids are left out. */
  async summaries(user_ids: (number | null)[]): Promise<Map<number, UserName>> {
    return byUser(await this.users.namesByIds(knownIds(user_ids)));
  }

  /** summaries as a read to send with others (UnitOfWork.readTogether). */
  summariesRead(user_ids: (number | null)[]): StatementRead<Map<number, UserName>> {
    const names = this.users.namesByIdsRead(knownIds(user_ids));
    return { statement: names.statement, read: (rows) => byUser(names.read(rows)) };
  }

  /** Ids of users whose name, last name or email contains `text` (at most `limit`, newest first). */
  searchIds(text: string, limit: number): Promise<number[]> {
    return this.users.searchIds(text, limit);
  }

  /** A page of the users among `ids` whose name or email contains `search`, by user_id, with their value. */
  pageAmong(ids: number[], search: string | undefined, page: Page) {
    return this.users.pageAmong(ids, search, page);
  }

  /** What sign-in checks: the password hash, the lock after failures, whether two-factor is on. */
  signInState(where: { email: string } | { user_id: number }): Promise<SignInState | null> {
    return this.users.signInState('email' in where ? { email: normalizeEmail(where.email) } : where);
  }

  /** Who the user is, for the principal of a request. */
  identity(user_id: number): Promise<UserIdentity | null> {
    return this.users.identity(user_id);
  }

  /** The owner of a personal API key, by the key's sha256. */
  apiKeyOwner(api_key_hash: string): Promise<ApiKeyOwner | null> {
    return this.users.byApiKeyHash(api_key_hash);
  }

  twoFactorState(user_id: number): Promise<TwoFactorState | null> {
    return this.users.twoFactorState(user_id);
  }

  /** Stores a TOTP secret (encrypted) shown for enrolment and not confirmed yet. */
  async setPendingTotp(user_id: number, encryptedSecret: string): Promise<void> {
    await this.users.update(user_id, { totp_pending_secret: encryptedSecret });
  }

  /** The pending TOTP secret becomes the active one: sign-in asks for a code from now on. */
  async confirmPendingTotp(user_id: number, step: number): Promise<void> {
    await this.users.confirmPendingTotp(user_id, step);
    this.principals.forgetUser(user_id);
  }

  /** Spends a code's time step; false when it or a later one was used already (a code works once). */
  spendTotpStep(user_id: number, step: number): Promise<boolean> {
    return this.users.spendTotpStep(user_id, step);
  }

  async clearTotp(user_id: number): Promise<void> {
    await this.users.update(user_id, {
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
    });
    this.principals.forgetUser(user_id);
  }

  /** One more wrong password (locks the account from the fifth in a row). */
  recordPasswordFailure(user_id: number, tx?: EntityManager): Promise<void> {
    return this.users.recordPasswordFailure(user_id, tx);
  }

  resetPasswordFailures(user_id: number, tx?: EntityManager): Promise<void> {
    return this.users.resetPasswordFailures(user_id, tx);
  }

  async setPasswordHash(user_id: number, password_hash: string, tx?: EntityManager): Promise<void> {
    await this.users.update(user_id, { password_hash }, tx);
  }

  touchLastUsed(user_id: number, tx?: EntityManager): Promise<void> {
    return this.users.touchLastUsed(user_id, tx);
  }

  /** The address is verified (already verified stays as it was); answers when. */
  markEmailVerified(user_id: number, tx?: EntityManager): Promise<Date | null> {
    return this.users.markEmailVerified(user_id, tx);
  }

  /** The personal API key stops working. */
  clearApiKey(user_id: number, tx?: EntityManager): Promise<void> {
    return this.users.clearApiKey(user_id, tx);
  }

  /** Signing in lands in this organization when the user has none chosen. */
  setDefaultOrganizationIfNone(user_id: number, organization_id: number, tx?: EntityManager): Promise<void> {
    return this.users.setDefaultOrganizationIfNone(user_id, organization_id, tx);
  }

  /** Signing in should not pick an organization the user no longer belongs to. */
  clearDefaultOrganization(user_id: number, organization_id: number, tx?: EntityManager): Promise<void> {
    return this.users.clearDefaultOrganization(user_id, organization_id, tx);
  }

  /**
   * The account becomes the operator's first staff admin account: a new password and verified email, and no API
   * key, second factor or sign-in lock left from whoever had it.
   */
  async takeOverForFirstAdmin(user_id: number, password_hash: string, tx: EntityManager): Promise<void> {
    await this.users.update(
      user_id,
      {
        password_hash,
        api_key_hash: null,
        api_key_last4: null,
        api_key_expires_at: null,
        api_key_staff: false,
        totp_secret: null,
        totp_pending_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        login_failures: 0,
        login_locked_until: null,
      },
      tx,
    );
    await this.users.markEmailVerified(user_id, tx);
  }

  /** A new password for an account whose email is verified (the embedded first admin gets a fresh one). */
  async resetVerifiedPassword(user_id: number, password_hash: string, tx: EntityManager): Promise<void> {
    await this.users.update(user_id, { password_hash }, tx);
    await this.users.markEmailVerified(user_id, tx);
  }

  /** The first staff admin's account, verified from the start (the operator chose the address). */
  createVerified(email: string, password_hash: string, tx: EntityManager): Promise<number> {
    return this.users.insert(
      {
        name: 'Admin',
        last_name: '',
        email: normalizeEmail(email),
        uid: randomUUID(),
        password_hash,
        email_verified_at: new Date(),
      },
      tx,
    );
  }

  /** Whether the user may generate content: staff always, anyone else while their word ledger allows it. */
  async hasAccess(user_id: number): Promise<boolean> {
    if (await this.staff.roleOf(user_id)) return true;
    return this.words.hasAccess(user_id);
  }

  /** The `{ user }` payload of GET /users and of sign-in answers. */
  async toPublicUser(user_id: number): Promise<PublicUserDto> {
    const [user, staff] = await Promise.all([this.users.findById(user_id), this.staff.memberOf(user_id)]);
    if (!user) throw notFound('User', 'user_not_found');
    const role = staff?.role ?? null;
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
      two_factor_required: this.twoFactorRequired(role, user.totp_enabled_at !== null),
      zappier_webhook_url: user.zappier_webhook_url,
      manual_mode: user.manual_mode,
      dark_mode: user.dark_mode,
      has_access: await this.hasAccess(user.user_id),
      staff: staff ? { staff_id: staff.staff_id, role: staff.role } : null,
      default_organization: user.default_organization,
      birthday: user.birthday,
      defaultAssistant:
        user.default_avatar_id && user.default_assistant_id
          ? { id: user.default_assistant_id, avatar_id: user.default_avatar_id }
          : null,
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
        if (!(await this.memberships.isMember(user_id, input.default_organization))) {
          throw notFound('Organization', 'organization_not_found');
        }
      }
      changes.default_organization = input.default_organization;
    }
    if (Object.keys(changes).length > 0) await this.users.update(user_id, changes);
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
    this.policy.demandSession(principal);
    if (input.staff && !this.policy.permits(principal, 'apiKey.staffUse')) {
      throw forbidden('Only staff members can make a key for staff use.', 'staff_key_not_allowed');
    }
    await this.currentPassword.check(principal.user_id, input.password);
    const days = input.expires_in_days ?? DEFAULT_API_KEY_EXPIRY_DAYS;
    const expires_at = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
    const staff = !!input.staff;
    const { key, hash, last4 } = generateApiKey();
    await this.users.update(principal.user_id, {
      api_key_hash: hash,
      api_key_last4: last4,
      api_key_expires_at: expires_at,
      api_key_staff: staff,
    });
    return { api_key: key, expires_at, staff };
  }

  async revokeApiKey(principal: Principal): Promise<void> {
    this.policy.demandSession(principal);
    await this.users.clearApiKey(principal.user_id);
  }

  /** Staff admins must use two-factor when STAFF_2FA_REQUIRED is on; the principal resolver applies the same rule. */
  private twoFactorRequired(role: string | null, enrolled: boolean): boolean {
    return this.env.staff2faRequired && role === 'admin' && !enrolled;
  }

  /**
   * DELETE /users: the account and everything hanging off it (sessions included, by cascade, so its tokens
   * stop working at once), and the stored bytes of its files. The last staff admin cannot leave the back office
   * without an admin.
   */
  async deleteOwn(principal: Principal, password: string): Promise<void> {
    this.policy.demandSession(principal);
    await this.currentPassword.check(principal.user_id, password);
    await this.deleteAccount(principal.user_id, async (tx) => {
      await this.staff.assertMayLeave(principal.user_id, tx);
      for (const check of this.ownDeletionChecks) await check(principal.user_id, tx);
    });
  }

  /**
   * Another owner's refusal of a user's own deletion (billing: a subscription that still renews), asked in the
   * deletion's transaction; registered at start by that owner, which depends on this module.
   */
  onOwnDeletion(check: (user_id: number, tx: EntityManager) => Promise<void>): void {
    this.ownDeletionChecks.push(check);
  }

  /**
   * Deletes an account with everything hanging off it (sessions by cascade, so its tokens stop at once) and the
   * stored bytes of its files once that commits. `first` runs in the same transaction before the account goes
   * (the caller's checks, other owners' clean-up, the audit record); what it answers is handed back.
   */
  async deleteAccount<T>(user_id: number, first: (tx: EntityManager) => Promise<T>): Promise<T> {
    const { keys, result } = await this.transactions.run(async (tx) => {
      const result = await first(tx);
      // Read before the rows go with the account (by cascade); the bytes are removed once that commits.
      const keys = await this.files.storageKeysOf(user_id, tx);
      await this.users.delete(user_id, tx);
      return { keys, result };
    });
    // The sessions went with the account: the next request here must not find them remembered, and its open
    // sockets close (on every instance).
    this.principals.forgetUser(user_id);
    await this.files.removeStoredBytes(keys);
    this.realtime?.disconnectUser(user_id);
    return result;
  }

  /**
   * Staff change a customer's profile fields (the PUT /users fields a person has, and the email). A new email must
   * not belong to another account. Answers the names of the fields that changed.
   */
  async updateByStaff(user_id: number, input: StaffUserUpdate): Promise<string[]> {
    const user = await this.users.findById(user_id);
    if (!user) throw notFound('User', 'user_not_found');
    const changes: Partial<User> = {};
    for (const field of STAFF_PLAIN_FIELDS) {
      const value = input[field];
      if (value !== undefined && value !== user[field]) (changes as Record<string, unknown>)[field] = value;
    }
    if (input.phone !== undefined) {
      const phone = input.phone === null ? null : shapePhone(input.phone);
      if (phone !== user.phone) changes.phone = phone;
    }
    if (input.email !== undefined) {
      const email = normalizeEmail(input.email);
      if (email !== user.email) {
        const other = await this.findByEmail(email);
        if (other && other.user_id !== user_id) throw emailExists();
        changes.email = email;
      }
    }
    if (Object.keys(changes).length === 0) return [];
    try {
      await this.users.update(user_id, changes);
    } catch (err) {
      // Two saves of the same email at once: the unique index decides.
      if (err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505') {
        throw emailExists();
      }
      throw err;
    }
    if (changes.email !== undefined) this.principals.forgetUser(user_id);
    return Object.keys(changes);
  }

  /** The back-office customer list searched: one page and the number of matches (see UsersRepository.searchedPage). */
  searchedPage(
    filter: CustomerListPage & { text: string; field: CustomerSearchField },
  ): Promise<{ rows: CustomerListRow[]; total: number }> {
    return this.users.searchedPage(filter);
  }

  /** The customer list's page without a search, as a read to send with others (UnitOfWork.readTogether). */
  unsearchedPageRead(filter: CustomerListPage): StatementRead<CustomerListRow[]> {
    return this.users.unsearchedPageRead(filter);
  }

  /** Accounts created in [from, to): how many, and the newest `limit` of them. */
  signUps(range: { from: Date; to: Date }, limit: number): Promise<{ count: number; rows: SignUpRow[] }> {
    return this.users.signUps(range, limit);
  }

  /** How many accounts were created in [from, to) (over the index on createdAt). */
  signUpCount(range: { from: Date; to: Date }): Promise<number> {
    return this.users.signUpCount(range);
  }

  /** The newest `limit` accounts created in [from, to), after the `skip` newest. */
  newestSignUps(range: { from: Date; to: Date }, limit: number, skip = 0): Promise<SignUpRow[]> {
    return this.users.newestSignUps(range, limit, skip);
  }

  /** Staff lookup by email (GET /users/email). */
  async lookupByEmail(email: string): Promise<PublicUserDto> {
    const user = await this.findByEmail(email);
    if (!user) throw new DomainError(404, 'user_not_found', USER_MESSAGES.emailNotFound);
    return this.toPublicUser(user.user_id);
  }

  /** Staff lookup by phone (GET /users/phone); the phone is shaped like stored ones first. */
  async lookupByPhone(phone: string): Promise<PublicUserDto> {
    const user = await this.users.findByPhone(shapePhone(phone));
    if (!user) throw new DomainError(404, 'user_not_found', USER_MESSAGES.phoneNotFound);
    return this.toPublicUser(user.user_id);
  }
}

function emailExists(): DomainError {
  return preconditionFailed(USER_MESSAGES.emailExists, 'email_exists');
}

/** The ids given, without nulls (deleted customers) and repeats. */
function knownIds(user_ids: (number | null)[]): number[] {
  return [...new Set(user_ids.filter((id): id is number => id !== null))];
}

function byUser(rows: UserName[]): Map<number, UserName> {
  return new Map(rows.map((u) => [u.user_id, u]));
}
