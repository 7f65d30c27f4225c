import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/modules/realtime/events';
import type { TestUser } from './harness';

/** A Socket.IO client typed with the real event map. */
export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Opens a websocket to the app (no reconnection), with the token as handshake auth when given. */
export function openSocket(app: NestExpressApplication, token?: string): ClientSocket {
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return io(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: token === undefined ? {} : { token },
  });
}

/** Resolves when connected, rejects with the server's refusal. */
export function connected(socket: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
}

/**
 * The user's socket, connected, after a join_room round trip (so the server has put it in its room). `setUp`
 * runs before connecting, to attach listeners that must not miss an event.
 */
export async function userSocket(
  app: NestExpressApplication,
  user: TestUser,
  setUp?: (socket: ClientSocket) => void,
): Promise<ClientSocket> {
  const socket = openSocket(app, user.token);
  setUp?.(socket);
  await connected(socket);
  await socket.timeout(5000).emitWithAck('join_room', `user-${user.user_id}`);
  return socket;
}
