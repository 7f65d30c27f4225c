import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An invitation to join an organization, sent to an email. Only the token's sha256 is stored; the invitee
 * accepts signed in with that email. Accepted, declined and replaced invitations are kept as a record.
 */
@Entity('organization_invitations')
export class OrganizationInvitation {
  @PrimaryGeneratedColumn()
  invitation_id: number;

  @Column({ type: 'int' })
  organization_id: number;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'int' })
  user_type_id: number;

  @Column({ type: 'char', length: 64, unique: true, select: false })
  token_hash: string;

  @Column({ type: 'int', nullable: true })
  invited_by: number | null;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  accepted_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  declined_at: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
