import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ORG_ROLE_BY_ID } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { sha256 } from '../../common/crypto/secret-box';
import { conflict, DomainError } from '../../common/errors/domain-error';
import { APP_ENV, type AppEnv } from '../../config/env';
import { UnitOfWork } from '../../database/unit-of-work';
import { randomToken } from '../auth/tokens';
import { MailService } from '../mail/mail.service';
import { UsersService } from '../users/users.service';
import type {
  InvitationAcceptedResponse,
  InvitationSentView,
  MyInvitationView,
} from './dto/organization-invitation.dto';
import type { OrganizationInvitation } from './organization-invitation.entity';
import { OrganizationInvitationsRepository } from './organization-invitations.repository';
import { OrganizationsRepository } from './organizations.repository';

/** An invitation may be accepted for a week. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The invitee's list shows at most this many pending invitations. */
export const MY_INVITATIONS_MAX = 50;

const NOT_FOUND = 'This invitation is not valid anymore, or it was sent to another email.';
const EXPIRED = 'This invitation has expired. Ask the organization for a new one.';

/** The link of the invitation screen for a token. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/organizations/invitations?token=${encodeURIComponent(token)}`;
}

function fullName(user: { name: string; last_name: string } | null | undefined): string {
  return user ? `${user.name} ${user.last_name}`.trim() : '';
}

/**
 * Invitations to organizations. Adding someone by email invites them instead of making them a member: the person
 * joins only by accepting, signed in with the invited email, so an organization Admin never takes hold of an
 * existing account nor learns whether the email has one.
 */
@Injectable()
export class OrganizationInvitationsService {
  private readonly logger = new Logger('Invitations');

  constructor(
    private readonly invitations: OrganizationInvitationsRepository,
    private readonly orgs: OrganizationsRepository,
    private readonly transactions: UnitOfWork,
    private readonly users: UsersService,
    private readonly mail: MailService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /** Creates (or replaces) the open invitation of `email` to the organization and emails it. */
  async invite(
    inviter: Principal,
    organizationId: number,
    email: string,
    userTypeId: number,
  ): Promise<InvitationSentView> {
    const token = randomToken();
    const expires_at = new Date(Date.now() + INVITATION_TTL_MS);
    const invitation = await this.transactions.run(async (tx) => {
      await this.invitations.declineOpen(organizationId, email, tx);
      return this.invitations.insert(
        {
          organization_id: organizationId,
          email,
          user_type_id: userTypeId,
          token_hash: sha256(token),
          invited_by: inviter.user_id,
          expires_at,
        },
        tx,
      );
    });
    const [organization, inviterUser] = await Promise.all([
      this.orgs.findById(organizationId),
      this.users.findById(inviter.user_id),
    ]);
    const organization_name = organization?.name ?? '';
    const inviter_name = fullName(inviterUser);
    try {
      await this.mail.sendOrganizationInvitation({
        to: email,
        organization_name,
        role: ORG_ROLE_BY_ID[userTypeId],
        invited_by: inviter_name,
        link: invitationLink(this.env.publicUrl, token),
        expires_at,
      });
    } catch (err) {
      // The invitation stands and shows in the invitee's list once they sign in.
      this.logger.warn(`Invitation ${invitation.invitation_id} email not queued: ${(err as Error).message}`);
    }
    return {
      invitation_id: invitation.invitation_id,
      organization_id: invitation.organization_id,
      email: invitation.email,
      user_type_id: invitation.user_type_id,
      expires_at: invitation.expires_at,
    };
  }

  /** The caller's pending invitations (to their email, not expired), newest first. */
  async listMine(principal: Principal): Promise<MyInvitationView[]> {
    const rows = await this.invitations.pendingFor(principal.email.toLowerCase(), MY_INVITATIONS_MAX);
    const inviters = new Map(
      (await this.users.namesByIds(rows.flatMap((r) => r.invitation.invited_by ?? []))).map((u) => [
        u.user_id,
        u,
      ]),
    );
    return rows.map(({ invitation: i, organization_name }) => ({
      invitation_id: i.invitation_id,
      organization_id: i.organization_id,
      organization_name,
      user_type_id: i.user_type_id,
      role: ORG_ROLE_BY_ID[i.user_type_id],
      invited_by: (i.invited_by !== null && fullName(inviters.get(i.invited_by))) || null,
      expires_at: i.expires_at,
      createdAt: i.createdAt,
    }));
  }

  /**
   * Accepts by the emailed token; the caller must be signed in with the invited email. Holding the link proves
   * the address, so it also verifies an account that was not yet.
   */
  acceptByToken(principal: Principal, token: string): Promise<InvitationAcceptedResponse> {
    return this.accept(principal, { token_hash: sha256(token) }, true);
  }

  /**
   * Accepts one of the caller's own pending invitations (from their list). An account someone registered with an
   * address they do not own must not join by that address, so this needs a verified email (409 otherwise).
   */
  acceptById(principal: Principal, id: number): Promise<InvitationAcceptedResponse> {
    return this.accept(principal, { invitation_id: id }, false);
  }

  async decline(principal: Principal, id: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      await this.lockOpen(tx, principal, { invitation_id: id });
      await this.invitations.markDeclined(id, tx);
    });
  }

  private async accept(
    principal: Principal,
    which: { token_hash: string } | { invitation_id: number },
    provesEmail: boolean,
  ): Promise<InvitationAcceptedResponse> {
    return this.transactions.run(async (tx) => {
      const inv = await this.lockOpen(tx, principal, which);
      const me = await this.users.findById(principal.user_id, tx);
      if (!me?.email_verified_at) {
        if (!provesEmail)
          throw conflict(
            'Please verify your email address first: open the link we emailed you (you can send it again from Settings), or accept from the invitation email.',
            'email_not_verified',
          );
        await this.users.markEmailVerified(principal.user_id, tx);
      }
      // Someone already a member keeps the role they have; the invitation is spent either way.
      const membership = await this.orgs.insertMembershipIfAbsent(
        { user_id: principal.user_id, organization_id: inv.organization_id, user_type_id: inv.user_type_id },
        tx,
      );
      await this.invitations.markAccepted(inv.invitation_id, tx);
      // Signing in lands in the organization the person just joined when they had none chosen.
      await this.users.setDefaultOrganizationIfNone(principal.user_id, inv.organization_id, tx);
      return {
        organization_id: inv.organization_id,
        user_organization_id: membership.user_organization_id,
        user_type_id: membership.user_type_id,
      };
    });
  }

  /**
   * The open invitation matching `where`, locked, when it was sent to the caller's email. Anything else is "not
   * found", so a token or id tells nothing about invitations sent to other people.
   */
  private async lockOpen(
    tx: EntityManager,
    principal: Principal,
    which: { token_hash: string } | { invitation_id: number },
  ): Promise<OrganizationInvitation> {
    const inv = await this.invitations.lock(which, tx);
    if (!inv || inv.email !== principal.email.toLowerCase() || inv.accepted_at || inv.declined_at) {
      throw new DomainError(404, 'invitation_not_found', NOT_FOUND);
    }
    if (new Date(inv.expires_at).getTime() <= Date.now()) {
      throw new DomainError(410, 'invitation_expired', EXPIRED);
    }
    return inv;
  }
}
