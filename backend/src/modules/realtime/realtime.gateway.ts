import { Inject, Logger, OnApplicationBootstrap, OnApplicationShutdown, UseGuards } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { createAdapter, RedisAdapter } from '@socket.io/redis-adapter';
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { JsonWebTokenError, TokenExpiredError } from 'jsonwebtoken';
import { verifyAccessToken } from '../../common/auth/access-token';
import type { Socket } from 'socket.io';
import type { AccessTokenPayload } from '../../common/auth/jwt.strategy';
import { PrincipalResolver } from '../../common/auth/principal.resolver';
import { APP_ENV, AppEnv } from '../../config/env';
import { ClientToServerEvents, JoinRoomAck, ServerToClientEvents, userRoom } from './events';
import { FeatureGateWsGuard } from './feature-gate.ws-guard';
import { PeerWatch } from './peer-watch';
import { RealtimeServer, RealtimeService, SocketData, sessionRoom } from './realtime.service';

type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The one Socket.IO gateway, for every realtime event, on the API's HTTP server at /socket.io. */
@WebSocketGateway({ path: '/socket.io', serveClient: false })
@UseGuards(FeatureGateWsGuard)
export class RealtimeGateway
  implements OnGatewayInit, OnGatewayConnection, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('Realtime');
  private readonly redis: IORedis[] = [];
  private peers: PeerWatch | null = null;
  private peersStarted: Promise<void> | null = null;

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly resolver: PrincipalResolver,
    private readonly realtime: RealtimeService,
  ) {}

  afterInit(server: RealtimeServer): void {
    if (this.env.redisUrl) {
      // Two connections: a subscribed Redis connection cannot publish.
      const pub = new IORedis(this.env.redisUrl);
      const sub = pub.duplicate();
      for (const client of [pub, sub]) {
        client.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
        this.redis.push(client);
      }
      server.adapter(createAdapter(pub, sub, { key: `${this.env.redisPrefix}:socket.io` }));
      const helloSub = pub.duplicate();
      helloSub.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
      this.redis.push(helloSub);
      const adapter = server.of('/').adapter as unknown as RedisAdapter;
      const peers = new PeerWatch(
        { pub, sub: helloSub, channel: `${this.env.redisPrefix}:socket.io-peers`, uid: randomUUID() },
        () => adapter.serverCount(),
      );
      this.peers = peers;
      this.realtime.whenAlone(() => peers.alone);
      // Redis down at start: the instance starts anyway and keeps publishing every emit (never alone).
      this.peersStarted = peers
        .start()
        .catch((err: Error) => this.logger.warn(`Could not watch the other instances: ${err.message}`));
    }
    server.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (err: Error) => next(err),
      );
    });
    this.realtime.attach(server);
  }

  /** Verifies the access token from `auth: { token }` and that its session is still open. */
  private async authenticate(socket: RealtimeSocket): Promise<void> {
    const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token === '') throw new Error('unauthorized');
    let payload: Partial<AccessTokenPayload>;
    try {
      payload = verifyAccessToken(this.env.appSecret, token) as Partial<AccessTokenPayload>;
    } catch (err) {
      if (err instanceof TokenExpiredError) throw new Error('token_expired');
      if (err instanceof JsonWebTokenError) throw new Error('unauthorized');
      throw err;
    }
    if (typeof payload.sub !== 'number' || typeof payload.sid !== 'string') throw new Error('unauthorized');
    const principal = await this.resolver.fromSession(payload.sub, payload.sid);
    if (!principal) throw new Error('unauthorized');
    socket.data = { user_id: principal.user_id, session_id: payload.sid };
  }

  /** The server joins the rooms itself, so a client never needs (nor can) pick another user's room. */
  async handleConnection(socket: RealtimeSocket): Promise<void> {
    await socket.join([userRoom(socket.data.user_id), sessionRoom(socket.data.session_id)]);
  }

  /** Kept for the legacy client, which asks for its own room; any other room is refused. */
  @SubscribeMessage('join_room')
  joinRoom(
    @ConnectedSocket() socket: RealtimeSocket,
    @MessageBody() body: Parameters<ClientToServerEvents['join_room']>[0],
  ): JoinRoomAck {
    const room = typeof body === 'string' ? body : body?.room;
    if (room === userRoom(socket.data.user_id)) return { ok: true };
    socket.emit('error', { statusCode: 403, message: 'You cannot join this room.' });
    return { ok: false, error: 'forbidden' };
  }

  /** Asks for an answer's text from an offset on; only the answer's owner gets anything back. */
  @SubscribeMessage('stream_resume')
  async streamResume(
    @ConnectedSocket() socket: RealtimeSocket,
    @MessageBody() body: Parameters<ClientToServerEvents['stream_resume']>[0],
  ): Promise<void> {
    const message_id = Number(body?.message_id);
    const offset = Number(body?.offset ?? 0);
    if (!Number.isSafeInteger(message_id) || message_id < 1 || !Number.isSafeInteger(offset) || offset < 0)
      return;
    await this.realtime
      .streamResume(socket.data.user_id, { message_id, offset })
      .catch((err: Error) => this.logger.warn(`stream_resume failed: ${err.message}`));
  }

  /** Whether this instance is the only one on the channel (then emits skip Redis). */
  get alone(): boolean {
    return this.peers?.alone ?? false;
  }

  /** The hello to the other instances goes out before this one listens, so none of its sockets misses an emit. */
  async onApplicationBootstrap(): Promise<void> {
    await this.peersStarted;
  }

  /** Runs after Nest has closed the Socket.IO server (and with it the adapter's subscriptions). */
  async onApplicationShutdown(): Promise<void> {
    this.peers?.stop();
    await Promise.all(this.redis.map((client) => client.quit().catch(() => client.disconnect())));
  }
}
