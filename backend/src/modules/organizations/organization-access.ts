import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Actor, ORG_ROLE_BY_ID, Permission, can } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { forbidden, notFound } from '../../common/errors/domain-error';

/** The caller's standing in one organization: their role there (if a member) and their staff role. */
export interface OrgActor extends Actor {
  organization_id: number;
  user_id: number;
  membership: { user_organization_id: number; user_type_id: number } | null;
}

/**
 * Resolves access on the organization a resource belongs to (not the request's `?organization_id=` scope, which
 * may name another organization the caller is also in).
 */
@Injectable()
export class OrganizationAccess {
  constructor(private readonly db: DataSource) {}

  /** 404 when the organization is missing, or when the caller is neither a member nor staff. */
  async actor(principal: Principal, organizationId: number, manager?: EntityManager): Promise<OrgActor> {
    const rows: { user_organization_id: number | null; user_type_id: number | null }[] = await (
      manager ?? this.db.manager
    ).query(
      `SELECT uo.user_organization_id, uo.user_type_id
         FROM organizations o
         LEFT JOIN user_organizations uo ON uo.organization_id = o.organization_id AND uo.user_id = $2
        WHERE o.organization_id = $1`,
      [organizationId, principal.user_id],
    );
    const row = rows[0];
    if (!row) throw notFound('Organization', 'organization_not_found');
    const membership =
      row.user_organization_id !== null && row.user_type_id !== null
        ? { user_organization_id: row.user_organization_id, user_type_id: row.user_type_id }
        : null;
    if (!membership && !principal.staffRole) throw notFound('Organization', 'organization_not_found');
    return {
      organization_id: organizationId,
      user_id: principal.user_id,
      staffRole: principal.staffRole,
      orgRole: membership ? (ORG_ROLE_BY_ID[membership.user_type_id] ?? null) : null,
      membership,
    };
  }

  /** Whether the user belongs to the organization (groups and campaigns are given only to its members). */
  async isMember(organizationId: number, userId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.db.manager).query(
      `SELECT 1 FROM user_organizations WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return rows.length > 0;
  }
}

/** 403 unless the actor holds the permission (by organization role or staff role). */
export function demand(actor: Actor, permission: Permission): void {
  if (!can(actor, permission)) throw forbidden();
}

/** Read-only back-office views: Managers and Admins of the organization, and any staff. */
export function canViewAdminPanel(actor: Actor): boolean {
  return can(actor, 'organization.adminPanel') || can(actor, 'backoffice.view');
}
