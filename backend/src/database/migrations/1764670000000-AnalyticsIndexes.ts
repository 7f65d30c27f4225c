import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The back office's analytics read money and cancellations by time: an index on each time column they range
 * over, partial where only some rows ever have it.
 */
export class AnalyticsIndexes1764670000000 implements MigrationInterface {
  name = 'AnalyticsIndexes1764670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX purchases_paid_at ON purchases (paid_at) WHERE paid_at IS NOT NULL`);
    await q.query(
      `CREATE INDEX purchases_cancelled_at ON purchases (cancelled_at) WHERE cancelled_at IS NOT NULL`,
    );
    await q.query(`CREATE INDEX invoices_paid_at ON invoices (paid_at) WHERE status = 'completed'`);
    // The dashboard's counts: running subscriptions, failed payments, invoices waiting, words generated.
    await q.query(
      `CREATE INDEX purchases_running_subscriptions ON purchases (purchase_id)
         WHERE status = 'active' AND subscription_interval IS NOT NULL`,
    );
    await q.query(`CREATE INDEX purchases_failed ON purchases ("updatedAt") WHERE status = 'failed'`);
    await q.query(
      `CREATE INDEX invoices_open ON invoices (status, "updatedAt") WHERE status IN ('pending', 'failed')`,
    );
    await q.query(
      `CREATE INDEX word_ledger_debits_created ON word_ledger ("createdAt") WHERE kind = 'debit'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX word_ledger_debits_created`);
    await q.query(`DROP INDEX invoices_open`);
    await q.query(`DROP INDEX purchases_failed`);
    await q.query(`DROP INDEX purchases_running_subscriptions`);
    await q.query(`DROP INDEX invoices_paid_at`);
    await q.query(`DROP INDEX purchases_cancelled_at`);
    await q.query(`DROP INDEX purchases_paid_at`);
  }
}
