import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSearchResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
}

/** What the fake answers: results in SearXNG's shape, an HTTP failure, or a body that is not JSON. */
export type FakeSearchReply =
  | { results: FakeSearchResult[] }
  | { fail: number }
  | { garbage: string }
  /** Accept the request and never answer (for timeouts and cancellation). */
  | { hang: true };

export interface FakeSearchRequest {
  path: string;
  query: URLSearchParams;
}

export interface FakeSearch {
  /** e.g. http://127.0.0.1:40123, what search_url / SEARCH_URL points at. */
  url: string;
  requests: FakeSearchRequest[];
  reply(...replies: FakeSearchReply[]): void;
  defaultReply: FakeSearchReply;
  reset(): void;
  close(): Promise<void>;
}

/** A local SearXNG speaking its JSON API (`GET /search?q=...&format=json`), scriptable per test. */
export async function startFakeSearch(): Promise<FakeSearch> {
  const queue: FakeSearchReply[] = [];
  const fake: FakeSearch = {
    url: '',
    requests: [],
    reply: (...replies) => queue.push(...replies),
    defaultReply: { results: [] },
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

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'GET' || url.pathname !== '/search') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
      return;
    }
    fake.requests.push({ path: url.pathname, query: url.searchParams });
    const reply = queue.shift() ?? fake.defaultReply;
    if ('hang' in reply) return;
    if ('fail' in reply) {
      res.writeHead(reply.fail, { 'content-type': 'text/html' });
      res.end('<h1>Too many requests</h1>');
      return;
    }
    if ('garbage' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.garbage);
      return;
    }
    // SearXNG refuses the JSON format unless it is enabled, so the fake insists on being asked for it.
    if (url.searchParams.get('format') !== 'json') {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('Forbidden');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: url.searchParams.get('q'),
        number_of_results: reply.results.length,
        results: reply.results.map((r) => ({ engine: 'fake', score: 1, ...r })),
        answers: [],
        suggestions: [],
      }),
    );
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
