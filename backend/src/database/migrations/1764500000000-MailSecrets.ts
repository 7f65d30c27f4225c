import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links an email carries (password reset), encrypted with APP_SECRET and referenced by id from the email job,
 * so job data (Redis, the in-process queue) and logs never hold a live token.
 */
export class MailSecrets1764500000000 implements MigrationInterface {
  name = 'MailSecrets1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_secrets (
        id uuid PRIMARY KEY,
        value text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX mail_secrets_expiry ON mail_secrets (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS mail_secrets`);
  }
}
