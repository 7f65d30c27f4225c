import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_ENV, AppEnv } from '../../config/env';
import { forbidden, notFound, unauthorized } from '../errors/domain-error';
import { sha256 } from '../crypto/secret-box';
import { ORG_ROLE_BY_ID, StaffRole } from './permissions';
import type { OrgScope, Principal } from './principal';

/** Turns a verified token or an API key into a Principal, checking the session on every request. */
@Injectable()
export class PrincipalResolver {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async fromSession(userId: number, sessionId: string): Promise<Principal | null> {
    const rows: { user_id: number; email: string; role: StaffRole | null; totp: boolean }[] =
      await this.db.query(
        `SELECT u.user_id, u.email, st.role, u.totp_enabled_at IS NOT NULL AS totp
         FROM sessions se
         JOIN users u ON u.user_id = se.user_id
         LEFT JOIN staff st ON st.user_id = u.user_id
        WHERE se.session_id = $1 AND se.user_id = $2 AND se.revoked_at IS NULL AND se.expires_at > now()`,
        [sessionId, userId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      user_id: row.user_id,
      email: row.email,
      session_id: sessionId,
      via: 'token',
      staffRole: row.role,
      org: null,
      twoFactorEnrolmentRequired: this.mustEnrol(row.role, row.totp),
    };
  }

  /**
   * The owner of a personal API key. An expired key answers 401 with its own code; a key made without the staff
   * flag acts as a plain customer even when its owner is staff, so a leaked everyday key opens no back office.
   */
  async fromApiKey(apiKey: string): Promise<Principal | null> {
    const rows: {
      user_id: number;
      email: string;
      role: StaffRole | null;
      expires_at: Date | null;
      staff_key: boolean;
      totp: boolean;
    }[] = await this.db.query(
      `SELECT u.user_id, u.email, st.role, u.api_key_expires_at AS expires_at, u.api_key_staff AS staff_key,
              u.totp_enabled_at IS NOT NULL AS totp
         FROM users u LEFT JOIN staff st ON st.user_id = u.user_id WHERE u.api_key_hash = $1`,
      [sha256(apiKey)],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) {
      throw unauthorized(
        'This API key has expired. Create a new one in Settings and use it instead.',
        'api_key_expired',
      );
    }
    const staffRole = row.staff_key ? row.role : null;
    return {
      user_id: row.user_id,
      email: row.email,
      session_id: null,
      via: 'api_key',
      staffRole,
      org: null,
      twoFactorEnrolmentRequired: this.mustEnrol(staffRole, row.totp),
    };
  }

  private mustEnrol(role: StaffRole | null, enrolled: boolean): boolean {
    return this.env.staff2faRequired && role === 'admin' && !enrolled;
  }

  /**
   * The caller's role in an organization. A non-member gets 404 (it is not theirs); a staff admin who is not a
   * member acts as its Admin, so the back office can manage any organization, but only once they confirmed it
   * (`staffConfirmed`: the confirmation header names this organization), else 403 staff_scope_unconfirmed.
   */
  async orgScope(principal: Principal, organizationId: number, staffConfirmed = false): Promise<OrgScope> {
    const rows: { user_type_id: number | null; exists: boolean }[] = await this.db.query(
      `SELECT uo.user_type_id, true AS exists
         FROM organizations o
         LEFT JOIN user_organizations uo ON uo.organization_id = o.organization_id AND uo.user_id = $2
        WHERE o.organization_id = $1`,
      [organizationId, principal.user_id],
    );
    const row = rows[0];
    if (row?.user_type_id) {
      // Recorded for "Last used"; at most once a minute per membership to keep reads cheap.
      void this.db
        .query(
          `UPDATE user_organizations SET last_use = now()
            WHERE organization_id = $1 AND user_id = $2 AND (last_use IS NULL OR last_use < now() - interval '1 minute')`,
          [organizationId, principal.user_id],
        )
        .catch(() => undefined);
      return { organization_id: organizationId, role: ORG_ROLE_BY_ID[row.user_type_id], member: true };
    }
    if (row && principal.staffRole === 'admin') {
      if (!staffConfirmed) {
        throw forbidden(
          'You are not a member of this organization. Confirm that you act in it as staff first.',
          'staff_scope_unconfirmed',
        );
      }
      return { organization_id: organizationId, role: 'Admin', member: false };
    }
    throw notFound('Organization', 'organization_not_found');
  }
}
