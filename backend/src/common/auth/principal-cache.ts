import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseNotifications } from '../../database/database-notifications';
import { PRINCIPAL_CHANGED_CHANNEL } from '../../database/notification-channels';
import type { Principal } from './principal';

/** Sessions remembered at most; the oldest goes first. */
export const PRINCIPAL_CACHE_MAX_ENTRIES = 20_000;
/** How long a session's principal is reused; changes end it earlier through the database's notifications. */
export const PRINCIPAL_CACHE_MAX_AGE_MS = 30_000;

interface Entry {
  principal: Principal;
  /** The users whose change ends this entry: the session's user and whoever is viewing the account through it. */
  userIds: number[];
  /** The session's own end (ms since the epoch); the entry is never used past it. */
  sessionExpiresAt: number;
  cachedAt: number;
}

/**
 * Who a signed-in session belongs to (its user, staff role, viewer), kept for a moment per instance so a request
 * does not read the session, the user and the staff role again. Correct only while nothing it holds can change
 * unseen: the database notifies every instance at the commit of any change to them (migration
 * PrincipalChangeNotifications), so the cache works only while this instance listens; while it does not (a lost
 * connection) every request reads. A read that overlaps a change is not kept.
 */
@Injectable()
export class PrincipalCache implements OnApplicationBootstrap {
  private readonly entries = new Map<string, Entry>();
  private listening = false;
  /** Counts changes heard; a read kept only when no change came while it ran. */
  private changes = 0;

  constructor(private readonly notifications: DatabaseNotifications) {}

  onApplicationBootstrap(): void {
    this.notifications.listen(PRINCIPAL_CHANGED_CHANNEL, {
      ready: () => {
        this.forgetAll();
        this.listening = true;
      },
      message: (payload) => {
        const user_id = Number(payload);
        if (Number.isInteger(user_id)) this.forgetUser(user_id);
        else this.forgetAll();
      },
      gap: () => {
        this.listening = false;
        this.forgetAll();
      },
    });
  }

  /** Whether sessions are being remembered (this instance hears every change). */
  get active(): boolean {
    return this.listening;
  }

  get(user_id: number, session_id: string, now = Date.now()): Principal | undefined {
    const key = `${user_id}:${session_id}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now >= entry.sessionExpiresAt || now - entry.cachedAt >= PRINCIPAL_CACHE_MAX_AGE_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  /** Taken before reading a session; keep() refuses the result if a change was heard since. */
  ticket(): number {
    return this.changes;
  }

  keep(
    ticket: number,
    principal: Principal,
    entry: { userIds: number[]; sessionExpiresAt: Date },
    now = Date.now(),
  ): void {
    if (!this.listening || ticket !== this.changes || principal.session_id === null) return;
    if (this.entries.size >= PRINCIPAL_CACHE_MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(`${principal.user_id}:${principal.session_id}`, {
      principal: Object.freeze(principal),
      userIds: entry.userIds,
      sessionExpiresAt: entry.sessionExpiresAt.getTime(),
      cachedAt: now,
    });
  }

  /**
   * Something about this user changed: their sessions, and the sessions they view, are read again. The owner of
   * the change calls it right after its commit, so the next request on this instance sees the change even before
   * the database's notification arrives (which tells the other instances).
   */
  forgetUser(user_id: number): void {
    this.changes++;
    for (const [key, entry] of this.entries) if (entry.userIds.includes(user_id)) this.entries.delete(key);
  }

  /** A session ended here; the database's notification tells the other instances. */
  forgetSession(session_id: string): void {
    this.changes++;
    for (const [key, entry] of this.entries)
      if (entry.principal.session_id === session_id) this.entries.delete(key);
  }

  forgetAll(): void {
    this.changes++;
    this.entries.clear();
  }
}
