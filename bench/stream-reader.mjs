// The streaming bench's floor for CPU: a Node.js process that does nothing but read the fake provider's answers
// the way the product's engine does (the openai SDK makes the request through the product's HTTP client, which
// reads a streamed answer at the pace its events go out, and the body is split into events as it arrives), with
// the same number of streams in flight. Its CPU time over the answers is what reading them costs any Node.js
// process on this machine, whatever the product does around them: every read wakes an idle process.
// Needs the built backend. Run as a child process (`fork`); the parent reads its CPU time from /proc. Messages:
// { baseURL, concurrency, rounds, spreadMs } runs a level and answers { answers, errors }.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import OpenAI from 'openai';
import { ROOT } from './lib.mjs';

const backend = createRequire(join(ROOT, 'backend/dist/main.js'));
const { ProviderHttp, ReadingPace } = backend('./modules/ai/provider-http.js');
const { STREAM_BATCH_MS } = backend('./modules/realtime/stream-batcher.js');

const http = new ProviderHttp();
const clients = new Map();
/** One SDK client per server, kept, as the product keeps one per key. */
const clientFor = (baseURL) => {
  let client = clients.get(baseURL);
  if (!client) {
    client = new OpenAI({
      apiKey: 'sk-bench',
      baseURL,
      maxRetries: 0,
      timeout: 120_000,
      fetch: http.fetch,
    });
    clients.set(baseURL, client);
  }
  return client;
};

/** One answer read to its end; its count of server-sent events (each ends with a blank line). */
async function readOne(baseURL) {
  const pace = new ReadingPace(STREAM_BATCH_MS);
  const response = await clientFor(baseURL)
    .chat.completions.create(
      {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Write a short answer.' }],
        stream: true,
        stream_options: { include_usage: true },
      },
      { fetchOptions: { dispatcher: http.paced(pace) } },
    )
    .asResponse();
  const decoder = new TextDecoder();
  let events = 0;
  let pending = '';
  for await (const bytes of response.body) {
    pending += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = pending.indexOf('\n\n')) !== -1) {
      events++;
      // As the product does: paced once an event with text is in (the first one carries none).
      if (!pace.started && /"content":"[^"]/.test(pending.slice(0, end))) pace.start();
      pending = pending.slice(end + 2);
    }
  }
  return events;
}

async function runLevel({ baseURL, concurrency, rounds, spreadMs }) {
  let answers = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      if (spreadMs) await new Promise((r) => setTimeout(r, (worker * spreadMs) / concurrency));
      for (let round = 0; round < rounds; round++) {
        try {
          if ((await readOne(baseURL)) > 0) answers++;
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { answers, errors };
}

process.on('message', (message) => {
  runLevel(message).then(
    (result) => process.send(result),
    (err) => process.send({ answers: 0, errors: 1, error: String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
