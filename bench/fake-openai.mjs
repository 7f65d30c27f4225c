// A fake OpenAI-compatible Chat Completions server for the bench: every streamed request gets `tokens` content
// chunks of one word each, `delayMs` apart, in the real SSE wire format (the JS twin of
// backend/test/fakes/openai-server.ts, reduced to what the bench needs).
// Run as a child process (`fork`) so that its event loop does not compete with the client being measured:
// it then reports { url } over IPC. Settings come from FAKE_TOKENS and FAKE_DELAY_MS.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** The token the fake streams at `index`; a leading space makes each chunk one word, as real models stream. */
export const fakeToken = (index) => ` w${index}`;

/** The whole text one fake answer carries. */
export const fakeAnswer = (tokens) => Array.from({ length: tokens }, (_, i) => fakeToken(i)).join('');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How the fake answers new requests, for the faults bench: 'pass' (stream), 'hang' (never answer), '429' (rate
 * limited, Retry-After: 1), '5xx' (503). Set by the parent over IPC ({ mode }).
 */
let mode = 'pass';

/** Starts the fake on a free port of 127.0.0.1; the SDK's baseURL is `${url}/v1`. */
export async function startFakeOpenAi({ tokens = 200, delayMs = 5 } = {}) {
  const handle = async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', code: null } }));
      return;
    }
    const body = JSON.parse(raw);
    if (mode === 'hang') return;
    if (mode === '429' || mode === '5xx') {
      const status = mode === '429' ? 429 : 503;
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(status === 429 ? { 'retry-after': '1' } : {}),
      });
      res.end(
        JSON.stringify({ error: { message: 'Unavailable', type: 'server_error', param: null, code: null } }),
      );
      return;
    }
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const text = fakeAnswer(tokens);
    const promptChars = (body.messages ?? []).reduce((n, m) => n + String(m.content ?? '').length, 0);
    const usage = {
      prompt_tokens: promptChars,
      completion_tokens: tokens,
      total_tokens: promptChars + tokens,
    };
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: text },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage,
        }),
      );
      return;
    }
    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (choices, extra = {}) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        system_fingerprint: null,
        choices,
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      })}\n\n`;
    let closed = false;
    res.on('close', () => (closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]),
    );
    for (let i = 0; i < tokens; i++) {
      if (delayMs > 0) await sleep(delayMs);
      if (closed) return;
      res.write(chunk([{ index: 0, delta: { content: fakeToken(i) }, logprobs: null, finish_reason: null }]));
    }
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]));
    if (includeUsage) res.write(chunk([], { usage }));
    res.end('data: [DONE]\n\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  // The default backlog is plenty, but 200 streams connect at once; keep-alive sockets are reused between rounds.
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// As a forked child: start, tell the parent where, stop when the parent disconnects.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fake = await startFakeOpenAi({
    tokens: Number(process.env.FAKE_TOKENS ?? 200),
    delayMs: Number(process.env.FAKE_DELAY_MS ?? 5),
  });
  process.send?.({ url: fake.url });
  process.on('message', (message) => {
    if (message?.mode) mode = message.mode;
  });
  process.on('disconnect', () => fake.close().then(() => process.exit(0)));
}
