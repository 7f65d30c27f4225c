import { verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { badInput, forbidden } from '../errors/domain-error';

export const WRONG_PASSWORD = 'Your current password is not correct. Please type it again.';

/**
 * Password re-entry before a dangerous act (deleting the account, creating an API key, editing a secret
 * setting): a stolen session alone cannot do them.
 */
@Injectable()
export class CurrentPassword {
  constructor(private readonly db: DataSource) {}

  async check(user_id: number, password: string | undefined | null): Promise<void> {
    if (typeof password !== 'string' || password === '') {
      throw badInput('Please type your current password to confirm.', 'password_incorrect');
    }
    const [row]: { password_hash: string }[] = await this.db.query(
      `SELECT password_hash FROM users WHERE user_id = $1`,
      [user_id],
    );
    let ok = false;
    try {
      ok = !!row && (await verify(row.password_hash, password));
    } catch {
      ok = false;
    }
    if (!ok) throw forbidden(WRONG_PASSWORD, 'password_incorrect');
  }
}
