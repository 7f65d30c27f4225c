import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AuditAction } from '@avatar-studio/contracts';
import type { StaffRole } from '../../common/auth/permissions';

/**
 * One security-relevant staff action. Ids are kept without foreign keys so the record outlives the accounts
 * and organizations it names; rows are only ever inserted.
 */
@Entity('audit_events')
@Index('audit_events_time', ['createdAt', 'audit_event_id'])
export class AuditEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  audit_event_id: string;

  @Column({ type: 'varchar', length: 64 })
  action: AuditAction;

  /** Who acted (null when no signed-in caller did, e.g. a job). */
  @Column({ type: 'int', nullable: true })
  actor_user_id: number | null;

  /** The actor's email at the time, so the record reads well after the account is gone. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  actor_email: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  actor_staff_role: StaffRole | null;

  @Column({ type: 'int', nullable: true })
  target_user_id: number | null;

  /** What else was acted on, e.g. `staff` / `12`, `app_config` / `stripe_private_key`. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  target_type: string | null;

  @Column({ type: 'varchar', length: 120, nullable: true })
  target_id: string | null;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  /** The client address as Express resolved it (behind the trusted proxies). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  user_agent: string | null;

  /** Small facts about the action; never a secret, token or link (see sanitizeDetails). */
  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  details: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
