import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { PaymentProviderName } from '@avatar-studio/contracts';

export type PaymentEventStatus = 'received' | 'processed' | 'ignored' | 'failed';

/** One webhook event from Stripe or PayPal, stored once per provider, account and event id. */
@Entity('payment_events')
export class PaymentEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  payment_event_id: string;

  @Column({ type: 'varchar', length: 16 })
  provider: PaymentProviderName;

  /** 'platform' or 'org:{organization_id}': whose keys signed it. */
  @Column({ type: 'varchar', length: 32 })
  account: string;

  @Column({ type: 'varchar', length: 255 })
  event_id: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'received' })
  status: PaymentEventStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  provider_created_at: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  received_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  processed_at: Date | null;
}
