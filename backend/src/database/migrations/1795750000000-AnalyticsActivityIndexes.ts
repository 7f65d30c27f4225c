import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analytics calls of free trials, avatars (instructors), expected money (reservations) and tutorial plays
 * (videos), and the dashboard's failed webhooks: each reads one time range through an index of its own, partial
 * where only some rows ever qualify, carrying the grouped columns so the counts read the index alone.
 */
export class AnalyticsActivityIndexes1795750000000 implements MigrationInterface {
  name = 'AnalyticsActivityIndexes1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX purchases_free_trials ON purchases ("createdAt") INCLUDE (product_id, status)
         WHERE free_trial_length IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX purchases_renewals_due ON purchases (current_period_end)
         WHERE status = 'active' AND subscription_interval IS NOT NULL AND NOT cancel_at_period_end`,
    );
    await q.query(`CREATE INDEX invoices_pending_due ON invoices (expiration_date) WHERE status = 'pending'`);
    await q.query(
      `CREATE INDEX conversations_avatar_created ON conversations
         ("createdAt", (COALESCE(avatar_id, thread_avatar_id)), user_id)
         WHERE COALESCE(avatar_id, thread_avatar_id) IS NOT NULL`,
    );
    await q.query(`CREATE INDEX avatars_created ON avatars ("createdAt")`);
    await q.query(
      `CREATE INDEX tutorial_plays_created ON tutorial_plays ("createdAt") INCLUDE (tutorial_id, user_id)`,
    );
    await q.query(
      `CREATE INDEX payment_events_failed ON payment_events (received_at) WHERE status = 'failed'`,
    );
    // The money, words and active-customer sums read these columns from the index alone (measured by
    // bench/analytics.mjs), so the narrower indexes of the first analytics migration give way to them.
    await q.query(`DROP INDEX IF EXISTS purchases_paid_at`);
    await q.query(
      `CREATE INDEX purchases_paid_money ON purchases (paid_at)
         INCLUDE (status, payment_method_id, product_id, amount, refunded_amount) WHERE paid_at IS NOT NULL`,
    );
    await q.query(`DROP INDEX IF EXISTS invoices_paid_at`);
    await q.query(
      `CREATE INDEX invoices_paid_money ON invoices (paid_at)
         INCLUDE (payment_method_id, purchase_id, period_end, amount, refunded_amount) WHERE status = 'completed'`,
    );
    await q.query(`DROP INDEX IF EXISTS word_ledger_debits_created`);
    await q.query(
      `CREATE INDEX word_ledger_debits_words ON word_ledger ("createdAt") INCLUDE (words) WHERE kind = 'debit'`,
    );
    await q.query(
      `CREATE INDEX purchases_running_users ON purchases (user_id, "createdAt") INCLUDE (expires_at)
         WHERE status IN ('active', 'completed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX purchases_running_users`);
    await q.query(`DROP INDEX word_ledger_debits_words`);
    await q.query(
      `CREATE INDEX word_ledger_debits_created ON word_ledger ("createdAt") WHERE kind = 'debit'`,
    );
    await q.query(`DROP INDEX invoices_paid_money`);
    await q.query(`CREATE INDEX invoices_paid_at ON invoices (paid_at) WHERE status = 'completed'`);
    await q.query(`DROP INDEX purchases_paid_money`);
    await q.query(`CREATE INDEX purchases_paid_at ON purchases (paid_at) WHERE paid_at IS NOT NULL`);
    await q.query(`DROP INDEX payment_events_failed`);
    await q.query(`DROP INDEX tutorial_plays_created`);
    await q.query(`DROP INDEX avatars_created`);
    await q.query(`DROP INDEX conversations_avatar_created`);
    await q.query(`DROP INDEX invoices_pending_due`);
    await q.query(`DROP INDEX purchases_renewals_due`);
    await q.query(`DROP INDEX purchases_free_trials`);
  }
}
