import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { InvoiceStatus } from '@avatar-studio/contracts';

/**
 * A charge to a user: made by staff (paid through checkout or marked paid), or one period of a subscription
 * (a renewal). Amounts are whole cents.
 */
@Entity('invoices')
export class Invoice {
  @PrimaryGeneratedColumn()
  invoice_id: number;

  @Column({ type: 'int', nullable: true })
  purchase_id: number | null;

  /** Null once the customer was deleted: the row stays for the books, anonymised. */
  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'int' })
  amount: number;

  @Column({ type: 'varchar', length: 3, default: 'usd' })
  currency: string;

  @Column({ type: 'int', nullable: true })
  payment_method_id: number | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: InvoiceStatus;

  /** Pay by this date. */
  @Column({ type: 'timestamptz', nullable: true })
  expiration_date: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_invoice_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_payment_intent_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_capture_id: string | null;

  /** Renewals: the end of the period this invoice paid for. */
  @Column({ type: 'timestamptz', nullable: true })
  period_end: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  paid_at: Date | null;

  /** Cents given back of this invoice's payment (refunds and lost disputes). */
  @Column({ type: 'int', default: 0 })
  refunded_amount: number;

  @Column({ type: 'int', nullable: true })
  created_by: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
