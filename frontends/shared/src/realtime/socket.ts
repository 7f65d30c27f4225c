import { useEffect, useRef, useSyncExternalStore } from 'react';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
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

const defaultIo: RealtimeIo = (options) => io(options);
let ioFactory: RealtimeIo = defaultIo;
let current: { socket: RealtimeSocket; token: string; stop: () => void } | null = null;

/** Tests pass a fake Socket.IO client; `null` restores the real one. */
export function setRealtimeIo(factory: RealtimeIo | null): void {
  disconnectRealtime();
  ioFactory = factory ?? defaultIo;
}

/**
 * The one socket of this page, shared by all realtime features, opened with the session's access token.
 * The server checks the token only when a socket connects, so `auth` is read again on every (re)connect;
 * after a token refresh a socket that is down reconnects with the new token. Answers null without a session.
 */
export function connectRealtime(): RealtimeSocket | null {
  if (current) return current.socket;
  const token = sessionStore.getAccessToken();
  if (!token) return null;
  const socket = ioFactory({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: sessionStore.getAccessToken() }),
  });
  const state = { socket, token, stop: () => undefined as void };
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
  state.stop = () => {
    unsubscribe();
    socket.disconnect();
  };
  current = state;
  return socket;
}

/** Closes the page's socket (sign-out does this through the session store). */
export function disconnectRealtime(): void {
  const state = current;
  current = null;
  state?.stop();
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
    const socket = connectRealtime();
    if (!socket) return;
    // Socket.IO's typed `on` cannot follow E through the map; the hook's signature enforces it.
    const listener = ((payload: ServerEventPayload<E>) => latest.current(payload)) as ServerToClientEvents[E];
    socket.on(event, listener as never);
    return () => {
      socket.off(event, listener as never);
    };
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
    const socket = connectRealtime();
    if (!socket) return;
    const listener = () => latest.current();
    socket.on('connect', listener);
    return () => {
      socket.off('connect', listener);
    };
  }, [signedIn]);
}
