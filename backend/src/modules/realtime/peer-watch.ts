import { Logger } from '@nestjs/common';
import type IORedis from 'ioredis';

/** How often the count of instances is read again, so an instance that stopped is noticed. */
export const PEER_COUNT_EVERY_MS = 1_000;
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
 * - the count of subscribers (PUBSUB NUMSUB on the adapter's request channel) is read every second: it notices
 *   instances that stopped (back to alone) and any instance whose hello was missed.
 */
export class PeerWatch {
  private readonly logger = new Logger('Realtime');
  private holdUntil = 0;
  private countSaysAlone = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly peers: { pub: IORedis; sub: IORedis; channel: string; uid: string },
    /** Instances subscribed to the adapter's channel, this one included. */
    private readonly count: () => Promise<number>,
    private readonly now: () => number = Date.now,
  ) {}

  /** True only when the last count saw this instance alone and no hello came in the hold period. */
  get alone(): boolean {
    return this.countSaysAlone && this.now() >= this.holdUntil;
  }

  /** Subscribes, says hello, then counts every second. */
  async start(): Promise<void> {
    const { pub, sub, channel, uid } = this.peers;
    this.holdUntil = this.now() + PEER_START_HOLD_MS;
    sub.on('message', (from: string, sender: string) => {
      if (from === channel && sender !== uid) this.heardHello();
    });
    await sub.subscribe(channel);
    await pub.publish(channel, uid);
    await this.recount();
    this.timer = setInterval(() => void this.recount(), PEER_COUNT_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Another instance started: publish through Redis from now on, for at least the hold period. */
  heardHello(): void {
    this.holdUntil = Math.max(this.holdUntil, this.now() + PEER_HELLO_HOLD_MS);
    this.countSaysAlone = false;
  }

  async recount(): Promise<void> {
    try {
      this.countSaysAlone = (await this.count()) <= 1;
    } catch (err) {
      this.countSaysAlone = false;
      this.logger.warn(`Could not count the instances: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
