import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_ENV, AppEnv, EnvError } from '../../config/env';
import { UnitOfWork } from '../../database/unit-of-work';
import { StaffService } from '../staff/staff.service';
import { hashPassword, randomPassword } from '../users/password';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';

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
    private readonly transactions: UnitOfWork,
    private readonly users: UsersService,
    private readonly staff: StaffService,
    private readonly auth: AuthService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureFirstAdmin();
  }

  async ensureFirstAdmin(env: AppEnv = this.env): Promise<FirstAdminOutcome> {
    if (await this.staff.anyStaff()) return { action: 'exists' };
    // Hashing before the transaction keeps the lock short; the embedded database has a single connection.
    const password = env.adminPassword ?? randomPassword();
    const passwordHash = await hashPassword(password);
    const outcome = await this.transactions.run(async (tx): Promise<FirstAdminOutcome> => {
      // Several instances may start together; one of them decides.
      await this.staff.lockFirstAdmin(tx);
      if (await this.staff.anyStaff(tx)) return { action: 'exists' };

      if (env.adminEmail) {
        const existing = (await this.users.findByEmail(env.adminEmail, tx))?.user_id ?? null;
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
          await this.users.takeOverForFirstAdmin(existing, passwordHash, tx);
          await this.auth.endAllSessions(existing, 'first_admin', tx);
          await this.staff.makeAdmin(existing, tx);
          return { action: 'took_over', email: env.adminEmail };
        }
        if (!env.adminPassword) return { action: 'none' };
        await this.staff.makeAdmin(await this.users.createVerified(env.adminEmail, passwordHash, tx), tx);
        return { action: 'created', email: env.adminEmail };
      }
      if (env.databaseUrl === null) {
        const existing = (await this.users.findByEmail(EMBEDDED_ADMIN_EMAIL, tx))?.user_id ?? null;
        if (existing !== null) {
          // The old password was printed once and may be lost; a fresh one is printed below.
          await this.users.resetVerifiedPassword(existing, passwordHash, tx);
          await this.staff.makeAdmin(existing, tx);
        } else {
          await this.staff.makeAdmin(
            await this.users.createVerified(EMBEDDED_ADMIN_EMAIL, passwordHash, tx),
            tx,
          );
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
}
