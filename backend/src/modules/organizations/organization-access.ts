import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Actor, ORG_ROLE_BY_ID, Permission, can } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { forbidden, notFound } from '../../common/errors/domain-error';
import { OrganizationsRepository } from './organizations.repository';

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
  constructor(private readonly orgs: OrganizationsRepository) {}

  /** 404 when the organization is missing, or when the caller is neither a member nor staff. */
  async actor(principal: Principal, organizationId: number, tx?: EntityManager): Promise<OrgActor> {
    const row = await this.orgs.membership(organizationId, principal.user_id, tx);
    // A membership implies the organization (its foreign key); without one, the organization must exist.
    if (!row && (!principal.staffRole || !(await this.orgs.findById(organizationId, tx)))) {
      throw notFound('Organization', 'organization_not_found');
    }
    const membership = row
      ? { user_organization_id: row.user_organization_id, user_type_id: row.user_type_id }
      : null;
    return {
      organization_id: organizationId,
      user_id: principal.user_id,
      staffRole: principal.staffRole,
      orgRole: membership ? (ORG_ROLE_BY_ID[membership.user_type_id] ?? null) : null,
      membership,
    };
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
