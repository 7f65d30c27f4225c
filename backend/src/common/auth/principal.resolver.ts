import { Inject, Injectable } from '@nestjs/common';
import { APP_ENV, AppEnv } from '../../config/env';
import { AuthService } from '../../modules/auth/auth.service';
import { StaffService } from '../../modules/staff/staff.service';
import { UsersService } from '../../modules/users/users.service';
import { unauthorized } from '../errors/domain-error';
import { sha256 } from '../crypto/secret-box';
import type { StaffRole } from './permissions';
import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

/**
 * Turns a verified token or an API key into a Principal, checking the session on every request. Each owner
 * answers its part (auth the session, users the identity, staff the role), the three reads side by side; a
 * session's answer is then reused from PrincipalCache until anything in it changes.
 */
@Injectable()
export class PrincipalResolver {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly staff: StaffService,
    private readonly cache: PrincipalCache,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async fromSession(userId: number, sessionId: string): Promise<Principal | null> {
    const cached = this.cache.get(userId, sessionId);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    const [session, user, role] = await Promise.all([
      this.auth.openSessionState(sessionId, userId),
      this.users.identity(userId),
      this.staff.roleOf(userId),
    ]);
    if (!session || !user) return null;
    const viewer = session.impersonated_by;
    const principal: Principal | null =
      viewer !== null
        ? await this.impersonated(viewer, user, sessionId)
        : {
            user_id: user.user_id,
            email: user.email,
            session_id: sessionId,
            via: 'token',
            staffRole: role,
            org: null,
            twoFactorEnrolmentRequired: this.mustEnrol(role, user.totp_enabled),
          };
    if (principal) {
      const userIds = viewer !== null ? [userId, viewer] : [userId];
      this.cache.keep(ticket, principal, { userIds, sessionExpiresAt: session.expires_at });
    }
    return principal;
  }

  /**
   * A staff admin viewing a customer's account: the customer's rights only (never staff ones), the admin named
   * for the audit log, and nothing once that admin is no longer a staff admin.
   */
  private async impersonated(
    admin_user_id: number,
    user: { user_id: number; email: string },
    sessionId: string,
  ): Promise<Principal | null> {
    const [admin, adminRole] = await Promise.all([
      this.users.identity(admin_user_id),
      this.staff.roleOf(admin_user_id),
    ]);
    if (!admin || adminRole !== 'admin') return null;
    return {
      user_id: user.user_id,
      email: user.email,
      session_id: sessionId,
      via: 'token',
      staffRole: null,
      org: null,
      impersonator: { user_id: admin.user_id, email: admin.email },
    };
  }

  /**
   * The owner of a personal API key. An expired key answers 401 with its own code; a key made without the staff
   * flag acts as a plain customer even when its owner is staff, so a leaked everyday key opens no back office.
   */
  async fromApiKey(apiKey: string): Promise<Principal | null> {
    const row = await this.users.apiKeyOwner(sha256(apiKey));
    if (!row) return null;
    if (row.api_key_expires_at && row.api_key_expires_at.getTime() <= Date.now()) {
      throw unauthorized(
        'This API key has expired. Create a new one in Settings and use it instead.',
        'api_key_expired',
      );
    }
    const staffRole = row.api_key_staff ? await this.staff.roleOf(row.user_id) : null;
    return {
      user_id: row.user_id,
      email: row.email,
      session_id: null,
      via: 'api_key',
      staffRole,
      org: null,
      twoFactorEnrolmentRequired: this.mustEnrol(staffRole, row.totp_enabled),
    };
  }

  private mustEnrol(role: StaffRole | null, enrolled: boolean): boolean {
    return this.env.staff2faRequired && role === 'admin' && !enrolled;
  }
}
