import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A lifetime value as PostgreSQL's numeric arrives (text, or null for none), in USD. */
export function lifetimeValue(stored: string | null): number {
  return stored === null ? 0 : Number(stored);
}

/** A person who signs in: customer, organization member, or staff (when a Staff row points at them). */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn()
  user_id: number;

  @Column({ type: 'varchar', length: 120 })
  name: string;

  @Column({ type: 'varchar', length: 120, default: '' })
  last_name: string;

  /** Always stored lowercased and trimmed. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  /** Digits only, at most 10. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  company: string | null;

  /** Legacy identity-provider id; we keep it as an opaque public id. */
  @Column({ type: 'varchar', length: 64, unique: true })
  uid: string;

  @Column({ type: 'varchar', length: 2, default: 'en' })
  lang: 'en' | 'es';

  @Column({ type: 'varchar', length: 200, select: false })
  password_hash: string;

  /** sha256 of the personal API key; the key itself is shown once. */
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  api_key_hash: string | null;

  /** Last characters of the API key, for display. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  api_key_last4: string | null;

  /** When the API key stops working (chosen at creation, at most a year). */
  @Column({ type: 'timestamptz', nullable: true })
  api_key_expires_at: Date | null;

  /** The key carries its owner's staff role; otherwise a staff member's key acts as a plain customer. */
  @Column({ type: 'boolean', default: false })
  api_key_staff: boolean;

  /** When the person opened the emailed verification link; null until then. */
  @Column({ type: 'timestamptz', nullable: true })
  email_verified_at: Date | null;

  /** The TOTP secret, encrypted; set once enrolment is confirmed with a code. */
  @Column({ type: 'varchar', length: 400, nullable: true, select: false })
  totp_secret: string | null;

  /** A TOTP secret shown for enrolment and not confirmed yet, encrypted. */
  @Column({ type: 'varchar', length: 400, nullable: true, select: false })
  totp_pending_secret: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  totp_enabled_at: Date | null;

  /** The time step (Unix time / period) of the last code accepted: that code and earlier ones are spent. */
  @Column({ type: 'int', nullable: true, select: false })
  totp_last_step: number | null;

  /** Failed sign-ins in a row; a success resets it. */
  @Column({ type: 'int', default: 0, select: false })
  login_failures: number;

  @Column({ type: 'timestamptz', nullable: true, select: false })
  login_locked_until: Date | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  zappier_webhook_url: string | null;

  @Column({ type: 'boolean', default: false })
  manual_mode: boolean;

  @Column({ type: 'boolean', default: false })
  dark_mode: boolean;

  @Column({ type: 'date', nullable: true })
  birthday: string | null;

  /** The user's default avatar (their Super Fetch assistant); emptied by the database when it is deleted. */
  @Column({ type: 'int', nullable: true })
  default_avatar_id: number | null;

  /** That avatar's stable key (its assistant_id), shown as `defaultAssistant.id`. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  default_assistant_id: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  instagram: string | null;

  /** Profile image src. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  file: string | null;

  /** Publicity source chosen at sign-up (or the free text for Other). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  signup_reason: string | null;

  @Column({ type: 'int', nullable: true })
  default_organization: number | null;

  /** Show the welcome video after sign-in. */
  @Column({ type: 'boolean', default: true })
  show_video: boolean;

  /** Lifetime value in USD. */
  @Column({
    type: 'numeric',
    precision: 12,
    scale: 2,
    default: 0,
    transformer: { to: (v: number) => v, from: lifetimeValue },
  })
  value: number;

  @Column({ type: 'timestamptz', nullable: true })
  last_used: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
