import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The free-trials analytics read each trial's purchase id (to ask whether an invoice of it was paid) and then the
 * paid invoices of that purchase: both from indexes alone now, instead of a visit to every trial's purchase row
 * and to each of its invoices.
 */
export class FreeTrialCoveringIndexes1795770000001 implements MigrationInterface {
  name = 'FreeTrialCoveringIndexes1795770000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX purchases_free_trials`);
    await q.query(
      `CREATE INDEX purchases_free_trials ON purchases ("createdAt") INCLUDE (product_id, status, purchase_id)
         WHERE free_trial_length IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX invoices_completed_purchase ON invoices (purchase_id) WHERE status = 'completed'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX invoices_completed_purchase`);
    await q.query(`DROP INDEX purchases_free_trials`);
    await q.query(
      `CREATE INDEX purchases_free_trials ON purchases ("createdAt") INCLUDE (product_id, status)
         WHERE free_trial_length IS NOT NULL`,
    );
  }
}
