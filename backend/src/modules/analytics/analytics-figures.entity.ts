import { Column, Entity, PrimaryColumn } from 'typeorm';

/*
 * Per-day summaries (UTC days) of the figures the analytics answer. The AnalyticsDailyFigures migration's triggers
 * keep them exact in the same transaction as the writes to purchases, invoices, users and word_ledger; only
 * AnalyticsFiguresRepository reads them.
 */

/** Money received on one day, per source (a purchase's first payment or an invoice), payment method and product. */
@Entity('analytics_money_daily')
export class MoneyDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  /** 'purchase' or 'invoice'. */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  source: string;

  @Column({ type: 'int', nullable: true })
  payment_method_id: number | null;

  /** The product bought, or for an invoice its purchase's product (null: an invoice without a purchase). */
  @Column({ type: 'int', nullable: true })
  product_id: number | null;

  @Column({ type: 'int' })
  payments: number;

  /** Cents, net of refunds. */
  @Column({ type: 'bigint' })
  total: string;
}

/** Accounts created on one day. */
@Entity('analytics_sign_ups_daily')
export class SignUpsDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int' })
  sign_ups: number;
}

/** Words debited (generated) on one day. */
@Entity('analytics_words_daily')
export class WordsDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'bigint' })
  words: string;
}

/** Purchases cancelled on one day. */
@Entity('analytics_cancellations_daily')
export class CancellationsDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int' })
  cancellations: number;
}

/** Money expected on one day: renewals of running subscriptions ('renewal') or open invoices due ('invoice'). */
@Entity('analytics_due_daily')
export class DueDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  kind: string;

  @Column({ type: 'int' })
  items: number;

  /** Cents. */
  @Column({ type: 'bigint' })
  total: string;
}

/** Counts over every row kept current by the same triggers ('running_subscriptions'). */
@Entity('analytics_counters')
export class AnalyticsCounter {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  @Column({ type: 'bigint' })
  n: string;
}

/**
 * A time a customer held a running purchase (active or completed): their purchases' lifetimes merged into
 * disjoint spans, each with the end of the one before (null: the first). ends_at null: still running.
 */
@Entity('analytics_customer_spans')
export class CustomerSpan {
  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @PrimaryColumn({ type: 'timestamptz' })
  starts_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  ends_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  previous_end: Date | null;
}

/** How many customer spans start and end on one day. */
@Entity('analytics_customer_spans_daily')
export class CustomerSpansDaily {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int' })
  starts: number;

  @Column({ type: 'int' })
  ends: number;
}

/** A running purchase that expires before it was created: it fits no span, so it is kept apart. */
@Entity('analytics_customer_inverted')
export class CustomerInverted {
  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @PrimaryColumn({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'timestamptz' })
  expires_at: Date;
}
