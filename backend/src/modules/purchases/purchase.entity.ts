import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { PurchaseStoredStatus } from '@avatar-studio/contracts';

export type PaymentProvider = 'stripe' | 'paypal' | 'manual';

/** A user's purchase of a product: one-off or a subscription. Amounts are whole cents. */
@Entity('purchases')
export class Purchase {
  @PrimaryGeneratedColumn()
  purchase_id: number;

  /** Null once the customer was deleted: the row stays for the books, anonymised. */
  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'int' })
  product_id: number;

  /** The product's organization when it was bought (null: a platform product). */
  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 16 })
  status: PurchaseStoredStatus;

  /** What was charged (after any discount), cents. */
  @Column({ type: 'int', default: 0 })
  amount: number;

  @Column({ type: 'varchar', length: 3, default: 'usd' })
  currency: string;

  @Column({ type: 'int', nullable: true })
  expiration_days: number | null;

  /** When access and the words end (null: never, or a subscription before its first period). */
  @Column({ type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ type: 'boolean', default: false })
  is_gift: boolean;

  /** One of PAYMENT_METHODS (contracts). */
  @Column({ type: 'int', nullable: true })
  payment_method_id: number | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  cancel_reason: string | null;

  @Column({ type: 'int', nullable: true })
  discount_id: number | null;

  /** The discount code used. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  discount: string | null;

  /** The provider's subscription id (Stripe `sub_…` or PayPal `I-…`). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  subscription_id: string | null;

  @Column({ type: 'int', nullable: true })
  free_trial_length: number | null;

  @Column({ type: 'int', nullable: true })
  subscription_interval: number | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  subscription_period: string | null;

  /** The provider's id of the payment (PaymentIntent, PayPal capture). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  payment_processor_id: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  provider: PaymentProvider | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_customer_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_payment_intent_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_subscription_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_order_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_subscription_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_plan_id: string | null;

  /** Subscriptions: the end of the period paid for. */
  @Column({ type: 'timestamptz', nullable: true })
  current_period_end: Date | null;

  /** Cancelled: no further charges; access stays until the period's end. */
  @Column({ type: 'boolean', default: false })
  cancel_at_period_end: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  cancelled_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  /** Cents given back. */
  @Column({ type: 'int', default: 0 })
  refunded_amount: number;

  @Column({ type: 'timestamptz', nullable: true })
  paid_at: Date | null;

  /** The staff member who created it (gifts, back office). */
  @Column({ type: 'int', nullable: true })
  created_by: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
