import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export const ROOT = join(__dirname, '..', '..');
/**
 * Where globalSetup leaves the server's address for the tests. One file per run (named in the environment, which
 * the test processes inherit), so two runs on one machine never read each other's server.
 */
function stateFile(): string {
  process.env.E2E_STATE_FILE ??= join(
    tmpdir(),
    `avatar-studio-e2e-${process.pid}-${randomBytes(3).toString('hex')}.json`,
  );
  return process.env.E2E_STATE_FILE;
}

/** A port nobody listens on now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface E2eState {
  baseUrl: string;
  adminEmail: string;
  adminPassword: string;
  schema: string;
  pid: number;
  /** The fake Stripe and PayPal APIs the server talks to (the browser reaches them through routed URLs). */
  stripeUrl?: string;
  paypalUrl?: string;
}

/** The fake AI provider's answer to every chat in the browser tests (streamed in pieces). */
export const FAKE_REPLY = 'Hello from the fake model. It streams its answer in several small pieces.';
/** A prompt containing this is answered with CUT_REPLY and finish_reason 'length' (cut at the token limit). */
export const CUT_PROMPT = 'Tell me a very long story';
export const CUT_REPLY = '# A long story\n\nOnce upon a time there was a **brave** fox who';

/** Starts the production build (backend serving the built frontends) on a fresh schema, for every test file. */
export async function startServer(
  aiBaseUrl?: string,
  payments?: { stripeUrl: string; paypalUrl: string },
): Promise<{ state: E2eState; child: ChildProcess }> {
  const launched = await launchServer({
    env: {
      // The browser tests start from an empty library (their lists and counts assume it).
      STARTER_CONTENT: 'false',
      ...(aiBaseUrl ? { OPENAI_API_KEY: 'sk-e2e-fake', OPENAI_BASE_URL: aiBaseUrl } : {}),
      ...(payments ? { STRIPE_API_BASE: payments.stripeUrl, PAYPAL_API_BASE: payments.paypalUrl } : {}),
    },
  });
  writeFileSync(stateFile(), JSON.stringify(launched.state));
  return launched;
}

/**
 * Starts another server of the production build on a fresh schema with `env` added (a first run, for one test
 * file); the shared one is untouched. Stop it with stopLaunchedServer.
 */
export async function launchServer(options: {
  env?: Record<string, string>;
}): Promise<{ state: E2eState; child: ChildProcess }> {
  const main = join(ROOT, 'backend', 'dist', 'main.js');
  if (!existsSync(main)) throw new Error('Build first: npm run build');
  const schema = `e2e_${randomBytes(5).toString('hex')}`;
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query(`CREATE SCHEMA ${schema}`);
  await db.end();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminEmail = 'admin@e2e.test';
  const adminPassword = 'admin-pass-123';
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL,
      REDIS_PREFIX: `e2e-${schema}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-data-')),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_ACCOUNT_RATE_LIMIT_PER_MINUTE: '100000',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: false,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health within 60 s');
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stripeUrl = options.env?.STRIPE_API_BASE;
  const paypalUrl = options.env?.PAYPAL_API_BASE;
  const state: E2eState = {
    baseUrl,
    adminEmail,
    adminPassword,
    schema,
    pid: child.pid!,
    ...(stripeUrl && paypalUrl ? { stripeUrl, paypalUrl } : {}),
  };
  return { state, child };
}

/** Stops a server of launchServer and drops its schema. */
export async function stopLaunchedServer(launched: { state: E2eState; child: ChildProcess }): Promise<void> {
  const exited = new Promise((r) => launched.child.once('exit', r));
  launched.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${launched.state.schema} CASCADE`);
  await db.end();
}

export function readState(): E2eState {
  return JSON.parse(readFileSync(stateFile(), 'utf8')) as E2eState;
}

/**
 * Marks an account's email as verified, as opening the emailed verification link does (that link's own flow is
 * tested in the API tests; the browser tests have no mailbox).
 */
export async function markEmailVerified(email: string): Promise<void> {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    await db.query(`UPDATE "${readState().schema}".users SET email_verified_at = now() WHERE email = $1`, [
      email.toLowerCase(),
    ]);
  } finally {
    await db.end();
  }
}

export async function stopServer(): Promise<void> {
  if (!existsSync(stateFile())) return;
  const state = readState();
  rmSync(stateFile(), { force: true });
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  await new Promise((r) => setTimeout(r, 500));
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${state.schema} CASCADE`);
  await db.end();
}
