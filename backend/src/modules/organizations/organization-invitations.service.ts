import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ORG_ROLE_BY_ID } from '../../common/auth/permissions';
import type { Principal } from '../../common/auth/principal';
import { sha256 } from '../../common/crypto/secret-box';
import { conflict, DomainError } from '../../common/errors/domain-error';
import { APP_ENV, type AppEnv } from '../../config/env';
import { randomToken } from '../auth/tokens';
import { MailService } from '../mail/mail.service';
import type {
  InvitationAcceptedResponse,
  InvitationSentView,
  MyInvitationView,
} from './dto/organization-invitation.dto';

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

interface OpenInvitation {
  invitation_id: number;
  organization_id: number;
  email: string;
  user_type_id: number;
  expires_at: Date;
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
    private readonly db: DataSource,
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
    const { invitation, organization_name, inviter_name } = await this.db.transaction(async (m) => {
      // A new invitation replaces the open one, whose link then stops working.
      await m.query(
        `UPDATE organization_invitations SET declined_at = now()
          WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL AND declined_at IS NULL`,
        [organizationId, email],
      );
      const [row]: OpenInvitation[] = await m.query(
        `INSERT INTO organization_invitations (organization_id, email, user_type_id, token_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING invitation_id, organization_id, email, user_type_id, expires_at`,
        [organizationId, email, userTypeId, sha256(token), inviter.user_id, expires_at],
      );
      const [names]: { organization_name: string; inviter_name: string }[] = await m.query(
        `SELECT o.name AS organization_name, trim(u.name || ' ' || u.last_name) AS inviter_name
           FROM organizations o, users u WHERE o.organization_id = $1 AND u.user_id = $2`,
        [organizationId, inviter.user_id],
      );
      return { invitation: row, ...names };
    });
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
    const rows: (Omit<MyInvitationView, 'role'> & { user_type_id: number })[] = await this.db.query(
      `SELECT i.invitation_id, i.organization_id, o.name AS organization_name, i.user_type_id,
              NULLIF(trim(u.name || ' ' || u.last_name), '') AS invited_by, i.expires_at, i."createdAt"
         FROM organization_invitations i
         JOIN organizations o ON o.organization_id = i.organization_id
         LEFT JOIN users u ON u.user_id = i.invited_by
        WHERE i.email = $1 AND i.accepted_at IS NULL AND i.declined_at IS NULL AND i.expires_at > now()
        ORDER BY i."createdAt" DESC, i.invitation_id DESC
        LIMIT $2`,
      [principal.email.toLowerCase(), MY_INVITATIONS_MAX],
    );
    return rows.map((r) => ({ ...r, role: ORG_ROLE_BY_ID[r.user_type_id] }));
  }

  /**
   * Accepts by the emailed token; the caller must be signed in with the invited email. Holding the link proves
   * the address, so it also verifies an account that was not yet.
   */
  acceptByToken(principal: Principal, token: string): Promise<InvitationAcceptedResponse> {
    return this.accept(principal, `i.token_hash = $1`, [sha256(token)], true);
  }

  /**
   * Accepts one of the caller's own pending invitations (from their list). An account someone registered with an
   * address they do not own must not join by that address, so this needs a verified email (409 otherwise).
   */
  acceptById(principal: Principal, id: number): Promise<InvitationAcceptedResponse> {
    return this.accept(principal, `i.invitation_id = $1`, [id], false);
  }

  async decline(principal: Principal, id: number): Promise<void> {
    await this.db.transaction(async (m) => {
      await this.lockOpen(m, principal, `i.invitation_id = $1`, [id]);
      await m.query(`UPDATE organization_invitations SET declined_at = now() WHERE invitation_id = $1`, [id]);
    });
  }

  private async accept(
    principal: Principal,
    where: string,
    params: unknown[],
    provesEmail: boolean,
  ): Promise<InvitationAcceptedResponse> {
    return this.db.transaction(async (m) => {
      const inv = await this.lockOpen(m, principal, where, params);
      const [me]: { verified: boolean }[] = await m.query(
        `SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE user_id = $1`,
        [principal.user_id],
      );
      if (!me?.verified) {
        if (!provesEmail)
          throw conflict(
            'Please verify your email address first: open the link we emailed you (you can send it again from Settings), or accept from the invitation email.',
            'email_not_verified',
          );
        await m.query(`UPDATE users SET email_verified_at = now() WHERE user_id = $1`, [principal.user_id]);
      }
      // Someone already a member keeps the role they have; the invitation is spent either way.
      await m.query(
        `INSERT INTO user_organizations (user_id, organization_id, user_type_id) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, organization_id) DO NOTHING`,
        [principal.user_id, inv.organization_id, inv.user_type_id],
      );
      const [membership]: { user_organization_id: number; user_type_id: number }[] = await m.query(
        `SELECT user_organization_id, user_type_id FROM user_organizations WHERE user_id = $1 AND organization_id = $2`,
        [principal.user_id, inv.organization_id],
      );
      await m.query(`UPDATE organization_invitations SET accepted_at = now() WHERE invitation_id = $1`, [
        inv.invitation_id,
      ]);
      // Signing in lands in the organization the person just joined when they had none chosen.
      await m.query(
        `UPDATE users SET default_organization = $2 WHERE user_id = $1 AND default_organization IS NULL`,
        [principal.user_id, inv.organization_id],
      );
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
    m: EntityManager,
    principal: Principal,
    where: string,
    params: unknown[],
  ): Promise<OpenInvitation> {
    const [inv]: (OpenInvitation & { accepted_at: Date | null; declined_at: Date | null })[] = await m.query(
      `SELECT i.invitation_id, i.organization_id, i.email, i.user_type_id, i.expires_at, i.accepted_at, i.declined_at
         FROM organization_invitations i WHERE ${where} FOR UPDATE`,
      params,
    );
    if (!inv || inv.email !== principal.email.toLowerCase() || inv.accepted_at || inv.declined_at) {
      throw new DomainError(404, 'invitation_not_found', NOT_FOUND);
    }
    if (new Date(inv.expires_at).getTime() <= Date.now()) {
      throw new DomainError(410, 'invitation_expired', EXPIRED);
    }
    return inv;
  }
}
