import { Customer, Rig, sleep, startRig } from './faults-kit';

/** Every answer: 20 words, one per chunk, 40 ms apart. */
const ANSWER = { text: Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '), chunks: 20, delayMs: 40 };
const STREAMS = 6;
/** Short leases, so answers whose instance could not end them are swept within seconds of recovery. */
const LEASE_MS = 2000;
/** The app answers health `up` within this once the fault ends. */
const HEALTHY_WITHIN_MS = 5000;
/** No answer is generating this long after the fault ends (a lease and a sweep, with room for a busy box). */
const SWEPT_WITHIN_MS = LEASE_MS * 3 + 3000;

/**
 * Outages of PostgreSQL and Redis under concurrent streams, cut at the TCP proxy the app reaches them through.
 * Whatever happens, no answer stays pending once it is over, every charge equals the words delivered, every
 * user message whose send was accepted is kept, no request answers 500, and the app is healthy again in time.
 */
describe('outages of the database and Redis under load', () => {
  jest.setTimeout(90_000);
  let rig: Rig;
  let customers: Customer[];

  beforeAll(async () => {
    rig = await startRig({ env: { GENERATION_LEASE_MS: String(LEASE_MS) } });
    rig.fake.defaultReply = ANSWER;
  });
  beforeEach(async () => {
    customers = await Promise.all(Array.from({ length: STREAMS }, () => rig.customer()));
  });
  afterEach(() => {
    rig.db.restore();
    rig.redis.restore();
    for (const c of customers) c.close();
  });
  afterAll(async () => {
    await rig?.close();
  });

  /** Cuts `proxy` for `ms` while the customers stream (from 1 s before to 2 s after); checks the books after. */
  async function underLoad(cut: () => void, restore: () => void, ms: number) {
    const running = rig.load(customers, Date.now() + 1000 + ms + 2000);
    await sleep(1000);
    cut();
    await sleep(ms);
    restore();
    const restored = Date.now();
    expect(await rig.healthy(rig.url, HEALTHY_WITHIN_MS)).toBeLessThan(HEALTHY_WITHIN_MS);
    await running;
    expect(await rig.pendingAfter(Math.max(0, SWEPT_WITHIN_MS - (Date.now() - restored)))).toBe(0);
    const summary = await rig.verify(customers);
    const attempts = customers.flatMap((c) => c.attempts);
    expect(attempts.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    // Nor does an answer fail on the socket as a 500: an unreachable database is a 503 there too.
    expect(attempts.filter((a) => a.error?.statusCode === 500)).toEqual([]);
    return { summary, attempts };
  }

  it('a 2 s database cut: requests wait and succeed, every accepted answer completes and is charged exactly', async () => {
    const { summary, attempts } = await underLoad(
      () => rig.db.cut(),
      () => rig.db.restore(),
      2000,
    );
    // Requests wait the cut out; only one whose query was on a connection at the instant of the cut may be
    // refused, and then as 503 with Retry-After (its transaction rolled back), never as a 500.
    const refused = attempts.filter((a) => a.status !== 201);
    expect(refused.map((a) => `${a.status} ${a.code} ${a.retryAfter}`)).toEqual(
      refused.map(() => '503 database_unavailable 5'),
    );
    expect(refused.length).toBeLessThanOrEqual(STREAMS);
    expect(summary.complete).toBe(summary.sent - summary.refused);
    expect(summary.charged).toBe(summary.delivered);
  });

  it('a 15 s database cut: 503 with Retry-After past the retry window (never 500), nothing stuck once it is back', async () => {
    // A send made during the cut waits out the retry window (10 s), then is refused.
    let probe: Promise<Response> | null = null;
    const { summary, attempts } = await underLoad(
      () => {
        rig.db.cut();
        probe = fetch(`${rig.url}/api/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: customers[0].user.auth },
          body: JSON.stringify({ content: 'During the cut', conversation_id: customers[0].conversation_id }),
        });
      },
      () => rig.db.restore(),
      15_000,
    );
    const res = await probe!;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ code: 'database_unavailable' });
    for (const a of attempts.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(503);
      expect(a.code).toBe('database_unavailable');
      expect(a.retryAfter).toBe('5');
    }
    // Answers that could not be saved during the cut ended interrupted or failed; none is charged.
    expect(summary.complete).toBeGreaterThan(0);
    expect(summary.charged).toBe(summary.delivered);
  });

  it('a Redis cut: streams on this instance carry on, nothing fails, health says degraded meanwhile', async () => {
    const running = underLoad(
      () => rig.redis.cut(),
      () => rig.redis.restore(),
      3000,
    );
    await sleep(2500);
    const health = await fetch(`${rig.url}/api/health`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { status: string },
    }));
    expect(health).toMatchObject({ status: 200, body: { status: 'degraded' } });
    const { summary, attempts } = await running;
    expect(attempts.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(summary.complete).toBe(summary.sent);
  });
});
