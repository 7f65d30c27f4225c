import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One use of a discount code by a user, for one purchase. */
@Entity('discount_redemptions')
export class DiscountRedemption {
  @PrimaryGeneratedColumn()
  redemption_id: number;

  @Column({ type: 'int' })
  discount_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  purchase_id: number | null;

  /** Cents taken off. */
  @Column({ type: 'int' })
  amount_off: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
