import { verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { badInput, forbidden, tooManyRequests } from '../errors/domain-error';

export const WRONG_PASSWORD = 'Your current password is not correct. Please type it again.';
/** Wrong passwords in a row (typed here or at sign-in) before the account locks; then each doubles the lock. */
const FAILURES_BEFORE_LOCK = 5;
/** The longest lock: 15 minutes. */
const LOCK_MAX_SECONDS = 15 * 60;

/**
 * One more wrong password for an account (at sign-in or re-entered here); from the fifth in a row the account
 * locks for 2^failures seconds, 15 minutes at most.
 */
export async function recordPasswordFailure(db: DataSource | EntityManager, user_id: number): Promise<void> {
  await db.query(
    `UPDATE users SET login_failures = login_failures + 1,
            login_locked_until = CASE WHEN login_failures + 1 >= $2
              THEN now() + make_interval(secs => LEAST(power(2, LEAST(login_failures + 1, 30)), $3))
              ELSE login_locked_until END
      WHERE user_id = $1`,
    [user_id, FAILURES_BEFORE_LOCK, LOCK_MAX_SECONDS],
  );
}

/**
 * Password re-entry before a dangerous act (deleting the account, creating an API key, editing a secret
 * setting): a stolen session alone cannot do them. Wrong passwords count with failed sign-ins and lock the same
 * way, so a stolen session cannot guess the password here without limit.
 */
@Injectable()
export class CurrentPassword {
  constructor(private readonly db: DataSource) {}

  async check(user_id: number, password: string | undefined | null): Promise<void> {
    if (typeof password !== 'string' || password === '') {
      throw badInput('Please type your current password to confirm.', 'password_incorrect');
    }
    const [row]: { password_hash: string; wait_seconds: number }[] = await this.db.query(
      `SELECT password_hash,
              GREATEST(0, ceil(extract(epoch FROM login_locked_until - now())))::int AS wait_seconds
         FROM users WHERE user_id = $1`,
      [user_id],
    );
    if (row && row.wait_seconds > 0) {
      throw tooManyRequests(
        'Too many wrong passwords for this account. For your security, try again later.',
        row.wait_seconds,
        'login_locked',
      );
    }
    let ok = false;
    try {
      ok = !!row && (await verify(row.password_hash, password));
    } catch {
      ok = false;
    }
    if (!ok) {
      await recordPasswordFailure(this.db, user_id);
      throw forbidden(WRONG_PASSWORD, 'password_incorrect');
    }
    await this.db.query(
      `UPDATE users SET login_failures = 0, login_locked_until = NULL
        WHERE user_id = $1 AND (login_failures <> 0 OR login_locked_until IS NOT NULL)`,
      [user_id],
    );
  }
}
