import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A user's customer at one Stripe account (the platform's or an organization's). */
@Entity('payment_customers')
export class PaymentCustomer {
  @PrimaryGeneratedColumn()
  payment_customer_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'varchar', length: 32 })
  account: string;

  @Column({ type: 'varchar', length: 255 })
  stripe_customer_id: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
