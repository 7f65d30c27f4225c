import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in hardening: API keys expire and say whether they carry staff powers; email addresses are verified;
 * staff may enrol a TOTP second factor; failed sign-ins lock the account for a growing while.
 */
export class AuthHardening1764200000000 implements MigrationInterface {
  name = 'AuthHardening1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users
      ADD COLUMN email_verified_at timestamptz,
      ADD COLUMN api_key_expires_at timestamptz,
      ADD COLUMN api_key_staff boolean NOT NULL DEFAULT false,
      ADD COLUMN totp_secret varchar(400),
      ADD COLUMN totp_pending_secret varchar(400),
      ADD COLUMN totp_enabled_at timestamptz,
      ADD COLUMN login_failures int NOT NULL DEFAULT 0,
      ADD COLUMN login_locked_until timestamptz`);
    // Keys made before expiry existed get the default lifetime from now, and no longer act as staff.
    await q.query(
      `UPDATE users SET api_key_expires_at = now() + interval '90 days' WHERE api_key_hash IS NOT NULL`,
    );
    // Staff and the first admin were chosen by people who know them; customers verify through the emailed link.
    await q.query(`UPDATE users SET email_verified_at = now() WHERE user_id IN (SELECT user_id FROM staff)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users
      DROP COLUMN email_verified_at,
      DROP COLUMN api_key_expires_at,
      DROP COLUMN api_key_staff,
      DROP COLUMN totp_secret,
      DROP COLUMN totp_pending_secret,
      DROP COLUMN totp_enabled_at,
      DROP COLUMN login_failures,
      DROP COLUMN login_locked_until`);
  }
}
