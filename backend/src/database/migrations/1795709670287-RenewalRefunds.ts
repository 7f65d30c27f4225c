import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds of a single invoice (a subscription's renewal, or a staff invoice paid by card): what was given back of
 * it, so a refund event carrying the charge's running total is applied once. PayPal's sale refunds find the
 * purchase whose first payment was that sale by its processor id.
 */
export class RenewalRefunds1795709670287 implements MigrationInterface {
  name = 'RenewalRefunds1795709670287';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices ADD COLUMN refunded_amount int NOT NULL DEFAULT 0`);
    await q.query(
      `CREATE INDEX purchases_payment_processor ON purchases (payment_processor_id) WHERE payment_processor_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX purchases_payment_processor`);
    await q.query(`ALTER TABLE invoices DROP COLUMN refunded_amount`);
  }
}
