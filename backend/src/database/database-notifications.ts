import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import * as pg from 'pg';
import { APP_ENV, type AppEnv } from '../config/env';
import { EMBEDDED_DATABASE, type EmbeddedDatabaseHolder } from './embedded-postgres';

/** What a listener of a channel hears. */
export interface ChannelListener {
  /** Listening: from now on every notification of the channel arrives. */
  ready(): void;
  /** One notification, after the transaction that sent it committed. */
  message(payload: string): void;
  /** The connection is lost: notifications may be missed until ready() comes again. */
  gap(): void;
}

/** Wait before connecting again after the listening connection failed. */
const RECONNECT_MS = 1_000;

/**
 * PostgreSQL's LISTEN on one connection of its own, kept open and opened again when it drops. On the embedded
 * database the connection's LISTEN makes its one shared session listen, and the notifications are heard where
 * the database sends them, whichever client's statement committed the change (EmbeddedPostgres.onNotification).
 */
@Injectable()
export class DatabaseNotifications implements OnModuleDestroy {
  private readonly logger = new Logger('DatabaseNotifications');
  private readonly listeners = new Map<string, ChannelListener[]>();
  private client: pg.Client | null = null;
  private connected = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private outageLogged = false;

  /** Stops hearing the embedded database's notifications. */
  private unhearEmbedded: (() => void) | null = null;

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    @Inject(EMBEDDED_DATABASE) private readonly embedded: EmbeddedDatabaseHolder,
  ) {}

  /** Where to listen: PostgreSQL's URL, the embedded database's once it runs, or nowhere yet. */
  private get url(): string | null {
    return this.env.databaseUrl ?? this.embedded.current?.url ?? null;
  }

  /** Listens on `channel` (a constant identifier, never user input). */
  listen(channel: string, listener: ChannelListener): void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    const known = this.listeners.get(channel);
    if (known) known.push(listener);
    else this.listeners.set(channel, [listener]);
    if (!this.url || this.closed) return;
    if (this.connected && this.client) {
      // A listener added on a live connection is ready once its channel's LISTEN has run.
      const client = this.client;
      this.subscribe(client, [channel]).then(
        () => client === this.client && this.connected && listener.ready(),
        () => undefined,
      );
    } else if (!this.client && !this.retry) void this.connect();
  }

  /**
   * The one statement this connection runs. LISTEN reads and writes no table, so it stays here with the
   * connection it needs rather than in a module's repository.
   */
  private subscribe(client: pg.Client, channels: string[]): Promise<unknown> {
    return client.query(channels.map((channel) => `LISTEN ${channel};`).join(' '));
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const embedded = this.env.databaseUrl ? null : this.embedded.current;
    const client = new pg.Client({
      connectionString: this.url!,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
    this.client = client;
    if (embedded) {
      this.unhearEmbedded ??= embedded.onNotification((n) => this.deliver(n.channel, n.payload));
    } else client.on('notification', (n) => this.deliver(n.channel, n.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      // Channels added while connecting are listened to as well before anyone is told it is ready.
      const subscribed = new Set<string>();
      for (;;) {
        const more = [...this.listeners.keys()].filter((channel) => !subscribed.has(channel));
        if (!more.length) break;
        await this.subscribe(client, more);
        more.forEach((channel) => subscribed.add(channel));
      }
    } catch (err) {
      if (this.outageLogged === false) {
        this.logger.warn(`Cannot listen for database notifications: ${(err as Error).message}`);
        this.outageLogged = true;
      }
      this.lost(client);
      return;
    }
    if (client !== this.client || this.closed) return;
    this.connected = true;
    if (this.outageLogged) this.logger.log('Listening for database notifications again');
    this.outageLogged = false;
    for (const list of this.listeners.values()) for (const listener of list) listener.ready();
  }

  private deliver(channel: string, payload: string): void {
    // Notifications are heard only while a connection listens, as on PostgreSQL.
    if (!this.connected) return;
    for (const listener of this.listeners.get(channel) ?? []) listener.message(payload);
  }

  /** The connection failed or ended: every listener hears of the gap, and a new connection follows. */
  private lost(client: pg.Client): void {
    if (client !== this.client) return;
    this.client = null;
    this.connected = false;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    for (const list of this.listeners.values()) for (const listener of list) listener.gap();
    if (!this.closed && !this.retry) this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.unhearEmbedded?.();
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
