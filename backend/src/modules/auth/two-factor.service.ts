import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR_CODE_DIGITS, TWO_FACTOR_PERIOD_SECONDS } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { SecretBox } from '../../common/crypto/secret-box';
import { badInput, conflict, DomainError, forbidden } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';
import { AccessPolicy } from '../organizations/access-policy';
import { CurrentPassword } from '../users/current-password';
import { UsersService } from '../users/users.service';

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'This code is not right. Type the 6-digit code your authenticator app shows now.',
  staffOnly: 'Two-factor sign-in is for staff accounts.',
  alreadyEnabled: 'Two-factor sign-in is already on for your account.',
  notStarted:
    'Start the set-up first: ask for a new key, add it to your authenticator app, then type its code.',
  notEnrolled: 'Two-factor sign-in is not on for your account.',
  mustKeep: 'Staff admins must keep two-factor sign-in on.',
  usedCode: 'This code was used already. Wait for the next code your authenticator app shows, then type it.',
} as const;

/** The code accepted: 6 digits, this period or the one before or after (clocks drift). */
const CODE = /^\d{6}$/;

/**
 * TOTP second factor for staff: a secret made at enrolment, shown as an otpauth URI and a manual key, stored
 * encrypted once the person proves their app has it by typing a code.
 */
@Injectable()
export class TwoFactorService {
  private readonly box: SecretBox;

  constructor(
    private readonly users: UsersService,
    private readonly policy: AccessPolicy,
    private readonly password: CurrentPassword,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  /** Starts (or restarts) enrolment: a fresh secret, not active until confirmed with a code. */
  async setup(principal: Principal): Promise<{ secret: string; otpauth_uri: string }> {
    const [user] = await this.staffUser(principal);
    if (user.enabled) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'two_factor_already_enabled');
    const secret = new Secret({ size: 20 });
    await this.users.setPendingTotp(principal.user_id, this.box.encrypt(secret.base32));
    return { secret: secret.base32, otpauth_uri: this.totp(secret.base32, principal.email).toString() };
  }

  /** Confirms enrolment with a code of the pending secret; from then on sign-in asks for a code. */
  async enable(principal: Principal, code: string): Promise<void> {
    const [user, pending] = await this.staffUser(principal);
    if (user.enabled) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'two_factor_already_enabled');
    if (!pending) throw badInput(TWO_FACTOR_MESSAGES.notStarted, 'two_factor_not_enrolled');
    const step = this.stepOf(this.box.decrypt(pending), principal.email, code);
    if (step === null) throw badInput(TWO_FACTOR_MESSAGES.wrongCode, 'invalid_two_factor_code');
    await this.users.confirmPendingTotp(principal.user_id, step);
  }

  /** Turns two-factor off, with the current password and a current code. Required staff admins cannot. */
  async disable(principal: Principal, password: string, code: string): Promise<void> {
    await this.password.check(principal.user_id, password);
    if (this.env.staff2faRequired && principal.staffRole === 'admin') {
      throw forbidden(TWO_FACTOR_MESSAGES.mustKeep, 'forbidden');
    }
    const verdict = await this.verify(principal.user_id, code);
    if (verdict === 'used') throw badInput(TWO_FACTOR_MESSAGES.usedCode, 'two_factor_code_used');
    if (verdict !== 'ok') throw badInput(TWO_FACTOR_MESSAGES.wrongCode, 'invalid_two_factor_code');
    await this.users.clearTotp(principal.user_id);
  }

  /**
   * Checks a code against the user's active secret and spends it: 'ok' once, 'used' when that code (or a later
   * one) was accepted before, so a code seen over someone's shoulder cannot be replayed within its window;
   * 'wrong' otherwise, also when no secret is set.
   */
  async verify(user_id: number, code: string): Promise<'ok' | 'used' | 'wrong'> {
    const row = await this.users.twoFactorState(user_id);
    if (!row?.totp_enabled_at || !row.totp_secret) return 'wrong';
    const step = this.stepOf(this.box.decrypt(row.totp_secret), row.email, code);
    if (step === null) return 'wrong';
    return (await this.users.spendTotpStep(user_id, step)) ? 'ok' : 'used';
  }

  /** The time step whose code this is (this period or the one before or after), or null when it is not one. */
  private stepOf(secret: string, email: string, code: string): number | null {
    const trimmed = code.replace(/\s+/g, '');
    if (!CODE.test(trimmed)) return null;
    const totp = this.totp(secret, email);
    const timestamp = Date.now();
    const delta = totp.validate({ token: trimmed, window: 1, timestamp });
    return delta === null ? null : totp.counter({ timestamp }) + delta;
  }

  private totp(base32: string, email: string): TOTP {
    return new TOTP({
      issuer: new URL(this.env.publicUrl).host,
      label: email,
      algorithm: 'SHA1',
      digits: TWO_FACTOR_CODE_DIGITS,
      period: TWO_FACTOR_PERIOD_SECONDS,
      secret: Secret.fromBase32(base32),
    });
  }

  /** The caller's two-factor state; only staff signed in with a session may change it. */
  private async staffUser(principal: Principal): Promise<[{ enabled: boolean }, string | null]> {
    this.policy.demandSession(principal);
    if (!this.policy.permits(principal, 'twoFactor.manage')) {
      throw forbidden(TWO_FACTOR_MESSAGES.staffOnly, 'forbidden');
    }
    const row = await this.users.twoFactorState(principal.user_id);
    if (!row) throw new DomainError(404, 'user_not_found', 'User not found.');
    return [{ enabled: row.totp_enabled_at !== null }, row.totp_pending_secret];
  }
}
