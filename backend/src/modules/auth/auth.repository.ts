import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { AuthToken, AuthTokenPurpose, RefreshToken, Session } from './session.entity';

/** A refresh token with its session, both rows locked until the transaction ends. */
export interface LockedRefresh {
  token: RefreshToken;
  session: Session;
}

/** The sessions, refresh_tokens and auth_tokens tables: the only code that reads or writes them. */
@Injectable()
export class AuthRepository {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectRepository(AuthToken) private readonly tokens: Repository<AuthToken>,
  ) {}

  private sessionRepo(tx?: EntityManager): Repository<Session> {
    return tx ? tx.getRepository(Session) : this.sessions;
  }

  private tokenRepo(tx?: EntityManager): Repository<AuthToken> {
    return tx ? tx.getRepository(AuthToken) : this.tokens;
  }

  // ------------------------------------------------------------ sessions

  /** Whether the session is the user's, not revoked and not expired (checked on every request). */
  async isSessionActive(session_id: string, user_id: number): Promise<boolean> {
    return this.sessions.exists({
      where: { session_id, user_id, revoked_at: IsNull(), expires_at: MoreThan(new Date()) },
    });
  }

  /** The open session of the user with who, if anyone, is viewing the account through it; null when not open. */
  async openSession(
    session_id: string,
    user_id: number,
  ): Promise<{ impersonated_by: number | null; expires_at: Date } | null> {
    const row = await this.sessions.findOne({
      select: { session_id: true, impersonated_by: true, expires_at: true },
      where: { session_id, user_id, revoked_at: IsNull(), expires_at: MoreThan(new Date()) },
    });
    return row ? { impersonated_by: row.impersonated_by, expires_at: row.expires_at } : null;
  }

  async insertSession(
    values: { user_id: number; expires_at: Date; user_agent: string | null; impersonated_by?: number | null },
    tx: EntityManager,
  ): Promise<string> {
    const result = await this.sessionRepo(tx).insert(values);
    return (result.identifiers[0] as { session_id: string }).session_id;
  }

  async extendSession(session_id: string, expires_at: Date, tx: EntityManager): Promise<void> {
    await this.sessionRepo(tx).update({ session_id }, { expires_at });
  }

  /** Ends the session(s) still open; `reason` is recorded on them (40 characters at most). */
  async endSessions(
    which: { session_id: string } | { user_id: number },
    reason: string,
    tx?: EntityManager,
  ): Promise<void> {
    await this.sessionRepo(tx).update(
      { ...which, revoked_at: IsNull() },
      { revoked_at: () => 'now()', revoked_reason: reason.slice(0, 40) },
    );
  }

  // ------------------------------------------------------------ refresh tokens

  async findRefreshToken(token_hash: string, tx: EntityManager): Promise<RefreshToken | null> {
    return tx.getRepository(RefreshToken).findOneBy({ token_hash });
  }

  /** The refresh token and its session, locked in that order (as every refresh takes them). */
  async lockRefresh(token_hash: string, tx: EntityManager): Promise<LockedRefresh | null> {
    const token = await tx
      .getRepository(RefreshToken)
      .createQueryBuilder('rt')
      .where('rt.token_hash = :token_hash', { token_hash })
      .setLock('pessimistic_write')
      .getOne();
    if (!token) return null;
    const session = await this.sessionRepo(tx)
      .createQueryBuilder('s')
      .where('s.session_id = :session_id', { session_id: token.session_id })
      .setLock('pessimistic_write')
      .getOne();
    return session ? { token, session } : null;
  }

  async spendRefreshToken(refresh_token_id: string, tx: EntityManager): Promise<void> {
    await tx.getRepository(RefreshToken).update({ refresh_token_id }, { spent_at: () => 'now()' });
  }

  async insertRefreshToken(
    values: { token_hash: string; session_id: string; expires_at: Date },
    tx: EntityManager,
  ): Promise<void> {
    await tx.getRepository(RefreshToken).insert(values);
  }

  // ------------------------------------------------------------ single-use tokens

  async insertToken(values: {
    token_hash: string;
    user_id: number;
    purpose: AuthTokenPurpose;
    expires_at: Date;
    issued_by?: number | null;
  }): Promise<void> {
    await this.tokens.insert(values);
  }

  /** The user of an unused, unexpired token (without spending it). */
  async openTokenUser(token_hash: string, purpose: AuthTokenPurpose): Promise<number | null> {
    const token = await this.tokens.findOneBy({
      token_hash,
      purpose,
      used_at: IsNull(),
      expires_at: MoreThan(new Date()),
    });
    return token?.user_id ?? null;
  }

  /**
   * Marks the token used in one statement (two requests cannot both spend it) and answers its user; 'expired'
   * when it exists unused but too late, 'invalid' otherwise.
   */
  async consumeToken(
    token_hash: string,
    purpose: AuthTokenPurpose,
    tx?: EntityManager,
  ): Promise<number | 'expired' | 'invalid'> {
    const result = await this.tokenRepo(tx)
      .createQueryBuilder()
      .update(AuthToken)
      .set({ used_at: () => 'now()' })
      .where('token_hash = :token_hash AND purpose = :purpose', { token_hash, purpose })
      .andWhere('used_at IS NULL AND expires_at > now()')
      .returning(['user_id'])
      .execute();
    const used = (result.raw as { user_id: number }[])[0];
    if (used) return used.user_id;
    const stale = await this.tokenRepo(tx).findOneBy({ token_hash, purpose });
    return stale && stale.used_at === null ? 'expired' : 'invalid';
  }

  /** Spends an impersonation code in one statement (it works once); answers its customer and the admin who asked. */
  async consumeImpersonationCode(
    token_hash: string,
  ): Promise<{ user_id: number; issued_by: number | null } | 'expired' | 'invalid'> {
    const result = await this.tokens
      .createQueryBuilder()
      .update(AuthToken)
      .set({ used_at: () => 'now()' })
      .where(`token_hash = :token_hash AND purpose = 'impersonation'`, { token_hash })
      .andWhere('used_at IS NULL AND expires_at > now()')
      .returning(['user_id', 'issued_by'])
      .execute();
    const used = (result.raw as { user_id: number; issued_by: number | null }[])[0];
    if (used) return used;
    const stale = await this.tokens.findOneBy({ token_hash, purpose: 'impersonation' });
    return stale && stale.used_at === null ? 'expired' : 'invalid';
  }

  /** Every unused token of that purpose of the user stops working (other reset links die with a reset). */
  async spendAll(user_id: number, purpose: AuthTokenPurpose, tx: EntityManager): Promise<void> {
    await this.tokenRepo(tx).update({ user_id, purpose, used_at: IsNull() }, { used_at: () => 'now()' });
  }
}
