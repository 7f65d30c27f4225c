import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a customer keeps their purchases and invoices for the books, without an owner (anonymised). Staff opening
 * a customer's account: a one-time code names the admin who asked for it, and the session it opens names that
 * admin too, so every action in it is recorded as theirs.
 */
export class CustomerDeletionAndImpersonation1795746100000 implements MigrationInterface {
  name = 'CustomerDeletionAndImpersonation1795746100000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['purchases', 'invoices']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id DROP NOT NULL`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(user_id) ON DELETE SET NULL`,
      );
    }
    await q.query(
      `ALTER TABLE auth_tokens ADD COLUMN issued_by int REFERENCES users(user_id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE sessions ADD COLUMN impersonated_by int REFERENCES users(user_id) ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN impersonated_by`);
    await q.query(`ALTER TABLE auth_tokens DROP COLUMN issued_by`);
    for (const table of ['purchases', 'invoices']) {
      await q.query(`DELETE FROM ${table} WHERE user_id IS NULL`);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id SET NOT NULL`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(user_id) ON DELETE CASCADE`,
      );
    }
  }
}
