import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { api, unwrap } from '../api/client';
import type { SessionPair, User } from '../api/contracts';
import type { StaffRole } from '../permissions-core';
import { notifyError } from '../notify';
import {
  captureTemporaryUid,
  navigateAway,
  sessionStore,
  setSignedInHint,
  takeTemporaryUid,
  takeViewAsCode,
} from './store';

export type SessionStatus = 'idle' | 'loading' | 'signedIn' | 'signedOut';

/** Whether the session is known (signed in or out): before that, no screen renders, only a loader. */
export function sessionKnown(status: SessionStatus): boolean {
  return status === 'signedIn' || status === 'signedOut';
}

export interface Session {
  status: SessionStatus;
  user: User | null;
  staffRole: StaffRole | null;
  /** Stores a pair from login/signup/token and marks the session signed in. */
  signIn(pair: SessionPair): Promise<void>;
  /** Ends the session on the server, clears all local storage and leaves for `path` (default '/'). */
  signOut(path?: string): Promise<void>;
  /** Re-reads GET /api/users (after a profile or settings change). */
  reloadUser(): Promise<void>;
  /** Replaces the cached user with a server answer (e.g. the `{ user }` of PUT /api/users). */
  setUser(user: User): void;
}

/** Query key of the current user; invalidate it to reload the session's user. */
export const SESSION_USER_QUERY_KEY = ['session', 'user'] as const;

const SessionContext = createContext<Session | null>(null);

function useHasSession(): boolean {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.hasSession, () => false);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const hasSession = useHasSession();
  // 'idle' until the temporary uid (if any) has been exchanged, so we never load a stale session first.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const viewAsCode = takeViewAsCode();
    if (viewAsCode) {
      void (async () => {
        // A staff admin opens a customer's account in this tab: the customer's session stays in this tab only.
        sessionStore.beginViewing();
        try {
          const session = await unwrap(api.POST('/api/auth/impersonation', { body: { code: viewAsCode } }));
          sessionStore.beginViewing({
            user_id: session.user.user_id,
            name: `${session.user.name} ${session.user.last_name}`.trim(),
            expires_at: session.session_expires_at,
          });
          sessionStore.setTokens(session);
          queryClient.setQueryData(SESSION_USER_QUERY_KEY, session.user);
        } catch (error) {
          // A used or expired code: the tab stays the admin's own.
          sessionStore.endViewing();
          notifyError(error);
        }
        if (!cancelled) setReady(true);
      })();
      return () => {
        cancelled = true;
      };
    }
    captureTemporaryUid();
    const uid = takeTemporaryUid();
    if (!uid) {
      setReady(true);
      return;
    }
    void (async () => {
      try {
        const pair = await unwrap(api.POST('/api/auth/token', { body: { token: uid } }));
        // A one-time token opens another account ("open the customer's account"): start clean.
        sessionStore.clearAll();
        sessionStore.setTokens(pair);
        if (pair.user) queryClient.setQueryData(SESSION_USER_QUERY_KEY, pair.user);
      } catch {
        // An expired or spent token leaves whatever session was there.
      }
      if (!cancelled) setReady(true);
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient]);

  const userQuery = useQuery({
    queryKey: SESSION_USER_QUERY_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/users'))).user,
    enabled: ready && hasSession,
    staleTime: 60 * 1000,
    retry: false,
  });

  const user = hasSession ? (userQuery.data ?? null) : null;
  // A session kept from before the hint cookie existed gets it too, so its next visit of / opens the app.
  useEffect(() => {
    if (user) setSignedInHint(true);
  }, [user]);
  let status: SessionStatus;
  if (!ready) status = 'idle';
  else if (!hasSession) status = 'signedOut';
  else if (user) status = 'signedIn';
  else if (userQuery.isError) status = 'signedOut';
  else status = 'loading';

  const signIn = useCallback(
    async (pair: SessionPair) => {
      sessionStore.setTokens(pair);
      if (pair.user) queryClient.setQueryData(SESSION_USER_QUERY_KEY, pair.user);
      else await queryClient.invalidateQueries({ queryKey: SESSION_USER_QUERY_KEY });
    },
    [queryClient],
  );

  const signOut = useCallback(
    async (path = '/') => {
      const refreshToken = sessionStore.getRefreshToken();
      if (refreshToken) {
        try {
          // Ends the server session too; a failure must not keep the user signed in here.
          await api.POST('/api/auth/logout', { body: { refresh_token: refreshToken } });
        } catch {
          // ignored: we sign out locally regardless
        }
      }
      sessionStore.clearAll();
      queryClient.clear();
      navigateAway(path);
    },
    [queryClient],
  );

  const reloadUser = useCallback(
    () => queryClient.invalidateQueries({ queryKey: SESSION_USER_QUERY_KEY }),
    [queryClient],
  );
  const setUser = useCallback(
    (next: User) => queryClient.setQueryData(SESSION_USER_QUERY_KEY, next),
    [queryClient],
  );

  const value = useMemo<Session>(
    () => ({
      status,
      user,
      staffRole: user?.staff?.role ?? null,
      signIn,
      signOut,
      reloadUser,
      setUser,
    }),
    [status, user, signIn, signOut, reloadUser, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
