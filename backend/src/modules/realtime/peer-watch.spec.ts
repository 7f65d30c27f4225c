import { EventEmitter } from 'node:events';
import type IORedis from 'ioredis';
import {
  PEER_COUNT_EVERY_MS,
  PEER_COUNT_FRESH_MS,
  PEER_HELLO_HOLD_MS,
  PEER_START_HOLD_MS,
  PeerWatch,
} from './peer-watch';

/** Two fake Redis connections on one fake server: what `pub` publishes, `sub` hears (channel, message). */
function fakeRedis() {
  const sub = Object.assign(new EventEmitter(), { subscribe: jest.fn(async () => 1) });
  const published: string[] = [];
  const pub = {
    publish: jest.fn(async (channel: string, message: string) => {
      published.push(message);
      sub.emit('message', channel, message);
      return 1;
    }),
  };
  return { pub: pub as unknown as IORedis, sub: sub as unknown as IORedis & EventEmitter, published };
}

describe('PeerWatch', () => {
  let now = 1_000_000;
  const clock = () => now;

  function watch(count: () => Promise<number>) {
    const redis = fakeRedis();
    const peers = new PeerWatch({ ...redis, channel: 'p:peers', uid: 'me' }, count, clock);
    return { peers, redis };
  }

  /** Started, and past the start hold. */
  async function started(peers: PeerWatch) {
    await peers.start();
    peers.stop();
    now += PEER_START_HOLD_MS;
  }

  /** Started, past the start hold, and alone by a fresh count. */
  async function startedAlone(peers: PeerWatch) {
    await started(peers);
    await peers.recount();
    expect(peers.alone).toBe(true);
  }

  it('is not alone before it has counted, and alone once the count is one', async () => {
    const { peers, redis } = watch(async () => 1);
    expect(peers.alone).toBe(false);
    await started(peers);
    expect(redis.published).toEqual(['me']);
    // Its own hello is not another instance's.
    await peers.recount();
    expect(peers.alone).toBe(true);
  });

  it('publishes for its first seconds whatever the count says (its own subscription may not count yet)', async () => {
    const { peers } = watch(async () => 1);
    await peers.start();
    peers.stop();
    expect(peers.alone).toBe(false);
    now += PEER_START_HOLD_MS - 1;
    await peers.recount();
    expect(peers.alone).toBe(false);
    now += 1;
    expect(peers.alone).toBe(true);
  });

  it('publishes through Redis while another instance counts', async () => {
    let instances = 2;
    const { peers } = watch(async () => instances);
    await started(peers);
    expect(peers.alone).toBe(false);
    instances = 1;
    await peers.recount();
    expect(peers.alone).toBe(true);
  });

  it("keeps publishing for the hold period after another instance's hello, whatever the count says", async () => {
    const { peers, redis } = watch(async () => 1);
    await startedAlone(peers);
    redis.sub.emit('message', 'p:peers', 'other');
    expect(peers.alone).toBe(false);
    await peers.recount();
    expect(peers.alone).toBe(false);
    now += PEER_HELLO_HOLD_MS;
    await peers.recount();
    expect(peers.alone).toBe(true);
    // A message on another channel is not a hello.
    redis.sub.emit('message', 'p:other', 'other');
    expect(peers.alone).toBe(true);
  });

  it('reads the count only when asked, and does not trust an old one', async () => {
    let instances = 1;
    const count = jest.fn(async () => instances);
    const { peers } = watch(count);
    await peers.start();
    now += PEER_START_HOLD_MS;
    await peers.recount();
    expect(peers.alone).toBe(true);
    expect(count).toHaveBeenCalledTimes(2);
    // Asked again within PEER_COUNT_EVERY_MS: the last count answers.
    now += PEER_COUNT_EVERY_MS - 1;
    expect(peers.alone).toBe(true);
    expect(count).toHaveBeenCalledTimes(2);
    // Idle: nothing is read however long it lasts.
    now += 60_000;
    await Promise.resolve();
    expect(count).toHaveBeenCalledTimes(2);
    // The first ask after the quiet spell publishes (the count is too old) and reads a new one.
    instances = 2;
    expect(peers.alone).toBe(false);
    expect(count).toHaveBeenCalledTimes(3);
    // One count at a time.
    expect(peers.alone).toBe(false);
    expect(count).toHaveBeenCalledTimes(3);
    await new Promise((r) => setImmediate(r));
    expect(peers.alone).toBe(false);
    instances = 1;
    now += PEER_COUNT_EVERY_MS;
    expect(peers.alone).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(peers.alone).toBe(true);
    // A count is trusted for PEER_COUNT_FRESH_MS from when it was asked.
    peers.stop();
    now += PEER_COUNT_FRESH_MS - 1;
    expect(peers.alone).toBe(true);
    now += 1;
    expect(peers.alone).toBe(false);
  });

  it('does not trust a count asked before a hello once the hold is over', async () => {
    const count = jest.fn(async () => 1);
    const { peers, redis } = watch(count);
    await startedAlone(peers);
    // A count is asked, another instance says hello, then the count answers one: it was read before the newcomer
    // subscribed.
    let answer: (instances: number) => void = () => undefined;
    count.mockImplementationOnce(() => new Promise<number>((resolve) => (answer = resolve)));
    const asked = peers.recount();
    redis.sub.emit('message', 'p:peers', 'other');
    answer(1);
    await asked;
    expect(peers.alone).toBe(false);
    now += PEER_HELLO_HOLD_MS;
    expect(peers.alone).toBe(false);
    // The next count sees the newcomer.
    count.mockImplementationOnce(async () => 2);
    await peers.recount();
    expect(peers.alone).toBe(false);
  });

  it('publishes while the connection that hears hellos is down, and for the hold period after', async () => {
    const { peers, redis } = watch(async () => 1);
    await startedAlone(peers);
    redis.sub.emit('close');
    await peers.recount();
    expect(peers.alone).toBe(false);
    now += PEER_HELLO_HOLD_MS;
    await peers.recount();
    expect(peers.alone).toBe(false);
    redis.sub.emit('ready');
    await peers.recount();
    expect(peers.alone).toBe(false);
    now += PEER_HELLO_HOLD_MS;
    await peers.recount();
    expect(peers.alone).toBe(true);
  });

  it('is never alone when the count fails', async () => {
    let fail = false;
    const { peers } = watch(async () => {
      if (fail) throw new Error('Redis is down');
      return 1;
    });
    await startedAlone(peers);
    fail = true;
    await peers.recount();
    expect(peers.alone).toBe(false);
  });
});
