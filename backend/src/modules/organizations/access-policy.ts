import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Actor, ORG_ROLE_BY_ID, Permission, can } from '../../common/auth/permissions';
import type { OrgScope, Principal } from '../../common/auth/principal';
import { forbidden, notFound } from '../../common/errors/domain-error';
import { OrganizationsRepository } from './organizations.repository';

/** What an action is done to: something in an organization, something of a user, or both (a membership). */
export interface AccessResource {
  organization_id?: number;
  /** The user the resource belongs to; that user may act on it where the permission allows `self`. */
  user_id?: number;
}

/** The caller's standing toward a resource: their staff role, their role in its organization, whether it is theirs. */
export interface Standing extends Actor {
  user_id: number;
  organization_id: number | null;
  membership: { user_organization_id: number; user_type_id: number } | null;
  self: boolean;
}

/**
 * The one access policy: "may this principal do this action to this resource", answered from the permission
 * table of the contracts package (which the screens read too). A resource in an organization the caller neither
 * belongs to nor may see as staff answers 404, so ids of other organizations tell nothing; a resource they may see
 * but not change answers 403.
 */
@Injectable()
export class AccessPolicy {
  constructor(private readonly orgs: OrganizationsRepository) {}

  /** The caller's standing toward the resource; 404 as said above. */
  async standing(principal: Principal, resource: AccessResource = {}, tx?: EntityManager): Promise<Standing> {
    const self = resource.user_id !== undefined && resource.user_id === principal.user_id;
    if (resource.organization_id === undefined) {
      return {
        user_id: principal.user_id,
        organization_id: null,
        staffRole: principal.staffRole,
        orgRole: null,
        membership: null,
        self,
      };
    }
    const organization_id = resource.organization_id;
    const row = await this.orgs.membership(organization_id, principal.user_id, tx);
    // A membership implies the organization (its foreign key); without one, the organization must exist.
    const visible = row !== null || self || principal.staffRole !== null;
    if (!visible || (!row && !(await this.orgs.findById(organization_id, tx)))) {
      throw notFound('Organization', 'organization_not_found');
    }
    return {
      user_id: principal.user_id,
      organization_id,
      staffRole: principal.staffRole,
      orgRole: row ? (ORG_ROLE_BY_ID[row.user_type_id] ?? null) : null,
      membership: row
        ? { user_organization_id: row.user_organization_id, user_type_id: row.user_type_id }
        : null,
      self,
    };
  }

  /** Whether the standing allows the action (no database: for views that vary with the caller). */
  allows(standing: Actor & { self?: boolean }, action: Permission): boolean {
    return can(standing, action);
  }

  /**
   * Managing keys, the second factor, or deleting the account needs a real sign-in (a session), so a leaked API
   * key cannot do any of them: 403 session_required otherwise.
   */
  demandSession(principal: Principal): void {
    if (principal.via !== 'token') {
      throw forbidden('This needs a signed-in session; an API key cannot do it.', 'session_required');
    }
  }

  /**
   * Whether the principal may do an action judged on their staff role alone, and on being the resource's user when
   * one is named (no database: for resources outside organizations, like templates, or none at all).
   */
  permits(principal: Principal, action: Permission, resource: { user_id?: number | null } = {}): boolean {
    const self = resource.user_id !== undefined && resource.user_id === principal.user_id;
    return can({ staffRole: principal.staffRole, orgRole: null, self }, action);
  }

  async may(principal: Principal, action: Permission, resource?: AccessResource, tx?: EntityManager) {
    return this.allows(await this.standing(principal, resource, tx), action);
  }

  /** 403 unless allowed (404 as said above); answers the standing for what the caller may see next. */
  async demand(
    principal: Principal,
    action: Permission,
    resource?: AccessResource,
    tx?: EntityManager,
  ): Promise<Standing> {
    const standing = await this.standing(principal, resource, tx);
    if (!this.allows(standing, action)) throw forbidden();
    return standing;
  }

  /**
   * The request's organization scope (`?organization_id=`), resolved once by the guard. A non-member gets 404
   * (it is not theirs); a staff admin who is not a member acts as its Admin, so the back office can manage any
   * organization, but only once they confirmed it (`staffConfirmed`: the confirmation header names this
   * organization), else 403 staff_scope_unconfirmed.
   */
  async scope(principal: Principal, organizationId: number, staffConfirmed: boolean): Promise<OrgScope> {
    const membership = await this.orgs.membership(organizationId, principal.user_id);
    if (membership) {
      return Object.freeze({
        organization_id: organizationId,
        role: ORG_ROLE_BY_ID[membership.user_type_id],
        member: true,
      });
    }
    if (principal.staffRole === 'admin' && (await this.orgs.exists(organizationId))) {
      if (!staffConfirmed) {
        throw forbidden(
          'You are not a member of this organization. Confirm that you act in it as staff first.',
          'staff_scope_unconfirmed',
        );
      }
      return Object.freeze({ organization_id: organizationId, role: 'Admin', member: false });
    }
    throw notFound('Organization', 'organization_not_found');
  }
}
