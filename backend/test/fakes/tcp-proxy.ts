import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a real service (PostgreSQL, Redis, the fake AI provider) for fault-injection tests:
 * `cut()` drops every connection and refuses new ones, `blackhole()` accepts connections and forwards nothing,
 * `restore()` passes traffic again.
 */
export class TcpProxy {
  private mode: 'pass' | 'refuse' | 'blackhole' = 'pass';
  private readonly pairs = new Set<{ client: Socket; upstream: Socket | null }>();
  private server: Server | null = null;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('proxy has no port');
    this.port = address.port;
    return this;
  }

  /** The same URL with host and port replaced by the proxy's. */
  url(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.destroy();
      return;
    }
    const pair = { client, upstream: null as Socket | null };
    this.pairs.add(pair);
    client.on('close', () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    if (this.mode === 'blackhole') return;
    const upstream = createConnection(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void {
    this.mode = 'refuse';
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream?.destroy();
    }
    this.pairs.clear();
  }

  /** New connections are accepted and never answered (a host that vanished); open ones stay as they are. */
  blackhole(): void {
    this.mode = 'blackhole';
  }

  restore(): void {
    this.mode = 'pass';
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
