import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { APP_ENV, AppEnv, EnvError } from '../../config/env';
import { hashPassword, randomPassword } from '../users/password';

export const EMBEDDED_ADMIN_EMAIL = 'admin@localhost';

export type FirstAdminOutcome =
  | { action: 'exists' }
  | { action: 'created' | 'took_over'; email: string }
  | { action: 'created_with_random_password'; email: string; password: string }
  | { action: 'none' };

/** The start stops: an existing account has ADMIN_EMAIL and no ADMIN_PASSWORD was given to take it over. */
export class FirstAdminError extends EnvError {}

/**
 * An empty back office gets its first staff admin on start: ADMIN_EMAIL (+ ADMIN_PASSWORD to create the
 * account), or in embedded mode admin@localhost with a random password printed once; otherwise a warning
 * that says how to get one.
 */
@Injectable()
export class FirstAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger('FirstAdmin');

  constructor(
    private readonly db: DataSource,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureFirstAdmin();
  }

  async ensureFirstAdmin(env: AppEnv = this.env): Promise<FirstAdminOutcome> {
    const [{ any }]: { any: boolean }[] = await this.db.query(`SELECT EXISTS (SELECT 1 FROM staff) AS any`);
    if (any) return { action: 'exists' };
    // Hashing before the transaction keeps the lock short; the embedded database has a single connection.
    const password = env.adminPassword ?? randomPassword();
    const passwordHash = await hashPassword(password);
    const outcome = await this.db.transaction(async (tx): Promise<FirstAdminOutcome> => {
      // Several instances may start together; one of them decides.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('first-staff-admin'))`);
      const [{ count }]: { count: number }[] = await tx.query(`SELECT count(*)::int AS count FROM staff`);
      if (count > 0) return { action: 'exists' };

      if (env.adminEmail) {
        const existing = await this.userIdByEmail(tx, env.adminEmail);
        if (existing !== null) {
          // Anyone could have registered the address before it was chosen: the account is never promoted as it
          // is. With ADMIN_PASSWORD it becomes the operator's (new password, every session and key ended).
          if (!env.adminPassword) {
            throw new FirstAdminError(
              `ADMIN_EMAIL ${env.adminEmail} belongs to an account that already exists and is not staff; it was ` +
                'not made staff admin, since whoever registered it would then run the back office. Fix: set ' +
                'ADMIN_PASSWORD too (the account gets that password and its sessions and API key end), or choose ' +
                'another ADMIN_EMAIL, then start again.',
            );
          }
          await tx.query(
            `UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, now()),
                    api_key_hash = NULL, api_key_last4 = NULL, api_key_expires_at = NULL, api_key_staff = false,
                    totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL,
                    login_failures = 0, login_locked_until = NULL
              WHERE user_id = $1`,
            [existing, passwordHash],
          );
          await tx.query(
            `UPDATE sessions SET revoked_at = now(), revoked_reason = 'first_admin'
              WHERE user_id = $1 AND revoked_at IS NULL`,
            [existing],
          );
          await this.makeAdmin(tx, existing);
          return { action: 'took_over', email: env.adminEmail };
        }
        if (!env.adminPassword) return { action: 'none' };
        await this.makeAdmin(tx, await this.insertUser(tx, env.adminEmail, passwordHash));
        return { action: 'created', email: env.adminEmail };
      }
      if (env.databaseUrl === null) {
        const existing = await this.userIdByEmail(tx, EMBEDDED_ADMIN_EMAIL);
        if (existing !== null) {
          // The old password was printed once and may be lost; a fresh one is printed below.
          await tx.query(
            `UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, now())
              WHERE user_id = $1`,
            [existing, passwordHash],
          );
          await this.makeAdmin(tx, existing);
        } else {
          await this.makeAdmin(tx, await this.insertUser(tx, EMBEDDED_ADMIN_EMAIL, passwordHash));
        }
        return { action: 'created_with_random_password', email: EMBEDDED_ADMIN_EMAIL, password };
      }
      return { action: 'none' };
    });
    this.report(outcome);
    return outcome;
  }

  private report(outcome: FirstAdminOutcome): void {
    switch (outcome.action) {
      case 'created':
        this.logger.log(`Created the first staff admin ${outcome.email} (ADMIN_EMAIL).`);
        break;
      case 'took_over':
        this.logger.warn(
          `${outcome.email} (ADMIN_EMAIL) already had an account: it is now the first staff admin with ` +
            'ADMIN_PASSWORD as its password; its other sessions and its API key were ended.',
        );
        break;
      case 'created_with_random_password':
        this.logger.warn(
          `No staff admin existed: sign in as ${outcome.email} with password ${outcome.password} ` +
            '(shown only this once) and change it, or set ADMIN_EMAIL and ADMIN_PASSWORD.',
        );
        break;
      case 'none':
        this.logger.warn(
          'No staff admin exists. Set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create one.',
        );
        break;
    }
  }

  private async userIdByEmail(tx: EntityManager, email: string): Promise<number | null> {
    const [row]: { user_id: number }[] = await tx.query(`SELECT user_id FROM users WHERE email = $1`, [
      email.trim().toLowerCase(),
    ]);
    return row?.user_id ?? null;
  }

  private async insertUser(tx: EntityManager, email: string, passwordHash: string): Promise<number> {
    const [{ user_id }]: { user_id: number }[] = await tx.query(
      `INSERT INTO users (name, last_name, email, uid, password_hash, email_verified_at)
       VALUES ('Admin', '', $1, $2, $3, now()) RETURNING user_id`,
      [email.trim().toLowerCase(), randomUUID(), passwordHash],
    );
    return user_id;
  }

  private async makeAdmin(tx: EntityManager, user_id: number): Promise<void> {
    await tx.query(
      `INSERT INTO staff (user_id, role) VALUES ($1, 'admin')
       ON CONFLICT (user_id) DO UPDATE SET role = 'admin', "updatedAt" = now()`,
      [user_id],
    );
  }
}
