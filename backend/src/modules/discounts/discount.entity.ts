import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DiscountType } from '@avatar-studio/contracts';

/** A discount code: a percent or a fixed amount (cents) off one product or every product. */
@Entity('discounts')
export class Discount {
  @PrimaryGeneratedColumn()
  discount_id: number;

  /** Unique whatever its case. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 8 })
  type: DiscountType;

  /** Percent (1-100) or cents. */
  @Column({ type: 'int' })
  amount: number;

  /** Null: every product (of the organization when organization_id is set). */
  @Column({ type: 'int', nullable: true })
  product_id: number | null;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  /** Redemptions overall (null: no limit). */
  @Column({ type: 'int', nullable: true })
  usage_limit: number | null;

  /** Redemptions per user (null: no limit). */
  @Column({ type: 'int', nullable: true })
  usage_limit_per_user: number | null;

  @Column({ type: 'int', default: 0 })
  times_used: number;

  @Column({ type: 'timestamptz', nullable: true })
  starts_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
