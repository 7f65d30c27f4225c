import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A link of a queued email (it holds a token), encrypted, kept until sent and no longer than it is valid for. */
@Entity('mail_secrets')
export class MailSecret {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Encrypted with APP_SECRET. */
  @Column({ type: 'text' })
  value: string;

  @Index('mail_secrets_expiry')
  @Column({ type: 'timestamptz' })
  expires_at: Date;
}
