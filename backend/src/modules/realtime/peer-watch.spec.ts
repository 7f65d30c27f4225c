import { EventEmitter } from 'node:events';
import type IORedis from 'ioredis';
import { PEER_HELLO_HOLD_MS, PEER_START_HOLD_MS, PeerWatch } from './peer-watch';

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
    await started(peers);
    await peers.recount();
    expect(peers.alone).toBe(true);
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

  it('is never alone when the count fails', async () => {
    let fail = false;
    const { peers } = watch(async () => {
      if (fail) throw new Error('Redis is down');
      return 1;
    });
    await started(peers);
    await peers.recount();
    expect(peers.alone).toBe(true);
    fail = true;
    await peers.recount();
    expect(peers.alone).toBe(false);
  });
});
