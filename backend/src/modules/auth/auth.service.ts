import { PrincipalCache } from '../../common/auth/principal-cache';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from '../../common/auth/access-token';
import type { Principal } from '../../common/auth/principal';
import { sha256 } from '../../common/crypto/secret-box';
import { badInput, conflict, DomainError, forbidden, unauthorized } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { AppConfigService } from '../app-config/app-config.service';
import { currentAuditActor } from '../audit/audit-context';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { RealtimeService } from '../realtime/realtime.service';
import { cancelKeys } from '../generation/generation-bus';
import { GenerationService } from '../generation/generation.service';
import { hashPassword, verifyPassword } from '../users/password';
import { normalizeEmail } from '../users/user-fields';
import { UsersService } from '../users/users.service';
import { StaffService } from '../staff/staff.service';
import { AccessPolicy } from '../organizations/access-policy';
import { AuthRepository } from './auth.repository';
import { AuthSessionDto, TokenPairDto, TwoFactorChallengeDto } from './dto/auth-responses.dto';
import { tooManyRequests } from './auth-rate-limit';
import {
  emailTag,
  readVerificationToken,
  signVerificationToken,
  verifyEmailLink,
} from './email-verification';
import { TwoFactorService, TWO_FACTOR_MESSAGES } from './two-factor.service';
import { LoginDto, SignupDto } from './dto/auth-requests.dto';
import type { AuthTokenPurpose } from './session.entity';
import {
  randomToken,
  RESET_TOKEN_TTL_MS,
  resetPasswordLink,
  IMPERSONATION_CODE_TTL_MS,
  IMPERSONATION_SESSION_TTL_MS,
  SESSION_TTL_MS,
  SIGN_IN_TOKEN_TTL_MS,
} from './tokens';

export const AUTH_MESSAGES = {
  invalidCredentials: 'Email or password is incorrect, please try again.',
  accountNotFound:
    'We did not found any account with this email. Could your account be under a different email?',
  signupDisabled: 'Sign-up is disabled. Please contact us to get an account.',
  sessionInvalid: 'Your session is not valid, please sign in again.',
  sessionExpired: 'Your session has expired, please sign in again.',
  sessionEnded: 'Your session has ended, please sign in again.',
  refreshReused: 'This session was ended for your security, please sign in again.',
  resetInvalid: 'This password reset link is not valid anymore, please request a new one.',
  resetExpired: 'This password reset link has expired, please request a new one.',
  signInInvalid: 'This sign-in link is not valid anymore, please sign in.',
  signInExpired: 'This sign-in link has expired, please sign in.',
  impersonationInvalid:
    'This link to open the account was used already or is not valid. Open it again from the back office.',
  impersonationExpired: 'This link to open the account has expired. Open it again from the back office.',
  sessionTooOld: 'Your session has reached its maximum length, please sign in again.',
  challengeInvalid: 'This sign-in step has expired, please sign in again.',
  verifyInvalid: 'This verification link is not valid. Ask for a new one from Settings.',
  verifyExpired: 'This verification link has expired. Ask for a new one from Settings.',
  alreadyVerified: 'Your email address is already verified.',
} as const;

/** A password-checked sign-in waits this long for its two-factor code. */
export const TWO_FACTOR_CHALLENGE_TTL_MS = 5 * 60 * 1000;

function lockedMessage(seconds: number): string {
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `Too many failed sign-ins for this account. For your security, try again in ${wait}.`;
}

/** What a client tells us about itself when a session opens. */
export interface ClientInfo {
  user_agent?: string | null;
}

/**
 * Our own sign-in: sessions with rotating refresh tokens, short access JWTs bound to the session, password
 * reset links and one-time sign-in tokens. Every session check happens on each request (PrincipalResolver).
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  /** Checked against when the email is unknown, so a wrong email costs as long as a wrong password. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly repo: AuthRepository,
    private readonly transactions: UnitOfWork,
    private readonly users: UsersService,
    private readonly flags: FeatureFlagsService,
    private readonly staff: StaffService,
    private readonly policy: AccessPolicy,
    private readonly appConfig: AppConfigService,
    private readonly mail: MailService,
    private readonly twoFactor: TwoFactorService,
    /** Sessions this instance remembers; one that ends here is forgotten at once, before the database's notice. */
    private readonly principals: PrincipalCache,
    @Inject(APP_ENV) private readonly env: AppEnv,
    /** Ends the sockets of a session that ends; optional so auth works in apps without the real-time channel. */
    @Optional() private readonly realtime?: RealtimeService,
    @Optional() private readonly audit?: AuditService,
    /** Stops the generations a session asked for when it ends (on every instance). */
    @Optional() private readonly generation?: GenerationService,
  ) {}

  /** A session ended: its sockets close and the generations it asked for stop. */
  private sessionEnded(session_id: string): void {
    this.principals.forgetSession(session_id);
    this.realtime?.disconnectSession(session_id);
    this.generation?.cancel(cancelKeys.session(session_id));
  }

  /** Every session of a user ended. */
  private userSessionsEnded(user_id: number): void {
    this.principals.forgetUser(user_id);
    this.realtime?.disconnectUser(user_id);
    this.generation?.cancel(cancelKeys.user(user_id));
  }

  async signup(input: SignupDto, client: ClientInfo): Promise<AuthSessionDto> {
    if (!(await this.flags.isOnNow('signup_enabled'))) {
      throw forbidden(AUTH_MESSAGES.signupDisabled, 'signup_disabled');
    }
    const user = await this.users.createUser({
      name: input.name,
      last_name: input.last_name,
      email: input.email,
      phone: input.phone,
      password: input.password,
      signup_reason: input.signup_reason ?? null,
    });
    const session = await this.openSession(user.user_id, client);
    try {
      await this.mail.sendWelcome(user);
    } catch (err) {
      // The account exists and is usable; a mail queue hiccup must not turn sign-up into an error.
      this.logger.warn(`Welcome email for user ${user.user_id} not queued: ${(err as Error).message}`);
    }
    await this.sendVerification(user);
    return session;
  }

  /**
   * Email and password. A locked account (after repeated failures) answers 429 before the password is checked;
   * an account with two-factor on answers a challenge to complete with POST /auth/login/2fa.
   */
  async login(input: LoginDto, client: ClientInfo): Promise<AuthSessionDto | TwoFactorChallengeDto> {
    const user = await this.users.signInState({ email: normalizeEmail(input.email) });
    if (!user) {
      this.dummyHash ??= hashPassword(randomToken());
      await verifyPassword(await this.dummyHash, input.password);
      throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials');
    }
    this.refuseWhileLocked(user.login_locked_until);
    if (!(await verifyPassword(user.password_hash, input.password))) {
      await this.recordFailure(user.user_id);
      throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials');
    }
    if (user.totp_enabled) {
      // The failure count stays until the code is right too, so guessing codes locks the account as well.
      const { token } = await this.issueToken(user.user_id, 'two_factor', TWO_FACTOR_CHALLENGE_TTL_MS);
      return {
        two_factor_required: true,
        challenge_token: token,
        expires_in: TWO_FACTOR_CHALLENGE_TTL_MS / 1000,
      };
    }
    await this.resetFailures(user.user_id);
    return this.openSession(user.user_id, client);
  }

  /** The second step of a sign-in with two-factor on: the challenge from login and a current code. */
  async loginTwoFactor(challenge: string, code: string, client: ClientInfo): Promise<AuthSessionDto> {
    const challengeUser = await this.repo.openTokenUser(sha256(challenge), 'two_factor');
    const row = challengeUser === null ? null : await this.users.signInState({ user_id: challengeUser });
    if (!row) throw unauthorized(AUTH_MESSAGES.challengeInvalid, 'invalid_two_factor_challenge');
    this.refuseWhileLocked(row.login_locked_until);
    const verdict = await this.twoFactor.verify(row.user_id, code);
    if (verdict !== 'ok') {
      await this.recordFailure(row.user_id);
      throw verdict === 'used'
        ? unauthorized(TWO_FACTOR_MESSAGES.usedCode, 'two_factor_code_used')
        : unauthorized(TWO_FACTOR_MESSAGES.wrongCode, 'invalid_two_factor_code');
    }
    const user_id = await this.consumeToken(undefined, challenge, 'two_factor', {
      invalid: () => unauthorized(AUTH_MESSAGES.challengeInvalid, 'invalid_two_factor_challenge'),
      expired: () => unauthorized(AUTH_MESSAGES.challengeInvalid, 'invalid_two_factor_challenge'),
    });
    await this.resetFailures(user_id);
    return this.openSession(user_id, client);
  }

  private refuseWhileLocked(lockedUntil: Date | null): void {
    const waitMs = lockedUntil ? lockedUntil.getTime() - Date.now() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw tooManyRequests(lockedMessage(seconds), seconds, 'login_locked');
    }
  }

  /** One more failure; from the fifth in a row the account locks (see UsersRepository.recordPasswordFailure). */
  private async recordFailure(user_id: number): Promise<void> {
    await this.users.recordPasswordFailure(user_id);
  }

  private async resetFailures(user_id: number): Promise<void> {
    await this.users.resetPasswordFailures(user_id);
  }

  /**
   * Spends the refresh token and answers a new pair. A spent token coming back means it was copied: the whole
   * session is revoked, so both the thief and the owner must sign in again.
   */
  async refresh(refreshToken: string): Promise<TokenPairDto> {
    const outcome = await this.transactions.run(async (tx) => {
      const locked = await this.repo.lockRefresh(sha256(refreshToken), tx);
      if (!locked) return { error: unauthorized(AUTH_MESSAGES.sessionInvalid, 'invalid_refresh_token') };
      const { token, session } = locked;
      if (session.revoked_at) return { error: unauthorized(AUTH_MESSAGES.sessionEnded, 'session_ended') };
      if (token.spent_at) {
        await this.repo.endSessions({ session_id: session.session_id }, 'refresh_token_reused', tx);
        return {
          error: unauthorized(AUTH_MESSAGES.refreshReused, 'refresh_token_reused'),
          ended: session.session_id,
        };
      }
      const now = Date.now();
      const maxEnd = this.sessionEnd(session.createdAt, session.impersonated_by !== null);
      if (maxEnd <= now) return { error: unauthorized(AUTH_MESSAGES.sessionTooOld, 'token_expired') };
      if (token.expires_at.getTime() <= now || session.expires_at.getTime() <= now) {
        return { error: unauthorized(AUTH_MESSAGES.sessionExpired, 'token_expired') };
      }
      await this.repo.spendRefreshToken(token.refresh_token_id, tx);
      const expires = new Date(Math.min(now + SESSION_TTL_MS, maxEnd));
      await this.repo.extendSession(session.session_id, expires, tx);
      if (session.impersonated_by === null) await this.users.touchLastUsed(session.user_id, tx);
      const refresh_token = await this.insertRefreshToken(tx, session.session_id, expires);
      return { pair: this.pair(session.user_id, session.session_id, refresh_token) };
    });
    // Thrown after the transaction so that the revocation of a reused token's session is committed.
    if ('ended' in outcome && outcome.ended) this.sessionEnded(outcome.ended);
    if ('error' in outcome) throw outcome.error;
    return outcome.pair;
  }

  /** Ends the session the refresh token belongs to. Unknown tokens are ignored: the caller is signed out either way. */
  async logout(refreshToken: string): Promise<void> {
    const ended = await this.transactions.run(async (tx) => {
      const row = await this.repo.findRefreshToken(sha256(refreshToken), tx);
      if (row) await this.repo.endSessions({ session_id: row.session_id }, 'logout', tx);
      return row?.session_id;
    });
    // After the commit, so a socket that reconnects at once already finds the session ended.
    if (ended) this.sessionEnded(ended);
  }

  /**
   * "Sign out everywhere": every session of the user ends, the personal API key is revoked, and every open
   * socket closes.
   */
  async logoutAll(principal: Principal): Promise<void> {
    await this.transactions.run(async (tx) => {
      await this.repo.endSessions({ user_id: principal.user_id }, 'logout_all', tx);
      await this.users.clearApiKey(principal.user_id, tx);
    });
    this.principals.forgetUser(principal.user_id);
    this.realtime?.disconnectUser(principal.user_id);
  }

  /** Emails the user a link that verifies their address; failures are logged, never thrown at sign-up. */
  async sendVerification(user: { user_id: number; email: string; name: string }): Promise<void> {
    const token = signVerificationToken(this.env.appSecret, user.user_id, user.email);
    try {
      await this.mail.sendVerifyEmail(user, verifyEmailLink(this.env.publicUrl, token));
    } catch (err) {
      this.logger.warn(`Verification email for user ${user.user_id} not queued: ${(err as Error).message}`);
    }
  }

  /** Sends the verification link again (Settings); 409 when the address is already verified. */
  async resendVerification(principal: Principal): Promise<void> {
    const user = await this.users.findById(principal.user_id);
    if (!user) throw new DomainError(404, 'user_not_found', 'User not found.');
    if (user.email_verified_at) throw conflict(AUTH_MESSAGES.alreadyVerified, 'email_already_verified');
    await this.sendVerification(user);
  }

  /** Consumes a verification link: the address it was sent to is verified (again is harmless). */
  async verifyEmail(token: string): Promise<{ email: string; email_verified_at: Date }> {
    const read = readVerificationToken(this.env.appSecret, token);
    if (read === 'expired') throw badInput(AUTH_MESSAGES.verifyExpired, 'verification_link_expired');
    const user = read === 'invalid' ? null : await this.users.findById(read.user_id);
    // A link sent to an address the account no longer has verifies nothing.
    if (!user || read === 'invalid' || emailTag(user.email) !== read.emailTag) {
      throw badInput(AUTH_MESSAGES.verifyInvalid, 'invalid_verification_link');
    }
    const email_verified_at = await this.users.markEmailVerified(user.user_id);
    return { email: user.email, email_verified_at: email_verified_at! };
  }

  /** The recovery flow: emails a single-use reset link valid for 1 hour. 404 when no account has the email. */
  async sendPasswordReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw new DomainError(404, 'account_not_found', AUTH_MESSAGES.accountNotFound);
    const link = await this.createResetLink(user.user_id);
    await this.mail.sendResetPassword(user, link);
  }

  /**
   * Staff tool: a reset link to hand over instead of emailing it. Only an admin may get one for a staff
   * account, since the link takes the account over.
   */
  async resetLinkFor(email: string, actor: Principal): Promise<string> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    if (!user) throw new DomainError(404, 'account_not_found', AUTH_MESSAGES.accountNotFound);
    if (
      (await this.staff.roleOf(user.user_id)) &&
      !this.policy.permits(actor, 'users.staffAccountResetLink')
    ) {
      throw forbidden('Only an admin can create a reset link for a staff account.', 'staff_account');
    }
    return this.createResetLink(user.user_id);
  }

  /** Sets a new password from a reset token; every session of the user ends, and other reset links die. */
  async resetPassword(token: string, password: string): Promise<void> {
    const password_hash = await hashPassword(password);
    const user_id = await this.transactions.run(async (tx) => {
      const user_id = await this.consumeToken(tx, token, 'reset_password', {
        invalid: () => badInput(AUTH_MESSAGES.resetInvalid, 'invalid_reset_token'),
        expired: () => badInput(AUTH_MESSAGES.resetExpired, 'reset_token_expired'),
      });
      await this.users.setPasswordHash(user_id, password_hash, tx);
      await this.repo.spendAll(user_id, 'reset_password', tx);
      await this.repo.endSessions({ user_id }, 'password_changed', tx);
      await this.users.clearApiKey(user_id, tx);
      // The person proved they read the account's mail: the lock of failed sign-ins is lifted.
      await this.users.resetPasswordFailures(user_id, tx);
      return user_id;
    });
    this.userSessionsEnded(user_id);
  }

  /** A one-time sign-in token for the user (valid 5 minutes), e.g. for staff opening a customer's account. */
  async issueSignInToken(user_id: number): Promise<{ token: string; expires_at: Date }> {
    await this.audit?.record('user.sign_in_token_issued', { target_user_id: user_id });
    return this.issueToken(user_id, 'sign_in', SIGN_IN_TOKEN_TTL_MS);
  }

  /** Exchanges a one-time sign-in token for a session. */
  async exchangeSignInToken(token: string, client: ClientInfo): Promise<AuthSessionDto> {
    const user_id = await this.consumeToken(undefined, token, 'sign_in', {
      invalid: () => unauthorized(AUTH_MESSAGES.signInInvalid, 'invalid_sign_in_token'),
      expired: () => unauthorized(AUTH_MESSAGES.signInExpired, 'sign_in_token_expired'),
    });
    // A sign-in link must not skip the second factor of an account that has one.
    if ((await this.users.signInState({ user_id }))?.totp_enabled) {
      throw forbidden(
        'This account signs in with a two-factor code: please use the sign-in page.',
        'forbidden',
      );
    }
    return this.openSession(user_id, client);
  }

  /** Ends every open session of a user (for others: role changes, account lock). */
  async revokeAllSessions(user_id: number, reason: string): Promise<void> {
    await this.repo.endSessions({ user_id }, reason);
    this.userSessionsEnded(user_id);
  }

  /** Ends every open session of a user inside the caller's transaction (the caller closes sockets after it). */
  async endAllSessions(user_id: number, reason: string, tx: EntityManager): Promise<void> {
    await this.repo.endSessions({ user_id }, reason, tx);
  }

  /** Whether the session is the user's and still open (checked on every request). */
  isSessionActive(session_id: string, user_id: number): Promise<boolean> {
    return this.repo.isSessionActive(session_id, user_id);
  }

  /** When a session opened at `createdAt` ends at the latest, however often it is refreshed. */
  private sessionEnd(createdAt: Date, impersonated = false): number {
    if (impersonated) return createdAt.getTime() + IMPERSONATION_SESSION_TTL_MS;
    return createdAt.getTime() + this.env.sessionMaxDays * 24 * 60 * 60 * 1000;
  }

  /** The open session of the user with the staff admin viewing through it, if any (checked on every request). */
  openSessionState(
    session_id: string,
    user_id: number,
  ): Promise<{ impersonated_by: number | null; expires_at: Date } | null> {
    return this.repo.openSession(session_id, user_id);
  }

  /**
   * A staff admin opens a customer's account: a code that works once within a minute, exchanged in a new tab
   * (POST /auth/impersonation) for a short session as the customer. The caller checked who may be opened.
   */
  async issueImpersonationCode(
    admin_user_id: number,
    customer_id: number,
  ): Promise<{ code: string; expires_at: Date }> {
    const code = randomToken();
    const expires_at = new Date(Date.now() + IMPERSONATION_CODE_TTL_MS);
    await this.repo.insertToken({
      token_hash: sha256(code),
      user_id: customer_id,
      purpose: 'impersonation',
      expires_at,
      issued_by: admin_user_id,
    });
    await this.audit?.record('customer.impersonation_started', { target_user_id: customer_id });
    return { code, expires_at };
  }

  /**
   * Spends an impersonation code for a 15-minute session as the customer, naming the admin who asked. Refused when
   * that admin is no longer a staff admin or the account became staff since.
   */
  async exchangeImpersonationCode(
    code: string,
    client: ClientInfo,
  ): Promise<AuthSessionDto & { session_expires_at: Date }> {
    const outcome = await this.repo.consumeImpersonationCode(sha256(code));
    if (outcome === 'expired')
      throw unauthorized(AUTH_MESSAGES.impersonationExpired, 'impersonation_code_expired');
    if (outcome === 'invalid' || outcome.issued_by === null)
      throw unauthorized(AUTH_MESSAGES.impersonationInvalid, 'impersonation_code_invalid');
    const { user_id, issued_by } = outcome;
    const [adminRole, customerRole, admin] = await Promise.all([
      this.staff.roleOf(issued_by),
      this.staff.roleOf(user_id),
      this.users.identity(issued_by),
    ]);
    if (adminRole !== 'admin' || customerRole !== null || !admin)
      throw unauthorized(AUTH_MESSAGES.impersonationInvalid, 'impersonation_code_invalid');
    const session = await this.openSession(user_id, client, issued_by);
    await this.audit?.record('customer.impersonation_opened', { target_user_id: user_id }, undefined, {
      ...currentAuditActor(),
      principal: { user_id: admin.user_id, email: admin.email, staffRole: 'admin' },
    });
    return { ...session, session_expires_at: new Date(Date.now() + IMPERSONATION_SESSION_TTL_MS) };
  }

  private async openSession(
    user_id: number,
    client: ClientInfo,
    impersonated_by: number | null = null,
  ): Promise<AuthSessionDto> {
    const now = new Date();
    const expires = new Date(
      Math.min(now.getTime() + SESSION_TTL_MS, this.sessionEnd(now, impersonated_by !== null)),
    );
    const pair = await this.transactions.run(async (tx) => {
      const session_id = await this.repo.insertSession(
        {
          user_id,
          expires_at: expires,
          user_agent: client.user_agent?.slice(0, 300) || null,
          impersonated_by,
        },
        tx,
      );
      // Staff viewing the account is not the customer using it.
      if (impersonated_by === null) await this.users.touchLastUsed(user_id, tx);
      const refresh_token = await this.insertRefreshToken(tx, session_id, expires);
      return this.pair(user_id, session_id, refresh_token);
    });
    return { ...pair, user: await this.users.toPublicUser(user_id) };
  }

  private async insertRefreshToken(tx: EntityManager, session_id: string, expires: Date): Promise<string> {
    const token = randomToken();
    await this.repo.insertRefreshToken({ token_hash: sha256(token), session_id, expires_at: expires }, tx);
    return token;
  }

  private pair(user_id: number, session_id: string, refresh_token: string): TokenPairDto {
    return {
      access_token: signAccessToken(this.env.appSecret, { sub: user_id, sid: session_id }),
      refresh_token,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }

  private async createResetLink(user_id: number): Promise<string> {
    const { token } = await this.issueToken(user_id, 'reset_password', RESET_TOKEN_TTL_MS);
    return resetPasswordLink(this.env.publicUrl, token);
  }

  private async issueToken(
    user_id: number,
    purpose: AuthTokenPurpose,
    ttlMs: number,
  ): Promise<{ token: string; expires_at: Date }> {
    const token = randomToken();
    const expires_at = new Date(Date.now() + ttlMs);
    await this.repo.insertToken({ token_hash: sha256(token), user_id, purpose, expires_at });
    return { token, expires_at };
  }

  /** Marks a single-use token used, atomically, and answers its user; the caller's errors say why not. */
  private async consumeToken(
    tx: EntityManager | undefined,
    token: string,
    purpose: AuthTokenPurpose,
    errors: { invalid: () => DomainError; expired: () => DomainError },
  ): Promise<number> {
    const outcome = await this.repo.consumeToken(sha256(token), purpose, tx);
    if (outcome === 'expired') throw errors.expired();
    if (outcome === 'invalid') throw errors.invalid();
    return outcome;
  }
}
