import { Logger } from '@nestjs/common';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfigService } from '../src/modules/app-config/app-config.service';
import { MailService } from '../src/modules/mail/mail.service';
import { startTestApp, TestApp, TestUser } from './harness';

/** A local webhook that records what it receives and answers with the next queued status (200 when none). */
class FakeWebhook {
  readonly received: { path: string; body: Record<string, unknown>; contentType?: string }[] = [];
  readonly statuses: number[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.statuses.shift() ?? 200;
        this.received.push({
          path: req.url ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          contentType: req.headers['content-type'],
        });
        res.writeHead(status).end(status < 300 ? 'ok' : 'fail');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Mail through the webhook job', () => {
  let t: TestApp;
  let admin: TestUser;
  const hook = new FakeWebhook();
  let mail: MailService;

  beforeAll(async () => {
    await hook.start();
    t = await startTestApp();
    admin = await t.createUser({ staff: 'admin' });
    mail = t.app.get(MailService);
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        password: admin.password,
        config: [
          { key: 'welcome_email_webhook_url', value: `${hook.url}/welcome` },
          { key: 'reset_password_email_webhook_url', value: `${hook.url}/reset` },
          { key: 'app_name', value: 'Brand X' },
        ],
      })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await hook.stop();
  });
  beforeEach(() => {
    hook.received.length = 0;
    hook.statuses.length = 0;
  });

  it('posts a welcome email once, with the right body, to the welcome webhook', async () => {
    await mail.sendWelcome({ email: 'new@example.com', name: 'Nora', last_name: 'New' });
    await waitFor(() => hook.received.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toEqual({
      path: '/welcome',
      contentType: 'application/json',
      body: { type: 'welcome', to: 'new@example.com', name: 'Nora', last_name: 'New', app_name: 'Brand X' },
    });
  });

  it('posts the reset link to the reset-password webhook', async () => {
    await mail.sendResetPassword(
      { email: 'old@example.com', name: 'Olga' },
      'https://app.test/reset?token=abc',
    );
    await waitFor(() => hook.received.length > 0, 10_000);
    expect(hook.received[0]).toMatchObject({
      path: '/reset',
      body: {
        type: 'reset_password',
        to: 'old@example.com',
        name: 'Olga',
        link: 'https://app.test/reset?token=abc',
        app_name: 'Brand X',
      },
    });
  });

  it('retries a webhook that fails twice and then delivers', async () => {
    hook.statuses.push(500, 503);
    await mail.sendWelcome({ email: 'retry@example.com', name: 'Rita', last_name: 'Retry' });
    await waitFor(() => hook.received.length >= 3, 25_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.received).toHaveLength(3);
    expect(hook.received.every((r) => r.body.to === 'retry@example.com')).toBe(true);
  }, 40_000);

  it('writes the message to the log instead when no webhook is set', async () => {
    await t.app
      .get(AppConfigService)
      .update([{ key: 'welcome_email_webhook_url', value: '' }], admin.user_id);
    const logged: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => {
      logged.push(String(message));
    });
    try {
      await mail.sendWelcome({ email: 'quiet@example.com', name: 'Quinn', last_name: 'Quiet' });
      await waitFor(() => logged.some((m) => m.includes('quiet@example.com')), 10_000);
    } finally {
      spy.mockRestore();
    }
    expect(logged.find((m) => m.includes('quiet@example.com'))).toContain('welcome');
    expect(hook.received).toHaveLength(0);
  });
});
