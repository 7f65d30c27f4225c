import { Logger } from '@nestjs/common';
import type IORedis from 'ioredis';

/** A count older than this is read again, the next time an emit asks whether this instance is alone. */
export const PEER_COUNT_EVERY_MS = 1_000;
/**
 * A count older than this is not trusted: emits go through Redis until a newer one is in. It bounds how long an
 * instance whose hello was never heard (it could not publish it) may be missed, as counting every second did.
 */
export const PEER_COUNT_FRESH_MS = 2_000;
/** After another instance says hello, emits go through Redis for at least this long, whatever the count says. */
export const PEER_HELLO_HOLD_MS = 10_000;
/**
 * A starting instance publishes for this long whatever the count says: until its own adapter subscription is
 * registered, the count may see only the others and read "one".
 */
export const PEER_START_HOLD_MS = 3_000;

/**
 * Whether this instance is the only one on the Socket.IO channel. Alone, an emit needs no Redis publish (which
 * would cost a write, and reading and decoding the echo on this instance's own subscription): every socket is
 * here. The rules that keep a socket on another instance from missing an event:
 * - not alone until proven: the state starts "with peers" and any doubt (an error, no answer) goes back to it;
 * - a starting instance publishes for its first PEER_START_HOLD_MS (its own subscription may not count yet) and
 *   says hello before it listens; whoever hears a hello keeps publishing for PEER_HELLO_HOLD_MS, so the
 *   newcomer's sockets, which can only connect after its hello, never fall in a gap;
 * - the count of subscribers (PUBSUB NUMSUB on the adapter's request channel) is read when an emit asks and the
 *   last count is over PEER_COUNT_EVERY_MS old, and trusted for PEER_COUNT_FRESH_MS from when it was asked: it
 *   notices instances that stopped (back to alone) and any instance whose hello was missed. An idle instance
 *   reads nothing; its first emit after a quiet spell goes through Redis while the count is read;
 * - while the connection that hears hellos is down, a hello may go unheard: not alone then, and for the hold
 *   period after it is back.
 */
export class PeerWatch {
  private readonly logger = new Logger('Realtime');
  private holdUntil = 0;
  private countSaysAlone = false;
  /** When the count that `countSaysAlone` holds was asked for. */
  private countedAt = -Infinity;
  private counting: Promise<void> | null = null;
  private watching = false;
  private helloSubscriptionLost = false;

  constructor(
    private readonly peers: { pub: IORedis; sub: IORedis; channel: string; uid: string },
    /** Instances subscribed to the adapter's channel, this one included. */
    private readonly count: () => Promise<number>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * True only when a fresh count saw this instance alone, no hello came in the hold period and hellos can be
   * heard. Asking reads the count again (in the background) when the last one is old.
   */
  get alone(): boolean {
    const now = this.now();
    if (this.watching && !this.counting && now - this.countedAt >= PEER_COUNT_EVERY_MS) {
      this.counting = this.recount().finally(() => (this.counting = null));
    }
    return (
      this.countSaysAlone &&
      !this.helloSubscriptionLost &&
      now - this.countedAt < PEER_COUNT_FRESH_MS &&
      now >= this.holdUntil
    );
  }

  /** Subscribes, says hello, then counts once; later counts are read when emits ask. */
  async start(): Promise<void> {
    const { pub, sub, channel, uid } = this.peers;
    this.holdUntil = this.now() + PEER_START_HOLD_MS;
    sub.on('message', (from: string, sender: string) => {
      if (from === channel && sender !== uid) this.heardHello();
    });
    sub.on('close', () => (this.helloSubscriptionLost = true));
    sub.on('ready', () => {
      if (!this.helloSubscriptionLost) return;
      this.helloSubscriptionLost = false;
      this.heardHello();
    });
    await sub.subscribe(channel);
    await pub.publish(channel, uid);
    await this.recount();
    this.watching = true;
  }

  stop(): void {
    this.watching = false;
  }

  /** Another instance started (or may have): publish through Redis from now on, for at least the hold period. */
  heardHello(): void {
    this.holdUntil = Math.max(this.holdUntil, this.now() + PEER_HELLO_HOLD_MS);
    this.countSaysAlone = false;
  }

  async recount(): Promise<void> {
    const askedAt = this.now();
    let alone = false;
    try {
      alone = (await this.count()) <= 1;
    } catch (err) {
      this.logger.warn(`Could not count the instances: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Of two counts under way, the one asked for later tells.
    if (askedAt < this.countedAt) return;
    this.countSaysAlone = alone;
    this.countedAt = askedAt;
  }
}
