import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundBlockedError, OutboundPolicy } from '../../common/outbound/address-policy';
import { guardedLookup } from '../../common/outbound/guarded-lookup';
import { ProviderHttp, ReadingPace } from './provider-http';

/** A server whose one route streams `count` chunks `gapMs` apart, or answers the request it got. */
function startServer(count: number, gapMs: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res: ServerResponse) => {
    if (req.url === '/echo') {
      let body = '';
      req.on('data', (piece: Buffer) => (body += piece.toString()));
      req.on('end', () => {
        res.writeHead(201, {
          'content-type': 'application/json',
          'x-request-id': 'req_1',
          'set-cookie': ['a=1', 'b=2'],
        });
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization }));
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      res.write(`data: ${sent}\n\n`);
      if (++sent === count) res.end();
      else setTimeout(next, gapMs);
    };
    next();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Reads a body as it arrives: the reads (with the time each came) and the text. */
async function readAll(response: Response): Promise<{ reads: number[]; text: string }> {
  const started = performance.now();
  const reads: number[] = [];
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    reads.push(performance.now() - started);
    text += decoder.decode(bytes, { stream: true });
  }
  return { reads, text };
}

/** fetch's options reading the answer at `everyMs`, started (as after the first words) unless told. */
function paced(http: ProviderHttp, everyMs: number, pace = new ReadingPace(everyMs)): RequestInit {
  if (!pace.started && arguments.length < 3) pace.start();
  return { dispatcher: http.paced(pace) } as RequestInit;
}

const expected = (count: number) => Array.from({ length: count }, (_, i) => `data: ${i}\n\n`).join('');

describe('ProviderHttp', () => {
  let http: ProviderHttp;
  let server: Server;
  let url: string;
  const COUNT = 40;
  const GAP_MS = 5;

  beforeAll(async () => ({ server, url } = await startServer(COUNT, GAP_MS)));
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (http = new ProviderHttp()));
  afterEach(() => http.destroy());

  it('sends the method, headers and body, and answers with the status, headers and body', async () => {
    const response = await http.fetch(`${url}/echo`, {
      method: 'post',
      headers: new Headers({ authorization: 'Bearer sk-1', 'content-type': 'application/json' }),
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer sk-1' });
  });

  it('reads every chunk as it arrives when no pace is set', async () => {
    const { reads, text } = await readAll(await http.fetch(`${url}/stream`));
    expect(text).toBe(expected(COUNT));
    expect(reads.length).toBeGreaterThan(COUNT / 2);
  });

  it('with a pace, delivers the first read at once and the rest in bursts, every byte in order', async () => {
    const sentAt = performance.now();
    const response = await http.fetch(`${url}/stream`, paced(http, 80));
    const { reads, text } = await readAll(response);
    const total = performance.now() - sentAt;
    expect(text).toBe(expected(COUNT));
    // Reads less than 20 ms apart are one burst (a burst can reach the reader in several pieces).
    const bursts = reads.filter((at, i) => i === 0 || at - reads[i - 1] >= 20);
    // The answer takes about 200 ms: the first read at once, then at most one burst per 80 ms.
    expect(bursts[0]).toBeLessThan(40);
    expect(bursts.length).toBeLessThanOrEqual(Math.ceil(total / 80) + 2);
    for (let i = 2; i < bursts.length; i++) expect(bursts[i] - bursts[i - 1]).toBeGreaterThan(60);
  });

  it('with a pace, reads as the answer comes until the reader has its first words', async () => {
    const pace = new ReadingPace(80);
    const response = await http.fetch(`${url}/stream`, paced(http, 80, pace));
    const started = performance.now();
    const reads: number[] = [];
    let text = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      reads.push(performance.now() - started);
      text += new TextDecoder().decode(bytes);
      if (reads.length === 10) pace.start();
    }
    expect(text).toBe(expected(COUNT));
    // The first ten reads came a chunk at a time (5 ms apart), the rest in bursts 80 ms apart.
    expect(reads[9] - reads[0]).toBeLessThan(80);
    const later = reads.slice(10).filter((at, i, all) => i === 0 || at - all[i - 1] >= 20);
    expect(later.length).toBeLessThanOrEqual(Math.ceil((reads.at(-1)! - reads[9]) / 80) + 2);
  });

  it('with a pace, keeps every byte in order when the reader is slower than the provider', async () => {
    const response = await http.fetch(`${url}/stream`, paced(http, 30));
    const decoder = new TextDecoder();
    let text = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(bytes, { stream: true });
      await new Promise((resolve) => setTimeout(resolve, 45));
    }
    expect(text).toBe(expected(COUNT));
  });

  it('stops a held answer when its signal aborts, and the pool serves the next answer whole', async () => {
    const controller = new AbortController();
    const response = await http.fetch(`${url}/stream`, {
      ...paced(http, 1000),
      signal: controller.signal,
    });
    const reading = readAll(response);
    setTimeout(() => controller.abort(), 50);
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    // The next answer on the same pool is read whole.
    expect((await readAll(await http.fetch(`${url}/stream`))).text).toBe(expected(COUNT));
  });

  it('with a guarded lookup, refuses a server whose name resolves to an address the policy does not allow', async () => {
    const guarded = new ProviderHttp({ lookup: guardedLookup(new OutboundPolicy([])) });
    try {
      const port = new URL(url).port;
      await expect(
        guarded.fetch(`http://localhost:${port}/echo`, { method: 'POST', body: '{}' }),
      ).rejects.toBeInstanceOf(OutboundBlockedError);
      // The same server by a name the policy allows is reached.
      const allowed = new ProviderHttp({ lookup: guardedLookup(new OutboundPolicy(['localhost'])) });
      const response = await allowed.fetch(`http://localhost:${port}/echo`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(201);
      await allowed.destroy();
    } finally {
      await guarded.destroy();
    }
  });
});
