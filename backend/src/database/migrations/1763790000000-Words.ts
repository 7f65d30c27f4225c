import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The word ledger: every grant and debit of words is a row; a balance is computed from the rows, never stored
 * (see modules/words/word-balance.ts for the rule).
 */
export class Words1763790000000 implements MigrationInterface {
  name = 'Words1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE word_ledger (
        entry_id bigserial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE SET NULL,
        kind varchar(16) NOT NULL CHECK (kind IN ('grant', 'debit', 'expiry', 'adjustment')),
        words bigint NOT NULL,
        unlimited boolean NOT NULL DEFAULT false,
        source varchar(40) NOT NULL,
        reference varchar(120),
        expires_at timestamptz,
        note varchar(500),
        created_by int REFERENCES users(user_id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK (kind <> 'grant' OR words > 0 OR unlimited),
        CHECK (kind <> 'debit' OR words < 0)
      )`);
    // A retried grant (same purchase) or debit (same message) finds the first row instead of adding another.
    await q.query(
      `CREATE UNIQUE INDEX word_ledger_reference ON word_ledger (kind, source, reference) WHERE reference IS NOT NULL`,
    );
    await q.query(`CREATE INDEX word_ledger_user_created ON word_ledger (user_id, "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS word_ledger`);
  }
}
