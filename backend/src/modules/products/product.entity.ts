import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { SubscriptionPeriod } from '@avatar-studio/contracts';

/**
 * Something a customer can buy: words (or unlimited words) once or as a subscription. Amounts are whole cents.
 * A product with an `organization_id` is sold in that organization, with its Stripe keys.
 */
@Entity('products')
export class Product {
  @PrimaryGeneratedColumn()
  product_id: number;

  /** Null: a platform product (sold with the app config's keys). */
  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  short_description: string | null;

  /** Cents. */
  @Column({ type: 'int' })
  price: number;

  /** Cents; when set, what the customer pays instead of price. */
  @Column({ type: 'int', nullable: true })
  sale_price: number | null;

  @Column({ type: 'varchar', length: 3, default: 'usd' })
  currency: string;

  /** Null: unlimited words. */
  @Column({ type: 'int', nullable: true })
  word_amount: number | null;

  /** Words granted during a free trial (null: the product's word_amount). */
  @Column({ type: 'int', nullable: true })
  free_trial_words: number | null;

  @Column({ type: 'boolean', default: false })
  is_subscription: boolean;

  /** Every `subscription_interval` `subscription_period`s, e.g. 1 month. */
  @Column({ type: 'int', nullable: true })
  subscription_interval: number | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  subscription_period: SubscriptionPeriod | null;

  /** One-off products: the words expire this many days after the purchase (null: never). */
  @Column({ type: 'int', nullable: true })
  expiration_days: number | null;

  /** Purchases one user may make of this product (null: no limit). */
  @Column({ type: 'int', nullable: true })
  limit_per_user: number | null;

  /** Purchases of this product overall (null: no limit). */
  @Column({ type: 'int', nullable: true })
  user_limit: number | null;

  /** The product starts with a free trial, of `free_trial_length` days or until `free_trial_end`. */
  @Column({ type: 'boolean', default: false })
  free_trial_period: boolean;

  @Column({ type: 'int', nullable: true })
  free_trial_length: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  free_trial_end: Date | null;

  @Column({ type: 'boolean', default: true })
  available: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_product_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_price_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_product_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  paypal_plan_id: string | null;

  /** Called (signed JSON) when a test purchase is fired from the back office. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  webhook_url: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  product_sku: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
