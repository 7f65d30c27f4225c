import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ORG_ROLE_BY_ID } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { conflict, notFound } from '../../common/errors/domain-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuditService } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { UsersService } from '../users/users.service';
import type { InvitationSentResponse } from './dto/organization-invitation.dto';
import {
  CreateUserOrganizationBody,
  UpdateUserOrganizationBody,
  UserOrganizationResponse,
  UserOrganizationView,
} from './dto/user-organization.dto';
import { OrganizationInvitationsService } from './organization-invitations.service';
import { AccessPolicy, Standing } from './access-policy';
import type { UserOrganization } from './organization.entity';
import { OrganizationsRepository } from './organizations.repository';

export const LAST_ADMIN = 'An organization must keep at least one Admin.';
export const ALREADY_MEMBER = 'That user is already a member of this organization.';
const ADMIN = 1;

/** Staff acting by their staff role, not as an Admin of the organization: recorded in the audit log. */
function actingAsStaff(standing: Standing): boolean {
  return standing.staffRole !== null && standing.orgRole !== 'Admin';
}

/** Membership of users in organizations: inviting people, changing roles, removing them. */
@Injectable()
export class UserOrganizationsService {
  private readonly logger = new Logger(UserOrganizationsService.name);

  constructor(
    private readonly orgs: OrganizationsRepository,
    private readonly transactions: UnitOfWork,
    private readonly policy: AccessPolicy,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly invitations: OrganizationInvitationsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * An Admin (or staff admin) adds a person by email: they are invited, and join when they accept. A new email
   * gets an account and a password recovery email too, so they can sign in to accept. The answer is the same
   * whether or not the email had an account.
   */
  async add(principal: Principal, body: CreateUserOrganizationBody): Promise<InvitationSentResponse> {
    const actor = await this.policy.demand(principal, 'organization.users.add', {
      organization_id: body.organization_id,
    });

    let user = await this.users.findByEmail(body.email);
    const isNew = !user;
    if (user) {
      if (await this.orgs.membership(body.organization_id, user.user_id)) {
        throw conflict(ALREADY_MEMBER, 'already_member');
      }
      // An unverified account is invited like any other (the answer must not tell them apart); it joins only by
      // the emailed link, which proves the address, or once verified (see OrganizationInvitationsService.accept).
    } else {
      user = await this.users.createUser({
        name: body.name,
        last_name: body.last_name ?? '',
        email: body.email,
      });
    }

    const invitation = await this.invitations.invite(
      principal,
      body.organization_id,
      user.email,
      body.user_type_id,
    );
    if (actingAsStaff(actor)) {
      await this.audit.record('organization.member_invited', {
        organization_id: body.organization_id,
        target_type: 'organization_invitation',
        target_id: invitation.invitation_id,
        details: { user_type_id: body.user_type_id },
      });
    }

    if (isNew) {
      // The account exists for this organization, so signing in lands there.
      await this.users.setDefaultOrganizationIfNone(user.user_id, body.organization_id);
      try {
        await this.auth.sendPasswordReset(user.email);
      } catch (err) {
        // The invitation stands; the person can still ask for a recovery email from the sign-in page.
        this.logger.warn(
          `Password recovery for new invitee ${user.user_id} failed: ${(err as Error).message}`,
        );
      }
    }
    return { invitation };
  }

  /**
   * An Admin (or staff admin) changes a member's role: the membership only, never the person's profile (their
   * name is theirs to edit). The last Admin cannot be demoted.
   */
  async update(principal: Principal, body: UpdateUserOrganizationBody): Promise<UserOrganizationResponse> {
    const id = body.user_organization_id;
    await this.transactions.run(async (m) => {
      const uo = await this.lockMembership(m, id);
      const actor = await this.policy.demand(
        principal,
        'organization.users.edit',
        { organization_id: uo.organization_id },
        m,
      );
      if (body.user_type_id !== undefined && body.user_type_id !== uo.user_type_id) {
        if (uo.user_type_id === ADMIN) await this.assertAnotherAdmin(m, uo);
        await this.orgs.setRole(id, body.user_type_id, m);
        if (actingAsStaff(actor)) {
          await this.audit.record(
            'organization.member_role_changed',
            {
              target_user_id: uo.user_id,
              organization_id: uo.organization_id,
              target_type: 'user_organization',
              target_id: id,
              details: { from: uo.user_type_id, to: body.user_type_id },
            },
            m,
          );
        }
      }
    });
    return { user_organization: await this.view(id) };
  }

  /** Managers and Admins of its organization, staff, and the member themself. */
  async get(principal: Principal, id: number): Promise<UserOrganizationResponse> {
    const uo = await this.orgs.membershipById(id);
    if (!uo) throw notFound('User organization', 'user_organization_not_found');
    await this.policy.demand(principal, 'organization.membership.view', {
      organization_id: uo.organization_id,
      user_id: uo.user_id,
    });
    return { user_organization: await this.view(id) };
  }

  /** An Admin (or staff admin) removes a member, or a member leaves; the last Admin stays. */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.transactions.run(async (m) => {
      const uo = await this.lockMembership(m, id);
      const actor = await this.policy.demand(
        principal,
        'organization.users.remove',
        { organization_id: uo.organization_id, user_id: uo.user_id },
        m,
      );
      if (uo.user_type_id === ADMIN) await this.assertAnotherAdmin(m, uo);
      await this.orgs.deleteMembership(id, m);
      if (!actor.self) {
        if (actingAsStaff(actor)) {
          await this.audit.record(
            'organization.member_removed',
            {
              target_user_id: uo.user_id,
              organization_id: uo.organization_id,
              details: { user_type_id: uo.user_type_id },
            },
            m,
          );
        }
      }
      // Signing in should not pick an organization the person no longer belongs to.
      await this.users.clearDefaultOrganization(uo.user_id, uo.organization_id, m);
    });
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Loads a membership with its organization row locked, so concurrent role changes and removals in one
   * organization take turns (otherwise two Admins demoting each other could leave none).
   */
  private async lockMembership(m: EntityManager, id: number): Promise<UserOrganization> {
    const first = await this.orgs.membershipById(id, m);
    if (!first) throw notFound('User organization', 'user_organization_not_found');
    await this.orgs.lock(first.organization_id, m);
    const uo = await this.orgs.membershipById(id, m);
    if (!uo) throw notFound('User organization', 'user_organization_not_found');
    return uo;
  }

  private async assertAnotherAdmin(m: EntityManager, uo: UserOrganization): Promise<void> {
    const admins = await this.orgs.adminsOtherThan(uo.organization_id, ADMIN, uo.user_organization_id, m);
    if (admins === 0) throw conflict(LAST_ADMIN, 'last_admin');
  }

  private async view(id: number): Promise<UserOrganizationView> {
    const uo = await this.orgs.membershipById(id);
    const user = uo && (await this.users.findById(uo.user_id));
    if (!uo || !user) throw notFound('User organization', 'user_organization_not_found');
    return {
      user_organization_id: uo.user_organization_id,
      user_id: uo.user_id,
      organization_id: uo.organization_id,
      user_type_id: uo.user_type_id,
      user_type: { user_type_id: uo.user_type_id, name: ORG_ROLE_BY_ID[uo.user_type_id] },
      last_use: uo.last_use,
      user: { user_id: user.user_id, name: user.name, last_name: user.last_name, email: user.email },
      // Campaign access arrives with the campaigns module; the member is always present.
      campaigns_access: [],
    };
  }
}
