import type { NestExpressApplication } from '@nestjs/platform-express';
import { sign } from 'jsonwebtoken';
import { createApp } from '../src/bootstrap';
import type { MessageStreamPayload } from '../src/modules/realtime/events';
import Redis from 'ioredis';
import { RealtimeGateway } from '../src/modules/realtime/realtime.gateway';
import { RealtimeService } from '../src/modules/realtime/realtime.service';
import { startTestApp, TestApp, TestUser } from './harness';
import { ClientSocket, connected, openSocket } from './sockets';

describe('Real-time channel', () => {
  let t: TestApp;
  let second: NestExpressApplication | null = null;
  const sockets: ClientSocket[] = [];

  function open(app: NestExpressApplication, token?: string): ClientSocket {
    const socket = openSocket(app, token);
    sockets.push(socket);
    return socket;
  }

  async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A join_room round trip: once answered, the server has handled the connection (rooms joined). */
  function joinRoom(socket: ClientSocket, room: string): Promise<unknown> {
    return socket.timeout(5000).emitWithAck('join_room', room);
  }

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0);
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });

  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('refuses a connection without a token or with a bad one', async () => {
    await expect(connected(open(t.app))).rejects.toThrow('unauthorized');
    await expect(connected(open(t.app, 'not-a-jwt'))).rejects.toThrow('unauthorized');
    const user = await t.createUser();
    const wrongSecret = sign({ sub: user.user_id, sid: user.session_id }, 'x'.repeat(40));
    await expect(connected(open(t.app, wrongSecret))).rejects.toThrow('unauthorized');
    const expired = sign({ sub: user.user_id, sid: user.session_id }, t.env.appSecret, {
      algorithm: 'HS256',
      expiresIn: -10,
    });
    await expect(connected(open(t.app, expired))).rejects.toThrow('token_expired');
  });

  it('refuses a token whose session has ended', async () => {
    const user = await t.createUser();
    await t.db.query(`UPDATE sessions SET revoked_at = now() WHERE session_id = $1`, [user.session_id]);
    await expect(connected(open(t.app, user.token))).rejects.toThrow('unauthorized');
  });

  it("puts the socket in its user's room, so emitToUser reaches it and no one else", async () => {
    const alice = await t.createUser();
    const bob = await t.createUser();
    const aliceSocket = open(t.app, alice.token);
    const bobSocket = open(t.app, bob.token);
    await Promise.all([connected(aliceSocket), connected(bobSocket)]);
    await expect(joinRoom(aliceSocket, `user-${alice.user_id}`)).resolves.toEqual({ ok: true });
    await joinRoom(bobSocket, `user-${bob.user_id}`);

    const bobGot = jest.fn();
    bobSocket.on('message_stream', bobGot);
    const received = new Promise<MessageStreamPayload>((resolve) =>
      aliceSocket.once('message_stream', resolve),
    );
    t.app.get(RealtimeService).emitToUser(alice.user_id, 'message_stream', {
      conversation_id: 1,
      message_id: 2,
      offset: 0,
      content: 'Hi',
    });
    await expect(received).resolves.toEqual({ conversation_id: 1, message_id: 2, offset: 0, content: 'Hi' });
    await joinRoom(bobSocket, `user-${bob.user_id}`);
    expect(bobGot).not.toHaveBeenCalled();
  });

  it("refuses join_room for another user's room and emits an error", async () => {
    const alice = await t.createUser();
    const bob = await t.createUser();
    const socket = open(t.app, alice.token);
    await connected(socket);
    const error = new Promise((resolve) => socket.once('error', resolve));
    await expect(joinRoom(socket, `user-${bob.user_id}`)).resolves.toEqual({ ok: false, error: 'forbidden' });
    await expect(error).resolves.toEqual({ statusCode: 403, message: expect.any(String) });
    await expect(socket.timeout(5000).emitWithAck('join_room', { room: 'session-x' })).resolves.toEqual({
      ok: false,
      error: 'forbidden',
    });

    // Bob's events do not reach Alice even after the refused join.
    const got = jest.fn();
    socket.on('openai-error', got);
    t.app.get(RealtimeService).emitToUser(bob.user_id, 'openai-error', { message: 'for Bob only' });
    await joinRoom(socket, `user-${alice.user_id}`);
    expect(got).not.toHaveBeenCalled();
  });

  async function signIn(user: TestUser): Promise<{ access_token: string; refresh_token: string }> {
    const res = await t.http().post('/api/auth/login').send({ email: user.email, password: user.password });
    expect(res.status).toBeLessThan(300);
    return res.body as { access_token: string; refresh_token: string };
  }

  function disconnected(socket: ClientSocket): Promise<string> {
    return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  }

  it("disconnects the sockets of a session on logout, and only that session's", async () => {
    const user = await t.createUser();
    const session = await signIn(user);
    const ending = open(t.app, session.access_token);
    const other = open(t.app, user.token);
    await Promise.all([connected(ending), connected(other)]);
    await Promise.all([joinRoom(ending, `user-${user.user_id}`), joinRoom(other, `user-${user.user_id}`)]);

    const gone = disconnected(ending);
    await t.http().post('/api/auth/logout').send({ refresh_token: session.refresh_token }).expect(204);
    await expect(gone).resolves.toBe('io server disconnect');
    await expect(joinRoom(other, `user-${user.user_id}`)).resolves.toEqual({ ok: true });
    await expect(connected(open(t.app, session.access_token))).rejects.toThrow('unauthorized');
  });

  it('disconnects every socket of a user whose sessions are all revoked', async () => {
    const { AuthService } = await import('../src/modules/auth/auth.service');
    const user = await t.createUser();
    const socket = open(t.app, user.token);
    await connected(socket);
    await joinRoom(socket, `user-${user.user_id}`);
    const gone = disconnected(socket);
    await t.app.get(AuthService).revokeAllSessions(user.user_id, 'test');
    await expect(gone).resolves.toBe('io server disconnect');
  });

  it('disconnects the sockets of a user who deletes their account', async () => {
    const user = await t.createUser();
    const socket = open(t.app, user.token);
    await connected(socket);
    await joinRoom(socket, `user-${user.user_id}`);
    const gone = disconnected(socket);
    await t
      .http()
      .delete('/api/users')
      .set('Authorization', user.auth)
      .send({ password: user.password })
      .expect(204);
    await expect(gone).resolves.toBe('io server disconnect');
  });

  it('delivers an emit from one instance to a socket held by another (Redis adapter)', async () => {
    // Alone, this instance emits to its own sockets without publishing to Redis.
    const realtime = t.app.get(RealtimeService);
    const gateway = t.app.get(RealtimeGateway);
    await waitFor(() => gateway.alone === true);
    // Nothing is published for an emit while alone: no other instance could hold the socket.
    const publish = jest.spyOn(Redis.prototype, 'publish');
    realtime.emitToUser(1, 'openai-error', { message: 'alone' });
    expect(publish).not.toHaveBeenCalled();
    publish.mockRestore();

    second = await createApp({ ...t.env, port: 0 }, { logger: false });
    await second.listen(0);
    const user = await t.createUser();
    const socket = open(second, user.token);
    await connected(socket);
    await joinRoom(socket, `user-${user.user_id}`);

    // The second instance said hello before it listened, so the first emit already goes through Redis and
    // reaches the socket it holds: no retry.
    expect(gateway.alone).toBe(false);
    const received = new Promise((resolve) => socket.once('openai-error', resolve));
    realtime.emitToUser(user.user_id, 'openai-error', { message: 'boom' });
    await expect(received).resolves.toEqual({ message: 'boom' });

    // Ending the session on instance A disconnects the socket on instance B too.
    const gone = disconnected(socket);
    realtime.disconnectSession(user.session_id);
    await expect(gone).resolves.toBe('io server disconnect');
  });
});
