import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import IORedis from 'ioredis';
import { APP_ENV, AppEnv } from '../../config/env';

/** What instances tell each other about running generations. */
export type BusMessage =
  /** Stop every generation that answers to this key (see cancelKeys). */
  | { type: 'cancel'; key: string }
  /** Whoever runs this generation sends its owner the text from `offset` on. */
  | { type: 'resume'; id: string; user_id: number; offset: number };

/** The keys a generation answers to, so a deletion or a sign-out can stop it without knowing its id. */
export const cancelKeys = {
  message: (message_id: number) => `message:${message_id}`,
  conversation: (conversation_id: number) => `conversation:${conversation_id}`,
  session: (session_id: string) => `session:${session_id}`,
  user: (user_id: number) => `user:${user_id}`,
  enhance: (enhance_id: string) => `enhance:${enhance_id}`,
};

/**
 * The channel between instances about running generations: Redis pub/sub when Redis is configured (an instance
 * also hears its own messages), else this process only. A signal, never a poll: a deletion or a sign-out on one
 * instance stops the generation running on another at once.
 */
@Injectable()
export class GenerationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('GenerationBus');
  private pub: IORedis | null = null;
  private sub: IORedis | null = null;
  private readonly handlers: ((message: BusMessage) => void)[] = [];
  private readonly channel: string;

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.channel = `${env.redisPrefix}:generation`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.env.redisUrl) return;
    // Two connections: a subscribed Redis connection cannot publish.
    this.pub = new IORedis(this.env.redisUrl, { maxRetriesPerRequest: 1 });
    this.sub = this.pub.duplicate();
    for (const client of [this.pub, this.sub])
      client.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
    this.sub.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      try {
        this.deliver(JSON.parse(raw) as BusMessage);
      } catch (err) {
        this.logger.warn(`Bad bus message: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    // Waiting here makes the first cancel after start reach this instance; a Redis outage must not block start.
    await Promise.race([
      this.sub.subscribe(this.channel).catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 2000).unref()),
    ]);
  }

  /** After the drain (beforeApplicationShutdown), so cancels still arrive while generations finish. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pub, this.sub].map((c) => c?.quit().catch(() => c.disconnect())));
  }

  on(handler: (message: BusMessage) => void): void {
    this.handlers.push(handler);
  }

  /** Tells the other instances through Redis (this one hears it back too; handlers are idempotent). */
  publish(message: BusMessage): void {
    this.pub
      ?.publish(this.channel, JSON.stringify(message))
      .catch((err: Error) => this.logger.warn(`Could not publish ${message.type}: ${err.message}`));
  }

  private deliver(message: BusMessage): void {
    for (const handler of this.handlers) handler(message);
  }

  /** Stops the generations answering to `key` on this instance at once, and on every other through Redis. */
  cancel(key: string): void {
    this.deliver({ type: 'cancel', key });
    this.publish({ type: 'cancel', key });
  }
}
