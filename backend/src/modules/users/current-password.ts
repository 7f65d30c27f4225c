import { verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { badInput, forbidden, tooManyRequests } from '../../common/errors/domain-error';
import { UsersRepository } from './users.repository';

export const WRONG_PASSWORD = 'Your current password is not correct. Please type it again.';

const LOCKED_ANSWER =
  'login_locked: too many wrong passwords for this account (they count with failed sign-ins); Retry-After says when to try again';

/**
 * Declares a route that asks for the current password (CurrentPassword.check) in the OpenAPI document: its 429
 * while the account is locked. `also` names the route's other 429 answers, which a second declaration would
 * replace.
 */
export const AsksCurrentPassword = (also?: string) =>
  ApiTooManyRequestsResponse({ description: also ? `${LOCKED_ANSWER}; ${also}` : LOCKED_ANSWER });

/**
 * Password re-entry before a dangerous act (deleting the account, creating an API key, editing a secret
 * setting): a stolen session alone cannot do them. Wrong passwords count with failed sign-ins and lock the same
 * way, so a stolen session cannot guess the password here without limit.
 */
@Injectable()
export class CurrentPassword {
  constructor(private readonly users: UsersRepository) {}

  async check(user_id: number, password: string | undefined | null): Promise<void> {
    if (typeof password !== 'string' || password === '') {
      throw badInput('Please type your current password to confirm.', 'password_incorrect');
    }
    const state = await this.users.signInState({ user_id });
    const waitMs = state?.login_locked_until ? state.login_locked_until.getTime() - Date.now() : 0;
    if (waitMs > 0) {
      throw tooManyRequests(
        'Too many wrong passwords for this account. For your security, try again later.',
        Math.ceil(waitMs / 1000),
        'login_locked',
      );
    }
    let ok = false;
    try {
      ok = !!state && (await verify(state.password_hash, password));
    } catch {
      ok = false;
    }
    if (!ok) {
      await this.users.recordPasswordFailure(user_id);
      throw forbidden(WRONG_PASSWORD, 'password_incorrect');
    }
    await this.users.resetPasswordFailures(user_id);
  }
}
