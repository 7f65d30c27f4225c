import { Injectable, Optional } from '@nestjs/common';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import type { Server } from 'socket.io';
import {
  ClientToServerEvents,
  Outgoing,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
  StreamResumePayload,
  userRoom,
} from './events';

export interface SocketData {
  user_id: number;
  session_id: string;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

/** Internal room of one session's sockets, so ending a session can reach them on every instance. */
export function sessionRoom(session_id: string): string {
  return `session-${session_id}`;
}

/**
 * What other modules use to talk to connected clients. Rooms go through the adapter, so with Redis an emit or a
 * disconnect on one instance reaches sockets held by any instance.
 */
@Injectable()
export class RealtimeService {
  private server: RealtimeServer | null = null;
  private resumeHandler: ((user_id: number, payload: StreamResumePayload) => Promise<void>) | null = null;
  private alone: () => boolean = () => false;

  /** Flags are optional so tools that run without the app config still emit. */
  constructor(@Optional() private readonly flags?: FeatureFlagsService) {}

  /** Who answers `stream_resume` (the feature that stores streamed answers). */
  onStreamResume(handler: (user_id: number, payload: StreamResumePayload) => Promise<void>): void {
    this.resumeHandler = handler;
  }

  /** Called by the gateway for a socket's `stream_resume`. */
  async streamResume(user_id: number, payload: StreamResumePayload): Promise<void> {
    await this.resumeHandler?.(user_id, payload);
  }

  /**
   * Closes every socket of this instance as a transport close (not a server disconnect), so the clients
   * reconnect (to another instance) and resume their streams.
   */
  closeAllSockets(): void {
    if (!this.server) return;
    for (const socket of this.server.of('/').sockets.values()) socket.conn.close();
  }

  /**
   * Tells emits whether this instance is the only one (see PeerWatch): then they go to this instance's sockets
   * without a Redis publish. Without it (no Redis) the adapter is in memory and publishes nothing anyway.
   */
  whenAlone(alone: () => boolean): void {
    this.alone = alone;
  }

  /** Called by the gateway once Socket.IO is up. Before that (or in a process without it) calls are no-ops. */
  attach(server: RealtimeServer): void {
    this.server = server;
  }

  /** The payload may hold a Date where the client receives its ISO string (the socket sends JSON). */
  emitToUser<E extends ServerEventName>(
    user_id: number,
    event: E,
    payload: Outgoing<ServerEventPayload<E>>,
  ): void {
    // An event of a switched-off feature is not sent (the contracts declaration says which feature owns it).
    if (this.flags && !this.flags.eventAllowedNow(event)) return;
    // The generic signature of Socket.IO's emit cannot follow E through the map; the map is enforced above.
    const server = this.server && (this.alone() ? this.server.local : this.server);
    (
      server?.to(userRoom(user_id)).emit as
        ((e: E, p: Outgoing<ServerEventPayload<E>>) => boolean) | undefined
    )?.(event, payload);
  }

  disconnectSession(session_id: string): void {
    this.server?.in(sessionRoom(session_id)).disconnectSockets(true);
  }

  disconnectUser(user_id: number): void {
    this.server?.in(userRoom(user_id)).disconnectSockets(true);
  }
}
