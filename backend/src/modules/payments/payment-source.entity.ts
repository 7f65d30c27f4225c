import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A saved card: a Stripe PaymentMethod attached to the user's customer after a confirmed SetupIntent. */
@Entity('payment_sources')
export class PaymentSource {
  @PrimaryGeneratedColumn()
  payment_source_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'varchar', length: 32 })
  account: string;

  @Column({ type: 'varchar', length: 255 })
  stripe_customer_id: string;

  @Column({ type: 'varchar', length: 255 })
  stripe_payment_method_id: string;

  @Column({ type: 'varchar', length: 32 })
  brand: string;

  @Column({ type: 'varchar', length: 4 })
  last4: string;

  @Column({ type: 'int' })
  exp_month: number;

  @Column({ type: 'int' })
  exp_year: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
