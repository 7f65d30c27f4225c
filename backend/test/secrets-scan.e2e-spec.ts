import { ConsoleLogger, Logger } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { freePort } from './app-process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import { installSharedExtensions, TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

/**
 * Secrets never leave through the start log, the public config, an error body, a socket message, a log line or
 * a job's data. Each secret is a known random value, so finding any part of one anywhere is a leak.
 */
const secret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const SECRETS = {
  APP_SECRET: secret('app-secret-'),
  OPENAI_API_KEY: secret('sk-env-'),
  XAI_API_KEY: secret('xai-env-'),
  ADMIN_PASSWORD: secret('Admin-pw-'),
  APP_CONFIG_OPENAI_KEY: secret('sk-appcfg-'),
  STRIPE_PRIVATE_KEY: secret('sk_live_'),
  STRIPE_WEBHOOK_KEY: secret('whsec_'),
  ORG_OPENAI_KEY: secret('sk-proj-org-'),
  ORG_STRIPE_SECRET: secret('sk_org_'),
};

/** Every piece of 12 characters of every secret: a message quoting part of a key is a leak too. */
function leaks(text: string, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const value of secrets) {
    for (let i = 0; i + 12 <= value.length; i += 4) {
      if (text.includes(value.slice(i, i + 12))) {
        found.push(value);
        break;
      }
    }
  }
  return found;
}

/** A reset link or token in any form (the token itself is random, so look for the link's shape). */
const RESET_LINK = /reset-password\?token=|[?&]token=[A-Za-z0-9_-]{16,}/;

async function freshSchema(): Promise<string> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await installSharedExtensions(admin);
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return schema;
}

async function dropSchema(schema: string): Promise<void> {
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}

/** Everything stored under a Redis prefix (job hashes, lists, sets), as one text. */
async function redisDump(prefix: string): Promise<{ keys: number; text: string }> {
  const redis = new IORedis(TEST_REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}*`);
    let text = '';
    for (const key of keys) {
      const type = await redis.type(key);
      if (type === 'hash') text += JSON.stringify(await redis.hgetall(key));
      else if (type === 'list') text += JSON.stringify(await redis.lrange(key, 0, -1));
      else if (type === 'string') text += (await redis.get(key)) ?? '';
      else if (type === 'zset') text += JSON.stringify(await redis.zrange(key, 0, -1));
      else if (type === 'set') text += JSON.stringify(await redis.smembers(key));
      else if (type === 'stream') text += JSON.stringify(await redis.xrange(key, '-', '+'));
    }
    if (keys.length) await redis.del(...keys);
    return { keys: keys.length, text };
  } finally {
    redis.disconnect();
  }
}

describe('Secrets stay out of the start log, job data and answers (the app as `npm start` runs it)', () => {
  jest.setTimeout(180_000);
  const adminEmail = 'first.admin@example.com';
  const prefix = `test-secrets-${randomBytes(4).toString('hex')}`;
  let schema: string;
  let child: ChildProcess;
  let url: string;
  let output = '';

  beforeAll(async () => {
    schema = await freshSchema();
    const port = await freePort();
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'avatar-studio-secrets-')),
        APP_SECRET: SECRETS.APP_SECRET,
        OPENAI_API_KEY: SECRETS.OPENAI_API_KEY,
        XAI_API_KEY: SECRETS.XAI_API_KEY,
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: SECRETS.ADMIN_PASSWORD,
        // The most talkative level: every line the app can write is scanned.
        LOG_LEVEL: 'verbose',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${output}`);
      const up = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 400) throw new Error(`the app did not start:\n${output}`);
      await sleep(250);
    }
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await redisDump(prefix);
    await dropSchema(schema);
  });

  it('writes no secret, reset link or token to the log, to job data, to the public config or to an error body', async () => {
    const startLog = output;
    expect(startLog).toContain('Avatar Studio on');

    const login = await request(url)
      .post('/api/auth/login')
      .send({ email: adminEmail, password: SECRETS.ADMIN_PASSWORD })
      .expect(200);
    const admin = `Bearer ${login.body.access_token}`;
    await request(url)
      .put('/api/appconfig')
      .set('Authorization', admin)
      .send({
        password: SECRETS.ADMIN_PASSWORD,
        config: [
          { key: 'openai_secret_key', value: SECRETS.APP_CONFIG_OPENAI_KEY },
          { key: 'stripe_private_key', value: SECRETS.STRIPE_PRIVATE_KEY },
          { key: 'stripe_webhook_key', value: SECRETS.STRIPE_WEBHOOK_KEY },
        ],
      })
      .expect(200);
    await request(url)
      .post('/api/organizations')
      .set('Authorization', admin)
      .send({
        name: 'Keyed',
        openai_api_key: SECRETS.ORG_OPENAI_KEY,
        stripe_secret: SECRETS.ORG_STRIPE_SECRET,
      })
      .expect(201);
    const customer = {
      name: 'Casey',
      last_name: 'Customer',
      email: 'casey.customer@example.com',
      password: 'secret123',
      phone: '(555) 123-4567',
      signup_reason: 'Recommendation',
    };
    await request(url).post('/api/auth/signup').send(customer).expect(201);
    // A reset link handed to staff: its token is known here, and must not be written anywhere.
    const handed = await request(url)
      .post('/api/users/resetPasswordLink')
      .set('Authorization', admin)
      .send({ email: customer.email })
      .expect(200);
    const resetToken = new URL(handed.body.link).searchParams.get('token')!;
    expect(resetToken.length).toBeGreaterThan(16);
    // No reset webhook is set: the emailed link must not go to the log instead.
    await request(url).post('/api/auth/recovery').send({ email: customer.email }).expect(200);
    await request(url)
      .post('/api/users/sendResetPasswordLink')
      .set('Authorization', admin)
      .send({ email: customer.email })
      .expect(200);
    for (let i = 0; i < 40 && (output.match(/reset_password email to/g) ?? []).length < 2; i++)
      await sleep(250);
    expect(output).toMatch(
      /No reset_password_email_webhook_url set; the reset_password email to \S+ was not sent/,
    );

    const publicConfig = await request(url).get('/api/appconfig').expect(200);
    const adminConfig = await request(url)
      .get('/api/appconfig/admin')
      .set('Authorization', admin)
      .expect(200);
    const failures = await Promise.all([
      request(url)
        .post('/api/auth/login')
        .send({ email: adminEmail, password: `${SECRETS.ADMIN_PASSWORD}x` }),
      request(url).post('/api/auth/login').send({ email: adminEmail, password: 42 }),
      request(url)
        .post('/api/auth/reset-password')
        .send({ token: `${resetToken}x`, password: 'newsecret1' }),
      request(url).post('/api/auth/refresh').send({ refresh_token: SECRETS.APP_SECRET }),
      request(url).post('/api/auth/token').send({ token: resetToken }),
      request(url).get('/api/appconfig/admin').set('Authorization', `Bearer ${SECRETS.APP_SECRET}`),
      request(url)
        .put('/api/appconfig')
        .set('Authorization', admin)
        .send({
          config: [{ key: 'welcome_email_webhook_url', value: `ftp://${SECRETS.STRIPE_WEBHOOK_KEY}` }],
        }),
      request(url)
        .put('/api/appconfig')
        .set('Authorization', admin)
        .send({ config: [{ key: 'firebaseConfig', value: `{${SECRETS.STRIPE_PRIVATE_KEY}` }] }),
      request(url)
        .put('/api/appconfig')
        .set('Authorization', admin)
        .set('content-type', 'application/json')
        .send(`{"config": [{"key": "openai_secret_key", "value": "${SECRETS.APP_CONFIG_OPENAI_KEY}"`),
    ]);
    for (const res of failures) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // Let the email jobs finish so their data is final in Redis.
    await sleep(1000);
    const jobs = await redisDump(prefix);
    expect(jobs.keys).toBeGreaterThan(0);
    expect(jobs.text).toContain('reset_password');

    const secrets = [...Object.values(SECRETS), resetToken];
    const places: [string, string][] = [
      ['start log', startLog],
      ['whole log', output],
      ['job data', jobs.text],
      ['public config', JSON.stringify(publicConfig.body)],
      ['admin config', JSON.stringify(adminConfig.body)],
      ...failures.map((res, i): [string, string] => [`error body ${i}`, JSON.stringify(res.body)]),
    ];
    for (const [where, text] of places) {
      expect([where, leaks(text, secrets)]).toEqual([where, []]);
      expect([where, RESET_LINK.test(text)]).toEqual([where, false]);
    }
    for (const key of ['bucket', 'region', 'S3_ENDPOINT', 'super_fetch_prompt', 'openai_model']) {
      expect(publicConfig.body.config.map((e: { key: string }) => e.key)).not.toContain(key);
    }
  });
});

describe("A provider's error quoting the key reaches no one", () => {
  let k: MessagesKit;
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    for (const method of ['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] as const) {
      const record = (message: unknown, ...rest: unknown[]) => {
        logged.push(
          [message, ...rest].map((m) => (m instanceof Error ? (m.stack ?? m.message) : String(m))).join(' '),
        );
      };
      spies.push(jest.spyOn(Logger.prototype, method).mockImplementation(record));
      spies.push(jest.spyOn(ConsoleLogger.prototype, method).mockImplementation(record));
    }
    k = await startMessagesKit({ OPENAI_API_KEY: SECRETS.OPENAI_API_KEY });
    // The provider quotes the key it was sent, whole and masked, as OpenAI's 401 does.
    k.fake.replyFor = (req) => {
      const key = (req.authorization ?? '').replace(/^Bearer /, '');
      return {
        fail: {
          status: 401,
          message: `Incorrect API key provided: ${key}. You can find yours at ${key.slice(0, 10)}****${key.slice(-4)}.`,
          code: 'invalid_api_key',
        },
      };
    };
  });
  afterAll(async () => {
    k.disconnectAll();
    await k.close();
    for (const spy of spies) spy.mockRestore();
  });

  it('redacts the organization key, the app config key and the env key from bodies, sockets and logs', async () => {
    const admin = await k.t.createUser({ staff: 'admin' });
    await k.t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        password: admin.password,
        config: [{ key: 'openai_secret_key', value: SECRETS.APP_CONFIG_OPENAI_KEY }],
      })
      .expect(200);
    const created = await k.t
      .http()
      .post('/api/organizations')
      .set('Authorization', admin.auth)
      .send({ name: 'Keyed', openai_api_key: SECRETS.ORG_OPENAI_KEY })
      .expect(201);
    const orgId = created.body.organization.organization_id as number;
    const user = await k.customer();
    await k.t.addMember(orgId, user.user_id, 3);
    const { events } = await k.listen(user);
    const content = 'Please make this prompt a lot better than it is now.';

    const bodies: unknown[] = [];
    for (const [i, scope] of [`?organization_id=${orgId}`, ''].entries()) {
      const sync = await k
        .post(user, `/api/messages/enhance${scope}`, { content, stream: false })
        .expect(400);
      expect(sync.body.code).toBe('openai_error');
      expect(sync.body.message).toMatch(/^Open AI Error: Incorrect API key provided: \[redacted\]/);
      bodies.push(sync.body);
      await k.post(user, `/api/messages/enhance${scope}`, { content }).expect(201);
      // The streamed enhance holds the user's words until it fails, so the next one waits for its end.
      await waitFor(() => events.filter((e) => e.event === 'openai-error').length > i || undefined, 10_000);
    }
    await waitFor(() => events.filter((e) => e.event === 'openai-error').length >= 2 || undefined, 10_000);
    const sentKeys = k.fake.requests.map((r) => r.authorization);
    expect(sentKeys).toContain(`Bearer ${SECRETS.ORG_OPENAI_KEY}`);
    expect(sentKeys).toContain(`Bearer ${SECRETS.APP_CONFIG_OPENAI_KEY}`);

    const everything = JSON.stringify({ bodies, events, logged });
    expect(leaks(everything, Object.values(SECRETS))).toEqual([]);
  });
});
