import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type ObjectLiteral, Repository, type SelectQueryBuilder } from 'typeorm';
import { Invoice } from './invoice.entity';
import { Purchase } from './purchase.entity';
import { selectColumns } from '../../common/database/select-columns';
import type { StatementRead } from '../../database/unit-of-work';

/** A holder of a running purchase (null: a deleted customer's) and when their newest one began. */
export interface ActiveHolder {
  user_id: number | null;
  since: Date;
}

/** Running purchases read for the newest holders: `limit` times this at first, this many times more each try. */
const TAKE_GROWTH = 4;

const CANCELLATION_COLUMNS = [
  'purchase_id',
  'user_id',
  'product_id',
  'cancelled_at',
  'cancel_reason',
] as const;
export type Cancellation = Pick<Purchase, (typeof CANCELLATION_COLUMNS)[number]>;

/** Statuses of a purchase whose first payment was received (a later cancel or revoke keeps the money). */
export const PAID_STATUSES = ['active', 'completed', 'cancelled', 'revoked'];

export interface Range {
  from: Date;
  to: Date;
}

/**
 * Sums over purchases and invoices for the back office's analytics, each over an indexed time column
 * (purchases.paid_at, invoices.paid_at, purchases.cancelled_at), never a scan of every row.
 */
@Injectable()
export class PurchaseAnalyticsRepository {
  constructor(
    @InjectRepository(Purchase) private readonly purchases: Repository<Purchase>,
    @InjectRepository(Invoice) private readonly invoices: Repository<Invoice>,
  ) {}

  /** First payments of purchases in the range, net of refunds, grouped by `by`. */
  async purchaseMoney(range: Range, by: 'payment_method_id' | 'product_id') {
    const rows = await this.purchases
      .createQueryBuilder('p')
      .select(`p.${by}`, 'key')
      .addSelect('count(*)::int', 'payments')
      .addSelect('COALESCE(sum(p.amount - p.refunded_amount), 0)::bigint', 'total')
      .where('p.paid_at >= :from AND p.paid_at < :to', range)
      .andWhere('p.status IN (:...statuses)', { statuses: PAID_STATUSES })
      .groupBy(`p.${by}`)
      .getRawMany<{ key: number | null; payments: number; total: string }>();
    return rows.map((r) => ({ key: r.key, payments: r.payments, total: Number(r.total) }));
  }

  /**
   * Completed invoices paid in the range that are not already counted as a purchase's first payment: renewals
   * (they carry a period) and invoices staff marked paid without a purchase, net of refunds. Grouped by payment method, or by
   * the product of the renewed purchase.
   */
  async invoiceMoney(range: Range, by: 'payment_method_id' | 'product_id') {
    const qb = this.invoices
      .createQueryBuilder('i')
      .where(`i.status = 'completed'`)
      .andWhere('i.paid_at >= :from AND i.paid_at < :to', range)
      .andWhere('(i.period_end IS NOT NULL OR i.purchase_id IS NULL)');
    if (by === 'product_id')
      qb.innerJoin(Purchase, 'p', 'p.purchase_id = i.purchase_id')
        .select('p.product_id', 'key')
        .groupBy('p.product_id');
    else qb.select('i.payment_method_id', 'key').groupBy('i.payment_method_id');
    qb.addSelect('count(*)::int', 'payments').addSelect(
      'COALESCE(sum(i.amount - i.refunded_amount), 0)::bigint',
      'total',
    );
    const rows = await qb.getRawMany<{ key: number | null; payments: number; total: string }>();
    return rows.map((r) => ({ key: r.key, payments: r.payments, total: Number(r.total) }));
  }

  /**
   * The `limit` newest holders of a running purchase (active or completed, not expired) that started before the
   * range ends, by their newest such purchase (`since`); purchases of deleted customers (user_id null) are one
   * holder; holders who started together come by user id, highest first, so pages of them keep one order. Reads
   * the running purchases newest first through their index, as many as it takes; the database
   * keeps each holder's newest of them, so only the answer's rows come back (hand-written: the query builder
   * cannot select from a limited subquery).
   */
  async activeCustomers(range: Range, limit: number): Promise<ActiveHolder[]> {
    for (let take = limit * TAKE_GROWTH; ; take *= TAKE_GROWTH) {
      const attempt = this.activeCustomersTry(range, limit, take);
      const holders = attempt.read(
        await this.purchases.query(attempt.statement.sql, [...attempt.statement.values!]),
      );
      if (holders) return holders;
    }
  }

  /**
   * One try of activeCustomers: the holders among the `take` newest running purchases, or null when those held
   * fewer than `limit` holders and there are more to read.
   */
  private activeCustomersTry(
    range: Range,
    limit: number,
    take: number,
  ): StatementRead<ActiveHolder[] | null> {
    return {
      statement: {
        sql: `SELECT user_id, since, seen FROM (
           SELECT DISTINCT ON (user_id) user_id, created AS since, count(*) OVER () AS seen
             FROM (SELECT user_id, "createdAt" AS created FROM purchases
                    WHERE status IN ('active', 'completed') AND "createdAt" < $1
                      AND (expires_at IS NULL OR expires_at >= $2)
                    ORDER BY "createdAt" DESC LIMIT $3) newest
            ORDER BY user_id, created DESC) holders
         ORDER BY since DESC, user_id DESC LIMIT $4`,
        values: [range.to, range.from, take, limit],
      },
      read: (found) => {
        const rows = found as (ActiveHolder & { seen: string })[];
        if (rows.length >= limit || rows.length === 0 || Number(rows[0].seen) < take)
          return rows.map((r) => ({ user_id: r.user_id, since: r.since }));
        return null;
      },
    };
  }

  /** The `limit` purchases cancelled last in the range after the `skip` last, with the reason, newest first. */
  cancellations(range: Range, limit: number, skip: number): Promise<Cancellation[]> {
    return selectColumns(this.cancelledIn(range), CANCELLATION_COLUMNS)
      .orderBy('p.cancelled_at', 'DESC')
      .addOrderBy('p.purchase_id', 'DESC')
      .offset(skip)
      .limit(limit)
      .getRawMany<Cancellation>();
  }

  /** How many purchases were cancelled in the range. */
  cancellationCount(range: Range): Promise<number> {
    return this.cancelledIn(range).getCount();
  }

  private cancelledIn(range: Range) {
    return this.purchases
      .createQueryBuilder('p')
      .where('p.cancelled_at >= :from AND p.cancelled_at < :to', range);
  }

  /** Subscriptions that renew (status active). */
  runningSubscriptions(): Promise<number> {
    return this.purchases
      .createQueryBuilder('p')
      .where(`p.status = 'active' AND p.subscription_interval IS NOT NULL`)
      .getCount();
  }

  /**
   * Payments that failed in [from, to), and of them those since `since`: purchases (first payments) and invoices
   * (renewals, open invoices).
   */
  async failedPayments(range: Range, since = range.to): Promise<{ all: number; since: number }> {
    const count = <T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string) =>
      qb
        .select('count(*)::int', 'all')
        .addSelect(`count(*) FILTER (WHERE ${alias}."updatedAt" >= :since)::int`, 'since')
        .where(`${alias}.status = 'failed'`)
        .andWhere(`${alias}."updatedAt" >= :from AND ${alias}."updatedAt" < :to`, { ...range, since })
        .getRawOne<{ all: number; since: number }>();
    const [purchases, invoices] = await Promise.all([
      count(this.purchases.createQueryBuilder('p'), 'p'),
      count(this.invoices.createQueryBuilder('i'), 'i'),
    ]);
    return { all: purchases!.all + invoices!.all, since: purchases!.since + invoices!.since };
  }

  /** Invoices waiting for payment (pending). */
  pendingInvoices(): Promise<number> {
    return this.invoices.createQueryBuilder('i').where(`i.status = 'pending'`).getCount();
  }

  /**
   * Subscriptions that began with a free trial in the range, per product: started, since paid (a completed
   * invoice of the purchase: the first charge after the trial), and cancelled.
   */
  async freeTrials(range: Range) {
    const rows = await this.purchases
      .createQueryBuilder('p')
      .select('p.product_id', 'product_id')
      .addSelect('count(*)::int', 'started')
      .addSelect(
        `count(*) FILTER (WHERE EXISTS (SELECT 1 FROM invoices i
           WHERE i.purchase_id = p.purchase_id AND i.status = 'completed'))::int`,
        'converted',
      )
      .addSelect(`count(*) FILTER (WHERE p.status IN ('cancelled', 'revoked'))::int`, 'cancelled')
      .where('p.free_trial_length IS NOT NULL')
      .andWhere('p."createdAt" >= :from AND p."createdAt" < :to', range)
      .groupBy('p.product_id')
      .orderBy('started', 'DESC')
      .addOrderBy('p.product_id', 'ASC')
      .getRawMany<{ product_id: number; started: number; converted: number; cancelled: number }>();
    return rows;
  }

  /**
   * Renewals expected in the range: running subscriptions (active, not cancelled at period end) whose paid
   * period ends in it, soonest first, with the amount each charges.
   */
  expectedRenewals(range: Range, limit: number) {
    const columns = ['purchase_id', 'user_id', 'product_id', 'amount', 'current_period_end'] as const;
    return selectColumns(this.renewalsDue(range), columns)
      .orderBy('p.current_period_end', 'ASC')
      .addOrderBy('p.purchase_id', 'ASC')
      .limit(limit)
      .getRawMany<Pick<Purchase, (typeof columns)[number]>>();
  }

  /** How many renewals are expected in the range and their amount (cents). */
  async expectedRenewalTotals(range: Range): Promise<{ count: number; total: number }> {
    const totals = (await this.renewalsDue(range)
      .select('count(*)::int', 'count')
      .addSelect('COALESCE(sum(p.amount), 0)::bigint', 'total')
      .getRawOne<{ count: number; total: string }>())!;
    return { count: totals.count, total: Number(totals.total) };
  }

  private renewalsDue(range: Range) {
    return this.purchases
      .createQueryBuilder('p')
      .where(`p.status = 'active' AND p.subscription_interval IS NOT NULL AND NOT p.cancel_at_period_end`)
      .andWhere('p.current_period_end >= :from AND p.current_period_end < :to', range);
  }

  /** Invoices waiting for payment (pending) that fall due in the range, soonest first. */
  openInvoicesDue(range: Range, limit: number) {
    const columns = [
      'invoice_id',
      'user_id',
      'purchase_id',
      'amount',
      'expiration_date',
      'description',
    ] as const;
    return selectColumns(this.invoicesDue(range), columns)
      .orderBy('i.expiration_date', 'ASC')
      .addOrderBy('i.invoice_id', 'ASC')
      .limit(limit)
      .getRawMany<Pick<Invoice, (typeof columns)[number]>>();
  }

  /** How many open invoices fall due in the range and their amount (cents). */
  async openInvoicesDueTotals(range: Range): Promise<{ count: number; total: number }> {
    const totals = (await this.invoicesDue(range)
      .select('count(*)::int', 'count')
      .addSelect('COALESCE(sum(i.amount), 0)::bigint', 'total')
      .getRawOne<{ count: number; total: string }>())!;
    return { count: totals.count, total: Number(totals.total) };
  }

  private invoicesDue(range: Range) {
    return this.invoices
      .createQueryBuilder('i')
      .where(`i.status = 'pending'`)
      .andWhere('i.expiration_date >= :from AND i.expiration_date < :to', range);
  }
}
