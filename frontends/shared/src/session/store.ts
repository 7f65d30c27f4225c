/**
 * The session outside React: tokens in localStorage, the temporary sign-in uid, the chosen organization and
 * the sign-out path. The API client reads it on every request; the React providers subscribe to it.
 */
import { SIGNED_IN_HINT_COOKIE } from '@avatar-studio/contracts/routes';
import type { SessionPair } from '../api/contracts';

export const STORAGE_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  issuedAt: 'token_issued_at',
  temporaryUid: 'temporary_uid',
  organizationId: 'organization_id',
  language: 'lang',
  viewingAs: 'viewing_as',
} as const;

/** The customer a staff admin is viewing in this tab (the session ends at `expires_at`). */
export interface ViewingAs {
  user_id: number;
  name: string;
  expires_at: string;
}

/** The hash that carries a staff admin's one-time code into the new tab: `/#view-as=<code>`. */
export const VIEW_AS_HASH = 'view-as';

/** The access token is refreshed once it is more than 15 minutes old. */
export const TOKEN_REFRESH_AFTER_MS = 15 * 60 * 1000;
/** A temporary uid from the URL is usable for 5 minutes. */
export const TEMPORARY_UID_TTL_MS = 5 * 60 * 1000;

/**
 * Sets or clears the cookie that tells the server this browser holds a session, so `/` answers the app rather
 * than the landing page (the tokens themselves stay in localStorage; the cookie carries none of them).
 */
export function setSignedInHint(on: boolean): void {
  if (typeof document === 'undefined') return;
  document.cookie = on
    ? `${SIGNED_IN_HINT_COOKIE}=1; path=/; max-age=31536000; SameSite=Lax`
    : `${SIGNED_IN_HINT_COOKIE}=; path=/; max-age=0; SameSite=Lax`;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let organizationId: number | null = null;
/** The organization a staff member confirmed acting in without being a member (this page load only). */
let staffScopeConfirmed: number | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

/**
 * Where this tab keeps its session: localStorage, shared by the tabs of the site, except in a tab where a staff
 * admin views a customer's account, which keeps the customer's session to itself (sessionStorage) so the admin's
 * own session in the other tabs is untouched.
 */
export function tabStorage(): Storage {
  try {
    if (sessionStorage.getItem(STORAGE_KEYS.viewingAs) !== null) return sessionStorage;
  } catch {
    // No sessionStorage (private mode): this tab cannot view a customer's account.
  }
  return localStorage;
}

function read(key: string): string | null {
  try {
    return tabStorage().getItem(key);
  } catch {
    return null;
  }
}

export const sessionStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getAccessToken: (): string | null => read(STORAGE_KEYS.accessToken),
  getRefreshToken: (): string | null => read(STORAGE_KEYS.refreshToken),
  hasSession: (): boolean =>
    read(STORAGE_KEYS.refreshToken) !== null || read(STORAGE_KEYS.accessToken) !== null,
  /** Milliseconds since the access token was issued (Infinity when unknown). */
  tokenAge(now = Date.now()): number {
    const issued = Number(read(STORAGE_KEYS.issuedAt));
    return issued > 0 ? now - issued : Infinity;
  },
  setTokens(pair: Pick<SessionPair, 'access_token' | 'refresh_token'>, now = Date.now()): void {
    const storage = tabStorage();
    storage.setItem(STORAGE_KEYS.accessToken, pair.access_token);
    storage.setItem(STORAGE_KEYS.refreshToken, pair.refresh_token);
    storage.setItem(STORAGE_KEYS.issuedAt, String(now));
    setSignedInHint(true);
    emit();
  },
  /** Sign-out clears all local storage (in a tab viewing a customer's account, only that tab's). */
  clearAll(): void {
    // The hint cookie is the whole site's: ending a customer view leaves the admin signed in.
    const viewing = tabStorage() !== localStorage;
    try {
      tabStorage().clear();
    } catch {
      // Storage may be unavailable (private mode); nothing to clear then.
    }
    if (!viewing) setSignedInHint(false);
    organizationId = null;
    staffScopeConfirmed = null;
    emit();
  },
  /** The organization every request is scoped to (null = Personal). Set by OrganizationProvider. */
  /** The customer a staff admin views in this tab, or null in an ordinary tab. */
  viewingAs(): ViewingAs | null {
    try {
      const raw = sessionStorage.getItem(STORAGE_KEYS.viewingAs);
      if (!raw) return null;
      const parsed = JSON.parse(raw) as Partial<ViewingAs>;
      return typeof parsed.user_id === 'number' && typeof parsed.name === 'string'
        ? { user_id: parsed.user_id, name: parsed.name, expires_at: String(parsed.expires_at ?? '') }
        : null;
    } catch {
      return null;
    }
  },
  /**
   * This tab starts keeping its own session for viewing a customer's account (empty until `setTokens`); the
   * customer is named once the code is exchanged.
   */
  beginViewing(viewing: ViewingAs | null = null): void {
    sessionStorage.clear();
    sessionStorage.setItem(STORAGE_KEYS.viewingAs, JSON.stringify(viewing ?? {}));
    emit();
  },
  /** The tab goes back to the shared session (the staff admin's own). */
  endViewing(): void {
    try {
      sessionStorage.clear();
    } catch {
      // Nothing was kept then.
    }
    emit();
  },
  getOrganizationId: (): number | null => organizationId,
  setOrganizationId(id: number | null): void {
    organizationId = id;
    emit();
  },
  /**
   * The organization a staff member confirmed on screen acting in as staff (not a member); requests to it carry
   * the confirmation header the server requires. Not stored: a new page load asks again.
   */
  getStaffScopeConfirmed: (): number | null => staffScopeConfirmed,
  setStaffScopeConfirmed(id: number | null): void {
    staffScopeConfirmed = id;
    emit();
  },
};

/** Takes the one-time code of `/#view-as=<code>` from the address bar (removing it); null when there is none. */
export function takeViewAsCode(): string | null {
  if (typeof window === 'undefined') return null;
  const match = new RegExp(`^#${VIEW_AS_HASH}=([A-Za-z0-9_-]{1,200})$`).exec(window.location.hash);
  if (!match) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return match[1];
}

/** Stores `?uid=` from the URL with its expiry and removes it from the address bar. */
export function captureTemporaryUid(now = Date.now()): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  const uid = url.searchParams.get('uid');
  if (!uid) return;
  localStorage.setItem(
    STORAGE_KEYS.temporaryUid,
    JSON.stringify({ value: uid, expires: now + TEMPORARY_UID_TTL_MS }),
  );
  url.searchParams.delete('uid');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

/** The stored temporary uid when it has not expired; it is removed either way (one use). */
export function takeTemporaryUid(now = Date.now()): string | null {
  const raw = read(STORAGE_KEYS.temporaryUid);
  if (!raw) return null;
  localStorage.removeItem(STORAGE_KEYS.temporaryUid);
  try {
    const parsed = JSON.parse(raw) as { value?: string; expires?: number };
    return parsed.value && typeof parsed.expires === 'number' && parsed.expires > now ? parsed.value : null;
  } catch {
    return null;
  }
}

let navigator: (path: string) => void = (path) => window.location.assign(path);

/** Sign-out leaves with a full page load so no state of the old session survives; tests replace it. */
export function setNavigator(fn: (path: string) => void): void {
  navigator = fn;
}

export function navigateAway(path: string): void {
  navigator(path);
}
