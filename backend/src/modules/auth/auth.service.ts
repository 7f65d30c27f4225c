import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from '../../common/auth/access-token';
import type { Principal } from '../../common/auth/principal';
import { sha256 } from '../../common/crypto/secret-box';
import { badInput, DomainError, forbidden, unauthorized } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';
import { MailService } from '../mail/mail.service';
import { RealtimeService } from '../realtime/realtime.service';
import { cancelKeys } from '../generation/generation-bus';
import { GenerationService } from '../generation/generation.service';
import { hashPassword, verifyPassword } from '../users/password';
import { normalizeEmail } from '../users/user-fields';
import { UsersService } from '../users/users.service';
import { AuthSessionDto, TokenPairDto } from './dto/auth-responses.dto';
import { LoginDto, SignupDto } from './dto/auth-requests.dto';
import type { AuthTokenPurpose } from './session.entity';
import {
  randomToken,
  RESET_TOKEN_TTL_MS,
  resetPasswordLink,
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
} as const;

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
    private readonly db: DataSource,
    private readonly users: UsersService,
    private readonly appConfig: AppConfigService,
    private readonly mail: MailService,
    @Inject(APP_ENV) private readonly env: AppEnv,
    /** Ends the sockets of a session that ends; optional so auth works in apps without the real-time channel. */
    @Optional() private readonly realtime?: RealtimeService,
    /** Stops the generations a session asked for when it ends (on every instance). */
    @Optional() private readonly generation?: GenerationService,
  ) {}

  /** A session ended: its sockets close and the generations it asked for stop. */
  private sessionEnded(session_id: string): void {
    this.realtime?.disconnectSession(session_id);
    this.generation?.cancel(cancelKeys.session(session_id));
  }

  /** Every session of a user ended. */
  private userSessionsEnded(user_id: number): void {
    this.realtime?.disconnectUser(user_id);
    this.generation?.cancel(cancelKeys.user(user_id));
  }

  async signup(input: SignupDto, client: ClientInfo): Promise<AuthSessionDto> {
    if (!(await this.appConfig.getFlag('signup_enabled'))) {
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
    return session;
  }

  async login(input: LoginDto, client: ClientInfo): Promise<AuthSessionDto> {
    const user = await this.users.findWithPasswordHash({ email: input.email });
    if (!user) {
      this.dummyHash ??= hashPassword(randomToken());
      await verifyPassword(await this.dummyHash, input.password);
      throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials');
    }
    if (!(await verifyPassword(user.password_hash, input.password))) {
      throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials');
    }
    return this.openSession(user.user_id, client);
  }

  /**
   * Spends the refresh token and answers a new pair. A spent token coming back means it was copied: the whole
   * session is revoked, so both the thief and the owner must sign in again.
   */
  async refresh(refreshToken: string): Promise<TokenPairDto> {
    const outcome = await this.db.transaction(async (tx) => {
      const [row]: {
        refresh_token_id: string;
        spent_at: Date | null;
        token_expires_at: Date;
        session_id: string;
        user_id: number;
        revoked_at: Date | null;
        session_expires_at: Date;
      }[] = await tx.query(
        `SELECT rt.refresh_token_id, rt.spent_at, rt.expires_at AS token_expires_at,
                s.session_id, s.user_id, s.revoked_at, s.expires_at AS session_expires_at
           FROM refresh_tokens rt JOIN sessions s ON s.session_id = rt.session_id
          WHERE rt.token_hash = $1
          FOR UPDATE OF rt, s`,
        [sha256(refreshToken)],
      );
      if (!row) return { error: unauthorized(AUTH_MESSAGES.sessionInvalid, 'invalid_refresh_token') };
      if (row.revoked_at) return { error: unauthorized(AUTH_MESSAGES.sessionEnded, 'session_ended') };
      if (row.spent_at) {
        await this.endSessions(tx, { session_id: row.session_id }, 'refresh_token_reused');
        return {
          error: unauthorized(AUTH_MESSAGES.refreshReused, 'refresh_token_reused'),
          ended: row.session_id,
        };
      }
      const now = Date.now();
      if (row.token_expires_at.getTime() <= now || row.session_expires_at.getTime() <= now) {
        return { error: unauthorized(AUTH_MESSAGES.sessionExpired, 'token_expired') };
      }
      await tx.query(`UPDATE refresh_tokens SET spent_at = now() WHERE refresh_token_id = $1`, [
        row.refresh_token_id,
      ]);
      const expires = new Date(now + SESSION_TTL_MS);
      await tx.query(`UPDATE sessions SET expires_at = $2 WHERE session_id = $1`, [row.session_id, expires]);
      await tx.query(`UPDATE users SET last_used = now() WHERE user_id = $1`, [row.user_id]);
      const refresh_token = await this.insertRefreshToken(tx, row.session_id, expires);
      return { pair: this.pair(row.user_id, row.session_id, refresh_token) };
    });
    // Thrown after the transaction so that the revocation of a reused token's session is committed.
    if ('ended' in outcome && outcome.ended) this.sessionEnded(outcome.ended);
    if ('error' in outcome) throw outcome.error;
    return outcome.pair;
  }

  /** Ends the session the refresh token belongs to. Unknown tokens are ignored: the caller is signed out either way. */
  async logout(refreshToken: string): Promise<void> {
    const ended = await this.db.transaction(async (tx) => {
      const [row]: { session_id: string }[] = await tx.query(
        `SELECT session_id FROM refresh_tokens WHERE token_hash = $1`,
        [sha256(refreshToken)],
      );
      if (row) await this.endSessions(tx, { session_id: row.session_id }, 'logout');
      return row?.session_id;
    });
    // After the commit, so a socket that reconnects at once already finds the session ended.
    if (ended) this.sessionEnded(ended);
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
    const [staff]: { role: string }[] = await this.db.query(`SELECT role FROM staff WHERE user_id = $1`, [
      user.user_id,
    ]);
    if (staff && actor.staffRole !== 'admin') {
      throw forbidden('Only an admin can create a reset link for a staff account.', 'staff_account');
    }
    return this.createResetLink(user.user_id);
  }

  /** Sets a new password from a reset token; every session of the user ends, and other reset links die. */
  async resetPassword(token: string, password: string): Promise<void> {
    const password_hash = await hashPassword(password);
    const user_id = await this.db.transaction(async (tx) => {
      const user_id = await this.consumeToken(tx, token, 'reset_password', {
        invalid: () => badInput(AUTH_MESSAGES.resetInvalid, 'invalid_reset_token'),
        expired: () => badInput(AUTH_MESSAGES.resetExpired, 'reset_token_expired'),
      });
      await tx.query(`UPDATE users SET password_hash = $2, "updatedAt" = now() WHERE user_id = $1`, [
        user_id,
        password_hash,
      ]);
      await tx.query(
        `UPDATE auth_tokens SET used_at = now()
          WHERE user_id = $1 AND purpose = 'reset_password' AND used_at IS NULL`,
        [user_id],
      );
      await this.endSessions(tx, { user_id }, 'password_changed');
      return user_id;
    });
    this.userSessionsEnded(user_id);
  }

  /** A one-time sign-in token for the user (valid 5 minutes), e.g. for staff opening a customer's account. */
  async issueSignInToken(user_id: number): Promise<{ token: string; expires_at: Date }> {
    return this.issueToken(user_id, 'sign_in', SIGN_IN_TOKEN_TTL_MS);
  }

  /** Exchanges a one-time sign-in token for a session. */
  async exchangeSignInToken(token: string, client: ClientInfo): Promise<AuthSessionDto> {
    const user_id = await this.consumeToken(this.db.manager, token, 'sign_in', {
      invalid: () => unauthorized(AUTH_MESSAGES.signInInvalid, 'invalid_sign_in_token'),
      expired: () => unauthorized(AUTH_MESSAGES.signInExpired, 'sign_in_token_expired'),
    });
    return this.openSession(user_id, client);
  }

  /** Ends every open session of a user (for others: role changes, account lock). */
  async revokeAllSessions(user_id: number, reason: string): Promise<void> {
    await this.endSessions(this.db.manager, { user_id }, reason);
    this.userSessionsEnded(user_id);
  }

  private async openSession(user_id: number, client: ClientInfo): Promise<AuthSessionDto> {
    const expires = new Date(Date.now() + SESSION_TTL_MS);
    const pair = await this.db.transaction(async (tx) => {
      const [{ session_id }]: { session_id: string }[] = await tx.query(
        `INSERT INTO sessions (user_id, expires_at, user_agent) VALUES ($1, $2, $3) RETURNING session_id`,
        [user_id, expires, client.user_agent?.slice(0, 300) || null],
      );
      await tx.query(`UPDATE users SET last_used = now() WHERE user_id = $1`, [user_id]);
      const refresh_token = await this.insertRefreshToken(tx, session_id, expires);
      return this.pair(user_id, session_id, refresh_token);
    });
    return { ...pair, user: await this.users.toPublicUser(user_id) };
  }

  private async insertRefreshToken(tx: EntityManager, session_id: string, expires: Date): Promise<string> {
    const token = randomToken();
    await tx.query(`INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES ($1, $2, $3)`, [
      sha256(token),
      session_id,
      expires,
    ]);
    return token;
  }

  private pair(user_id: number, session_id: string, refresh_token: string): TokenPairDto {
    return {
      access_token: signAccessToken(this.env.appSecret, { sub: user_id, sid: session_id }),
      refresh_token,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }

  private async endSessions(
    tx: EntityManager,
    which: { session_id: string } | { user_id: number },
    /** Recorded on the session: logout, refresh_token_reused, password_changed, or the caller's reason. */
    reason: string,
  ): Promise<void> {
    const [column, value] =
      'session_id' in which ? ['session_id', which.session_id] : ['user_id', which.user_id];
    await tx.query(
      `UPDATE sessions SET revoked_at = now(), revoked_reason = $2 WHERE ${column} = $1 AND revoked_at IS NULL`,
      [value, reason.slice(0, 40)],
    );
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
    await this.db.query(
      `INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`,
      [sha256(token), user_id, purpose, expires_at],
    );
    return { token, expires_at };
  }

  /** Marks a single-use token used, atomically, and answers its user; the caller's errors say why not. */
  private async consumeToken(
    manager: EntityManager,
    token: string,
    purpose: AuthTokenPurpose,
    errors: { invalid: () => DomainError; expired: () => DomainError },
  ): Promise<number> {
    const hash = sha256(token);
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver.
    const [used]: [{ user_id: number }[], number] = await manager.query(
      `UPDATE auth_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [hash, purpose],
    );
    if (used[0]) return used[0].user_id;
    const [stale]: { used_at: Date | null }[] = await manager.query(
      `SELECT used_at FROM auth_tokens WHERE token_hash = $1 AND purpose = $2`,
      [hash, purpose],
    );
    if (stale && stale.used_at === null) throw errors.expired();
    throw errors.invalid();
  }
}
