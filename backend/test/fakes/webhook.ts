import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local email webhook that records the JSON it receives and answers 200. */
export class FakeWebhook {
  readonly received: { path: string; body: Record<string, unknown> }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Waits until a message to `path` (and to the address `to`, when given) arrives, and answers it. */
  async next(path: string, to?: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const i = this.received.findIndex((r) => r.path === path && (to === undefined || r.body.to === to));
      if (i >= 0) return this.received.splice(i, 1)[0].body;
      if (Date.now() > until) throw new Error(`no webhook call to ${path}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
