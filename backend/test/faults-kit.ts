import { ChildProcess, spawn } from 'node:child_process';
import { freePort } from './app-process';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import { countWords } from '../src/modules/ai/words';
import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { TcpProxy } from './fakes/tcp-proxy';
import { startTestApp, TEST_DATABASE_URL, TEST_REDIS_URL, TestApp, TestUser } from './harness';

/**
 * The fault-injection rig: one app instance in this process and, when asked, more in child processes (for
 * SIGKILL and SIGTERM), all sharing one schema and Redis prefix, reaching PostgreSQL, Redis and the fake AI
 * provider through TCP proxies the tests cut, delay or blackhole. Customers send streamed messages in a loop
 * and follow their answers on sockets the way the chat does (offsets, stream_resume after a reconnect).
 */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const BACKEND = join(__dirname, '..');
/** A stream whose end never arrives within this is counted as lost (and fails the books). */
const OUTCOME_TIMEOUT_MS = 45_000;

export interface Instance {
  url: string;
  child: ChildProcess | null;
  /** SIGTERM and wait for the exit (the graceful shutdown). */
  stop(): Promise<void>;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
}

/** What happened to one POST /api/messages of a customer. */
export interface Attempt {
  status: number;
  code?: string;
  retryAfter?: string | null;
  user_message_id?: number;
  message_id?: number;
  /** How the answer ended for the client. */
  outcome?: 'complete' | 'interrupted' | 'failed' | 'lost';
  /** The text as the client rebuilt it from the stream events (offsets honoured). */
  streamed?: string;
  /** The final text the client was given (stream end or interruption). */
  final?: string;
  /** The socket's `error` / `openai-error` payload of a failed answer. */
  error?: { statusCode: number; message: string };
  /** An overlap disagreeing with the text so far, as the client saw it. */
  problem?: string;
}

export interface Customer {
  user: TestUser;
  conversation_id: number;
  attempts: Attempt[];
  /**
   * Moves the socket to another instance (or reconnects to the same), after `gapMs` without any socket when
   * given, and resumes the answer in flight from what it has; resolves true when an answer was in flight.
   */
  reconnect(url?: string, gapMs?: number): Promise<boolean>;
  close(): void;
}

export interface RigOptions {
  env?: Record<string, string>;
}

export interface Rig {
  t: TestApp;
  fake: FakeOpenAi;
  db: TcpProxy;
  redis: TcpProxy;
  ai: TcpProxy;
  /** The in-process instance's URL. */
  url: string;
  customer(url?: string): Promise<Customer>;
  spawnInstance(extraEnv?: Record<string, string>): Promise<Instance>;
  /**
   * Each customer sends one message after another to `target()` until `until`; a refusal is retried after a
   * short pause. Resolves once every answer sent has ended for its client (or was counted lost).
   */
  load(customers: Customer[], until: number, target?: (c: Customer) => string): Promise<void>;
  /** Polls /api/health until `up` (200); resolves with the time it took, rejects past `boundMs`. */
  healthy(url: string, boundMs: number): Promise<number>;
  /** Waits (at most `boundMs`) until no answer is generating; resolves with those still generating. */
  pendingAfter(boundMs: number): Promise<number>;
  /** Checks the books of these customers; throws with what is wrong. */
  verify(customers: Customer[]): Promise<BookSummary>;
  close(): Promise<void>;
}

export interface BookSummary {
  sent: number;
  refused: number;
  complete: number;
  interrupted: number;
  failed: number;
  charged: number;
  delivered: number;
}

async function proxyTo(target: string): Promise<TcpProxy> {
  const url = new URL(target);
  return new TcpProxy(url.hostname, Number(url.port)).start();
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const fake = await startFakeOpenAi();
  const db = await proxyTo(TEST_DATABASE_URL);
  const redis = await proxyTo(TEST_REDIS_URL);
  const ai = await proxyTo(fake.url);
  const t = await startTestApp({
    DATABASE_URL: db.url(TEST_DATABASE_URL),
    REDIS_URL: redis.url(TEST_REDIS_URL),
    OPENAI_API_KEY: 'sk-faults',
    OPENAI_BASE_URL: `${ai.url(fake.url).replace(/\/$/, '')}/v1`,
    GENERATION_MAX_CONCURRENT_PER_USER: '100',
    ...options.env,
  });
  await t.app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  const words = t.app.get(WordsService);
  const children: ChildProcess[] = [];
  const customers: Customer[] = [];

  async function spawnInstance(extraEnv: Record<string, string> = {}): Promise<Instance> {
    const env = t.env;
    const port = await freePort();
    // The real entry point (its SIGTERM drain included), compiled on the fly, contracts read from source.
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', '-r', './test/fixtures/contracts-from-source.ts', 'src/main.ts'],
      {
        cwd: BACKEND,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          SWC_NODE_PROJECT: join(BACKEND, 'tsconfig.json'),
          PORT: String(port),
          DATABASE_URL: env.databaseUrl ?? '',
          DATABASE_SCHEMA: env.databaseSchema ?? '',
          REDIS_URL: env.redisUrl ?? '',
          REDIS_PREFIX: env.redisPrefix,
          DATA_DIR: env.dataDir,
          APP_SECRET: env.appSecret,
          OPENAI_API_KEY: 'sk-faults',
          OPENAI_BASE_URL: env.openaiBaseUrl ?? '',
          LOG_LEVEL: 'error',
          AUTH_RATE_LIMIT_PER_MINUTE: '100000',
          GENERATION_MAX_CONCURRENT_PER_USER: '100',
          ...options.env,
          ...extraEnv,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    children.push(child);
    const childUrl = `http://127.0.0.1:${port}`;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const until = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the instance exited with ${child.exitCode}`);
      const up = await fetch(`${childUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > until) {
        child.kill('SIGKILL');
        throw new Error('the instance did not start within 90 s');
      }
      await sleep(200);
    }
    const gone = () => child.exitCode !== null || child.signalCode !== null;
    return {
      url: childUrl,
      child,
      async stop() {
        if (gone()) return;
        child.kill('SIGTERM');
        await exited;
      },
      async kill() {
        if (gone()) return;
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  async function customer(socketUrl = url): Promise<Customer> {
    const user = await t.createUser();
    await words.grant(user.user_id, { words: 1_000_000, source: 'gift' });
    const res = await fetch(`${url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: user.auth },
      body: JSON.stringify({ name: 'Faults' }),
    });
    if (res.status !== 201) throw new Error(`conversation: ${res.status} ${await res.text()}`);
    const conversation_id = ((await res.json()) as { conversation: { conversation_id: number } }).conversation
      .conversation_id;
    const attempts: Attempt[] = [];
    /** The answer in flight (one at a time per customer) and how to settle it. */
    let current: { attempt: Attempt; settle: () => void } | null = null;
    let socket: Socket;

    const connect = async (to: string) => {
      const s = io(to, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        auth: { token: user.token },
      });
      s.on('message_stream', (p: { message_id: number; offset: number; content: string }) => {
        const a = current?.attempt;
        if (!a || a.message_id !== p.message_id) return;
        const text = a.streamed ?? '';
        // A gap (chunks missed while reconnecting): skip it and ask for the rest, as the chat does.
        if (p.offset > text.length) {
          s.emit('stream_resume', { message_id: p.message_id, offset: text.length });
          return;
        }
        // An overlap must repeat exactly what the client has: a different text would be a duplicate or a mix-up.
        const overlap = text.slice(p.offset);
        if (!p.content.startsWith(overlap) && !overlap.startsWith(p.content))
          a.problem ??= `chunk at ${p.offset} disagrees with the text so far`;
        a.streamed = text + p.content.slice(Math.min(p.content.length, text.length - p.offset));
      });
      s.on('message_stream_end', (p: { message: { message_id: number; content: string } }) => {
        const a = current?.attempt;
        if (!a || a.message_id !== p.message.message_id) return;
        a.outcome = 'complete';
        a.final = p.message.content;
        current?.settle();
      });
      s.on('message_interrupted', (p: { message_id: number; content: string }) => {
        const a = current?.attempt;
        if (!a || a.message_id !== p.message_id) return;
        a.outcome = 'interrupted';
        a.final = p.content;
        current?.settle();
      });
      const failed = (payload?: { statusCode?: number; message?: string }) => {
        if (!current) return;
        current.attempt.outcome = 'failed';
        current.attempt.error = { statusCode: payload?.statusCode ?? 0, message: payload?.message ?? '' };
        current.settle();
      };
      s.on('error', failed);
      s.on('openai-error', failed);
      // A server closing its sockets (shutdown) or a lost connection: go to the in-process instance and resume.
      s.on('disconnect', (reason) => {
        if (reason === 'io client disconnect' || closed) return;
        void (async () => {
          await sleep(100);
          if (closed || socket !== s) return;
          await moveTo(url).catch(() => undefined);
        })();
      });
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', (err) => reject(err));
      });
      return s;
    };
    let closed = false;
    /** Reconnects (after `gapMs` without a socket, when given) and resumes the answer in flight; true if any. */
    const moveTo = async (to: string, gapMs = 0) => {
      const old = socket;
      if (gapMs) {
        old.disconnect();
        await sleep(gapMs);
      }
      socket = await connect(to);
      old.disconnect();
      const a = current?.attempt;
      if (a?.message_id === undefined || a.outcome) return false;
      socket.emit('stream_resume', { message_id: a.message_id, offset: (a.streamed ?? '').length });
      return true;
    };
    socket = await connect(socketUrl);

    const c: Customer & { send(to: string): Promise<void> } = {
      user,
      conversation_id,
      attempts,
      reconnect: (to = url, gapMs = 0) => moveTo(to, gapMs),
      close() {
        closed = true;
        socket.disconnect();
      },
      async send(to: string) {
        const attempt: Attempt = { status: 0 };
        attempts.push(attempt);
        let settle = () => undefined as void;
        const ended = new Promise<void>((resolve) => (settle = resolve));
        current = { attempt, settle };
        try {
          const res = await fetch(`${to}/api/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: user.auth },
            // Each customer's text names its conversation, so the fake provider can tell the streams apart.
            body: JSON.stringify({ content: `Write something for ${conversation_id}.`, conversation_id }),
          }).catch(() => null);
          attempt.status = res?.status ?? 0;
          const body = (res ? await res.json().catch(() => ({})) : {}) as {
            code?: string;
            user_message?: { message_id: number };
            message?: { message_id: number };
          };
          attempt.retryAfter = res?.headers.get('retry-after') ?? null;
          if (attempt.status !== 201) {
            attempt.code = body.code;
            return;
          }
          attempt.user_message_id = body.user_message?.message_id;
          attempt.message_id = body.message?.message_id;
          const timer = setTimeout(() => {
            attempt.outcome ??= 'lost';
            settle();
          }, OUTCOME_TIMEOUT_MS);
          await ended;
          clearTimeout(timer);
        } finally {
          current = null;
        }
      },
    };
    customers.push(c);
    return c;
  }

  const rig: Rig = {
    t,
    fake,
    db,
    redis,
    ai,
    url,
    customer,
    spawnInstance,
    async load(list, until, target = () => url) {
      await Promise.all(
        list.map(async (c) => {
          while (Date.now() < until) {
            await (c as Customer & { send(to: string): Promise<void> }).send(target(c));
            const last = c.attempts[c.attempts.length - 1];
            if (last.outcome !== 'complete') await sleep(200);
          }
        }),
      );
    },
    async healthy(to, boundMs) {
      const started = Date.now();
      for (;;) {
        const up = await fetch(`${to}/api/health`).then(
          async (r) => r.ok && ((await r.json()) as { status: string }).status === 'up',
          () => false,
        );
        if (up) return Date.now() - started;
        if (Date.now() - started > boundMs) throw new Error(`${to} not healthy within ${boundMs} ms`);
        await sleep(100);
      }
    },
    async pendingAfter(boundMs) {
      const until = Date.now() + boundMs;
      for (;;) {
        const [{ n }] = (await t.db.query(
          `SELECT count(*)::int AS n FROM messages WHERE status = 'generating'`,
        )) as { n: number }[];
        if (n === 0 || Date.now() > until) return n;
        await sleep(200);
      }
    },
    async verify(list) {
      const summary: BookSummary = {
        sent: 0,
        refused: 0,
        complete: 0,
        interrupted: 0,
        failed: 0,
        charged: 0,
        delivered: 0,
      };
      const problems: string[] = [];
      for (const c of list) {
        const rows = (await t.db.query(
          `SELECT message_id, role, status, content, words FROM messages WHERE conversation_id = $1`,
          [c.conversation_id],
        )) as { message_id: number; role: string; status: string; content: string | null; words: number }[];
        const byId = new Map(rows.map((r) => [r.message_id, r]));
        const debits = (await t.db.query(
          `SELECT reference, -words::int AS words FROM word_ledger WHERE user_id = $1 AND kind = 'debit'`,
          [c.user.user_id],
        )) as { reference: string; words: number }[];
        const charges = new Map<string, number>();
        for (const d of debits) {
          if (charges.has(d.reference)) problems.push(`${d.reference} charged twice`);
          charges.set(d.reference, d.words);
        }
        for (const row of rows) {
          if (row.role !== 'assistant') continue;
          const charge = charges.get(`message:${row.message_id}`) ?? 0;
          charges.delete(`message:${row.message_id}`);
          if (row.status === 'generating') problems.push(`answer ${row.message_id} still generating`);
          const delivered = row.status === 'complete' ? countWords(row.content ?? '') : 0;
          if (charge !== delivered)
            problems.push(
              `answer ${row.message_id} (${row.status}) charged ${charge}, delivered ${delivered}`,
            );
          summary.charged += charge;
          summary.delivered += delivered;
        }
        for (const [reference] of charges) problems.push(`${reference} charged without a complete answer`);
        for (const a of c.attempts) {
          summary.sent++;
          if (a.status !== 201) {
            summary.refused++;
            continue;
          }
          if (!byId.has(a.user_message_id!)) problems.push(`user message ${a.user_message_id} lost`);
          const row = byId.get(a.message_id!);
          if (a.problem) problems.push(`answer ${a.message_id}: ${a.problem}`);
          if (a.outcome === 'lost') problems.push(`answer ${a.message_id}: the client never saw it end`);
          if (a.outcome === 'complete') {
            summary.complete++;
            if (row?.status !== 'complete' || row.content !== a.final)
              problems.push(`answer ${a.message_id}: the client saw it complete, stored ${row?.status}`);
            // What the client rebuilt from the stream is the start of the answer, never a different text (no
            // duplicate, no mix-up); where the end came before the resumed tail, the end event's text (the whole
            // answer, which the chat shows) fills it, so the user sees no gap either.
            if (!(a.final ?? '').startsWith(a.streamed ?? ''))
              problems.push(`answer ${a.message_id}: streamed text is not the start of the saved answer`);
          }
          if (a.outcome === 'interrupted') {
            summary.interrupted++;
            if (row?.status !== 'interrupted' || row.content !== a.final)
              problems.push(`answer ${a.message_id}: the client saw it interrupted, stored ${row?.status}`);
          }
          if (a.outcome === 'failed') {
            summary.failed++;
            // A failure before any text removes the pending answer; one after text keeps it as interrupted.
            if (row && row.status !== 'interrupted')
              problems.push(`answer ${a.message_id}: failed but stored as ${row.status}`);
          }
        }
      }
      if (problems.length) throw new Error(`Books do not balance:\n${problems.slice(0, 20).join('\n')}`);
      return summary;
    },
    async close() {
      for (const c of customers) c.close();
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      db.restore();
      redis.restore();
      ai.restore();
      await t.close();
      await Promise.all([db.stop(), redis.stop(), ai.stop(), fake.close()]);
    },
  };
  return rig;
}
