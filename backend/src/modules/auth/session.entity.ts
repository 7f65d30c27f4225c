import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One signed-in session (a login). Access tokens carry its id (`sid`) and are refused once it is revoked,
 * so logout, password change, deletion and role change end it at once.
 */
@Entity('sessions')
export class Session {
  @PrimaryGeneratedColumn('uuid')
  session_id: string;

  @Index()
  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  revoked_reason: string | null;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @Column({ type: 'varchar', length: 300, nullable: true })
  user_agent: string | null;

  /** The staff admin viewing the customer's account in this session (null: the user signed in themselves). */
  @Column({ type: 'int', nullable: true })
  impersonated_by: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** Refresh tokens of a session; each is spent on use (rotation). Reusing a spent one revokes the session. */
@Entity('refresh_tokens')
export class RefreshToken {
  /** sha256 of the token. */
  @PrimaryGeneratedColumn('uuid')
  refresh_token_id: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash: string;

  @Index()
  @Column({ type: 'uuid' })
  session_id: string;

  @Column({ type: 'timestamptz', nullable: true })
  spent_at: Date | null;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** reset_password and sign_in are single-use links; two_factor is a sign-in waiting for its code. */
export type AuthTokenPurpose = 'reset_password' | 'sign_in' | 'two_factor' | 'impersonation';

/** Single-use tokens: password reset links and one-time sign-in tokens. Stored hashed. */
@Entity('auth_tokens')
export class AuthToken {
  @PrimaryGeneratedColumn('uuid')
  auth_token_id: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash: string;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'varchar', length: 20 })
  purpose: AuthTokenPurpose;

  /** Impersonation codes: the staff admin who asked to open the account. */
  @Column({ type: 'int', nullable: true })
  issued_by: number | null;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  used_at: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
