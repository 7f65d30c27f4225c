import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { refreshTokens } from '../api/client';
import { sessionStore } from '../session/store';
import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from './events';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type RealtimeIo = (options: Partial<ManagerOptions & SocketOptions>) => RealtimeSocket;

/** socket.io-client loads with the first socket (after sign-in), so the sign-in page does not download it. */
const loadSocketIo = (): Promise<RealtimeIo> =>
  import('socket.io-client').then(
    ({ io }) =>
      (options) =>
        io(options),
  );

/** The Socket.IO client once known: a test's fake, or the real one once loaded. */
let ioFactory: RealtimeIo | null = null;

interface Connection {
  /** Null until socket.io-client has loaded. */
  socket: RealtimeSocket | null;
  ready: Promise<RealtimeSocket>;
  token: string;
  stopped: boolean;
  stop: () => void;
}
let current: Connection | null = null;

/** Tests pass a fake Socket.IO client; `null` restores the real one. */
export function setRealtimeIo(factory: RealtimeIo | null): void {
  disconnectRealtime();
  ioFactory = factory;
}

/**
 * Opens the socket of `state` with the session's access token. The server checks the token only when a socket
 * connects, so `auth` is read again on every (re)connect; after a token refresh a socket that is down
 * reconnects with the new token.
 */
function start(state: Connection, factory: RealtimeIo): RealtimeSocket {
  const socket = factory({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: sessionStore.getAccessToken() }),
  });
  socket.on('connect_error', (err) => {
    // An expired token is refreshed once; the store change below then reconnects with the new one.
    if (err.message === 'token_expired') void refreshTokens();
  });
  const unsubscribe = sessionStore.subscribe(() => {
    const next = sessionStore.getAccessToken();
    if (!next) return disconnectRealtime();
    if (next === state.token) return;
    state.token = next;
    if (!socket.connected) socket.connect();
  });
  state.socket = socket;
  state.stop = () => {
    state.stopped = true;
    unsubscribe();
    socket.disconnect();
  };
  return socket;
}

/** The page's connection, opened on first use; null without a session. */
function connection(): Connection | null {
  if (current) return current;
  const token = sessionStore.getAccessToken();
  if (!token) return null;
  const state: Connection = {
    socket: null,
    ready: Promise.resolve(null as never),
    token,
    stopped: false,
    stop: () => {
      state.stopped = true;
    },
  };
  current = state;
  if (ioFactory) state.ready = Promise.resolve(start(state, ioFactory));
  else {
    state.ready = loadSocketIo().then((factory) => {
      ioFactory ??= factory;
      if (state.stopped) throw new Error('The socket was closed before it opened.');
      return start(state, ioFactory);
    });
    // A socket closed before it opened is not an error anyone waits for.
    state.ready.catch(() => undefined);
  }
  return state;
}

/**
 * The one socket of this page, shared by all realtime features, opened with the session's access token once
 * socket.io-client has loaded. Answers null without a session.
 */
export function connectRealtime(): Promise<RealtimeSocket> | null {
  return connection()?.ready ?? null;
}

/** Closes the page's socket (sign-out does this through the session store). */
export function disconnectRealtime(): void {
  const state = current;
  current = null;
  state?.stop();
}

/**
 * Runs `attach` on the page's socket, at once when it is open, else when it has opened (unless cleaned up
 * first); returns the clean-up.
 */
function withSocket(attach: (socket: RealtimeSocket) => () => void): () => void {
  const state = connection();
  if (!state) return () => undefined;
  if (state.socket) return attach(state.socket);
  let detach: (() => void) | null = null;
  let cancelled = false;
  state.ready.then(
    (socket) => {
      if (!cancelled) detach = attach(socket);
    },
    () => undefined,
  );
  return () => {
    cancelled = true;
    detach?.();
  };
}

function subscribeToken(listener: () => void): () => void {
  return sessionStore.subscribe(listener);
}

function hasToken(): boolean {
  return sessionStore.getAccessToken() !== null;
}

/** Calls `handler` for each `event` from the server while mounted and signed in; the latest handler is used. */
export function useRealtimeEvent<E extends ServerEventName>(
  event: E,
  handler: (payload: ServerEventPayload<E>) => void,
): void {
  const signedIn = useSyncExternalStore(subscribeToken, hasToken, () => false);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!signedIn) return;
    // Socket.IO's typed `on` cannot follow E through the map; the hook's signature enforces it.
    const listener = ((payload: ServerEventPayload<E>) => latest.current(payload)) as ServerToClientEvents[E];
    return withSocket((socket) => {
      socket.on(event, listener as never);
      return () => {
        socket.off(event, listener as never);
      };
    });
  }, [event, signedIn]);
}

/** Sends `event` to the server now when the socket is connected; answers whether it was sent. */
export function emitRealtime<E extends keyof ClientToServerEvents>(
  event: E,
  ...args: Parameters<ClientToServerEvents[E]>
): boolean {
  const socket = current?.socket;
  if (!socket?.connected) return false;
  // Socket.IO's typed `emit` cannot follow E through the map; the signature above enforces it.
  (socket.emit as (name: string, ...rest: unknown[]) => void)(event, ...args);
  return true;
}

/** Calls `handler` on every (re)connect of the page's socket while mounted and signed in. */
export function useRealtimeConnect(handler: () => void): void {
  const signedIn = useSyncExternalStore(subscribeToken, hasToken, () => false);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!signedIn) return;
    const listener = () => latest.current();
    return withSocket((socket) => {
      socket.on('connect', listener);
      return () => {
        socket.off('connect', listener);
      };
    });
  }, [signedIn]);
}
