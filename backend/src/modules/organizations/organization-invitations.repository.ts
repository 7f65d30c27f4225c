import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { OrganizationInvitation } from './organization-invitation.entity';
import { Organization } from './organization.entity';

export type NewInvitation = Pick<
  OrganizationInvitation,
  'organization_id' | 'email' | 'user_type_id' | 'token_hash' | 'invited_by' | 'expires_at'
>;

export interface PendingInvitation {
  invitation: OrganizationInvitation;
  organization_name: string;
}

/** The organization_invitations table: the only code that reads or writes it. */
@Injectable()
export class OrganizationInvitationsRepository {
  constructor(
    @InjectRepository(OrganizationInvitation)
    private readonly invitations: Repository<OrganizationInvitation>,
  ) {}

  private repo(tx?: EntityManager): Repository<OrganizationInvitation> {
    return tx ? tx.getRepository(OrganizationInvitation) : this.invitations;
  }

  /** A new invitation replaces the open one of the same email, whose link then stops working. */
  async declineOpen(organization_id: number, email: string, tx: EntityManager): Promise<void> {
    await this.repo(tx).update(
      { organization_id, email, accepted_at: IsNull(), declined_at: IsNull() },
      { declined_at: () => 'now()' },
    );
  }

  async insert(values: NewInvitation, tx: EntityManager): Promise<OrganizationInvitation> {
    const result = await this.repo(tx).insert(values);
    const invitation_id = (result.identifiers[0] as { invitation_id: number }).invitation_id;
    return (await this.repo(tx).findOneBy({ invitation_id }))!;
  }

  /** Open invitations to the email, not expired, newest first, with their organization's name. */
  async pendingFor(email: string, limit: number): Promise<PendingInvitation[]> {
    const { entities, raw } = await this.invitations
      .createQueryBuilder('i')
      .innerJoin(Organization, 'o', 'o.organization_id = i.organization_id')
      .addSelect('o.name', 'organization_name')
      .where({ email, accepted_at: IsNull(), declined_at: IsNull(), expires_at: MoreThan(new Date()) })
      .orderBy('i.createdAt', 'DESC')
      .addOrderBy('i.invitation_id', 'DESC')
      .limit(limit)
      .getRawAndEntities();
    const names = new Map(
      (raw as { i_invitation_id: number; organization_name: string }[]).map((r) => [
        r.i_invitation_id,
        r.organization_name,
      ]),
    );
    return entities.map((invitation) => ({
      invitation,
      organization_name: names.get(invitation.invitation_id) ?? '',
    }));
  }

  /** The invitation with that token or id, its row locked until the transaction ends. */
  lock(
    where: { token_hash: string } | { invitation_id: number },
    tx: EntityManager,
  ): Promise<OrganizationInvitation | null> {
    return this.repo(tx).createQueryBuilder('i').where(where).setLock('pessimistic_write').getOne();
  }

  async markAccepted(invitation_id: number, tx: EntityManager): Promise<void> {
    await this.repo(tx).update({ invitation_id }, { accepted_at: () => 'now()' });
  }

  async markDeclined(invitation_id: number, tx: EntityManager): Promise<void> {
    await this.repo(tx).update({ invitation_id }, { declined_at: () => 'now()' });
  }
}
