import { Injectable } from '@nestjs/common';
import { PurchaseAnalyticsRepository, type Range } from './purchase-analytics.repository';

export interface MoneyRow {
  key: number | null;
  payments: number;
  /** Cents. */
  total: number;
}

/** The money and customer figures of purchases and invoices over a time range, for the back office. */
@Injectable()
export class PurchaseAnalyticsService {
  constructor(private readonly rows: PurchaseAnalyticsRepository) {}

  /**
   * Money received in the range grouped by payment method or product: first payments of purchases (net of
   * refunds) plus renewals and invoices paid without a purchase, so nothing is counted twice.
   */
  async income(range: Range, by: 'payment_method_id' | 'product_id'): Promise<MoneyRow[]> {
    const [purchases, invoices] = await Promise.all([
      this.rows.purchaseMoney(range, by),
      this.rows.invoiceMoney(range, by),
    ]);
    const merged = new Map<number | null, MoneyRow>();
    for (const row of [...purchases, ...invoices]) {
      const seen = merged.get(row.key);
      if (seen) {
        seen.payments += row.payments;
        seen.total += row.total;
      } else merged.set(row.key, { ...row });
    }
    return [...merged.values()].sort((a, b) => b.total - a.total);
  }

  /** The `limit` newest holders of a running purchase in the range (see the repository). */
  activeCustomers(range: Range, limit: number) {
    return this.rows.activeCustomers(range, limit);
  }

  /** The `limit` purchases cancelled last in the range after the `skip` last, newest first. */
  cancellations(range: Range, limit: number, skip = 0) {
    return this.rows.cancellations(range, limit, skip);
  }

  cancellationCount(range: Range): Promise<number> {
    return this.rows.cancellationCount(range);
  }

  runningSubscriptions(): Promise<number> {
    return this.rows.runningSubscriptions();
  }

  /** Payments that failed in the range, and of them those since `since` (default: none). */
  failedPayments(range: Range, since?: Date): Promise<{ all: number; since: number }> {
    return this.rows.failedPayments(range, since);
  }

  pendingInvoices(): Promise<number> {
    return this.rows.pendingInvoices();
  }

  freeTrials(range: Range) {
    return this.rows.freeTrials(range);
  }

  /** The first `limit` renewals expected in the range, soonest first. */
  expectedRenewals(range: Range, limit: number) {
    return this.rows.expectedRenewals(range, limit);
  }

  expectedRenewalTotals(range: Range) {
    return this.rows.expectedRenewalTotals(range);
  }

  /** The first `limit` open invoices falling due in the range, soonest first. */
  openInvoicesDue(range: Range, limit: number) {
    return this.rows.openInvoicesDue(range, limit);
  }

  openInvoicesDueTotals(range: Range) {
    return this.rows.openInvoicesDueTotals(range);
  }
}
