import { MigrationInterface, QueryRunner } from 'typeorm';

/** The time step of the last second-factor code a user used, so the same code is not accepted twice. */
export class TotpLastStep1764700000000 implements MigrationInterface {
  name = 'TotpLastStep1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN IF NOT EXISTS totp_last_step integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN IF EXISTS totp_last_step`);
  }
}
