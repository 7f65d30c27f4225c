import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EMBEDDING_DIMENSIONS } from '../../src/modules/ai/embedding-model';
import { hashEmbedding } from '../../src/modules/avatars/testing/hash-embedder';

/** What the fake answers to one request. Each request takes the next scripted reply; then `defaultReply`. */
export type FakeReply =
  | {
      /** The answer; split into `chunks` pieces (default 3) when streamed. */
      text: string;
      chunks?: number;
      /** Pause before each chunk, in ms. */
      delayMs?: number;
      finishReason?: 'stop' | 'length' | 'content_filter';
      /** Destroy the socket after this many content chunks (no finish chunk, no [DONE]). */
      dropAfterChunks?: number;
      /** End the response cleanly after this many content chunks, without finish chunk or [DONE]. */
      endAfterChunks?: number;
    }
  | {
      fail: { status: number; message: string; type?: string; code?: string | null };
      /** A `retry-after` header in seconds, as providers send with 429 (instead of the quick retry-after-ms). */
      retryAfter?: string;
    }
  /** Accept the request and never answer (for timeouts). */
  | { hang: true };

export interface FakeRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** Resolves when the connection closes, whoever closed it. */
  closed: Promise<void>;
  /** True when the client went away before the fake finished its answer. */
  closedByClient: boolean;
}

export interface FakeOpenAi {
  /** e.g. http://127.0.0.1:40123; the SDK's baseURL is `${url}/v1`. */
  url: string;
  requests: FakeRequest[];
  /** Queues replies for the next requests, in order. */
  reply(...replies: FakeReply[]): void;
  defaultReply: FakeReply;
  /** Whether /v1/embeddings answers (true by default); false plays a provider without embeddings (404). */
  embeddings: boolean;
  /** Embeddings requests answered so far. */
  embeddingRequests: number;
  /**
   * Chooses the reply from the request itself, before the queue (for a test process that cannot script the
   * fake directly, such as the browser tests' server). Undefined falls through to the queue and the default.
   */
  replyFor?: (request: FakeRequest) => FakeReply | undefined;
  /** When set, every request whose bearer is not this key answers 401, as a provider refusing a wrong key does. */
  requiredKey?: string;
  /** What GET /v1/models lists. */
  models: string[];
  /** Forgets recorded requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

const usageFor = (messages: { content: string }[], text: string) => {
  const prompt = messages.reduce((n, m) => n + String(m.content ?? '').length, 0);
  return { prompt_tokens: prompt, completion_tokens: text.length, total_tokens: prompt + text.length };
};

/** Splits by code points (never inside a surrogate pair) into at most `n` non-empty pieces. */
export function splitText(text: string, n: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, n)));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local OpenAI-compatible Chat Completions server speaking the real wire format, scriptable per test. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: FakeReply[] = [];
  const fake: FakeOpenAi = {
    url: '',
    requests: [],
    reply: (...replies) => queue.push(...replies),
    defaultReply: { text: 'Hello from the fake.' },
    embeddings: true,
    embeddingRequests: 0,
    models: ['gpt-4o-mini', 'gpt-4o'],
    reset() {
      queue.length = 0;
      fake.requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => resolve(data));
    });
    if (fake.requiredKey !== undefined && req.headers.authorization !== `Bearer ${fake.requiredKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: fake.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
        }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings' && fake.embeddings) {
      // Deterministic vectors (hashEmbedding), so retrieval tests and benches give the same ranks every run.
      const body = JSON.parse(raw) as { input: string | string[]; model: string; dimensions?: number };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      fake.embeddingRequests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: inputs.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: hashEmbedding(String(text), body.dimensions ?? EMBEDDING_DIMENSIONS),
          })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', code: null } }));
      return;
    }
    const body = JSON.parse(raw) as Record<string, unknown>;
    let finished = false;
    const record: FakeRequest = {
      model: String(body.model),
      messages: body.messages as FakeRequest['messages'],
      stream: body.stream === true,
      authorization: req.headers.authorization,
      body,
      closedByClient: false,
      closed: new Promise<void>((resolve) =>
        res.on('close', () => {
          if (!finished) record.closedByClient = true;
          resolve();
        }),
      ),
    };
    fake.requests.push(record);
    const reply = fake.replyFor?.(record) ?? queue.shift() ?? fake.defaultReply;

    if ('hang' in reply) return;
    if ('fail' in reply) {
      finished = true;
      // retry-after-ms keeps the SDK's retry quick in tests, unless the reply names its own retry-after.
      res.writeHead(reply.fail.status, {
        'content-type': 'application/json',
        ...(reply.retryAfter === undefined
          ? { 'retry-after-ms': '10' }
          : { 'retry-after': reply.retryAfter }),
      });
      res.end(
        JSON.stringify({
          error: {
            message: reply.fail.message,
            type: reply.fail.type ?? 'invalid_request_error',
            param: null,
            code: reply.fail.code ?? null,
          },
        }),
      );
      return;
    }

    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const model = record.model;
    const finishReason = reply.finishReason ?? 'stop';
    const usage = usageFor(record.messages, reply.text);
    if (!record.stream) {
      finished = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          system_fingerprint: null,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.text, refusal: null },
              logprobs: null,
              finish_reason: finishReason,
            },
          ],
          usage,
        }),
      );
      return;
    }

    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices,
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      })}\n\n`;
    const gone = () => res.destroyed || record.closedByClient;
    // Let what was written reach the client first, so it is a drop mid-answer rather than a failed connect.
    const drop = async () => {
      finished = true;
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await sleep(20);
      req.socket.destroy();
    };

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(
      chunk([
        {
          index: 0,
          delta: { role: 'assistant', content: '', refusal: null },
          logprobs: null,
          finish_reason: null,
        },
      ]),
    );
    const pieces = splitText(reply.text, reply.chunks ?? 3);
    for (let i = 0; i < pieces.length; i++) {
      if (reply.endAfterChunks !== undefined && i >= reply.endAfterChunks) {
        finished = true;
        res.end();
        return;
      }
      if (reply.dropAfterChunks !== undefined && i >= reply.dropAfterChunks) {
        await drop();
        return;
      }
      if (reply.delayMs) await sleep(reply.delayMs);
      if (gone()) return;
      res.write(chunk([{ index: 0, delta: { content: pieces[i] }, logprobs: null, finish_reason: null }]));
    }
    if (reply.dropAfterChunks !== undefined) {
      await drop();
      return;
    }
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]));
    if (includeUsage) res.write(chunk([], { usage }));
    finished = true;
    res.end('data: [DONE]\n\n');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
