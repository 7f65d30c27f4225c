import { Customer, Rig, sleep, startRig } from './faults-kit';

/** Every answer: 30 words, one per chunk, 30 ms apart (about a second of streaming). */
const ANSWER = { text: Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '), chunks: 30, delayMs: 30 };
const STREAMS = 6;
/** The app answers health `up` again within this after a provider fault ends. */
const HEALTHY_WITHIN_MS = 2000;

/**
 * Faults of the AI provider under concurrent streams: it hangs, drops connections mid-answer, answers 429 with
 * Retry-After, answers 5xx. Whatever happens, no answer stays pending, every charge equals the words delivered
 * (an answer cut short is kept as interrupted and not charged), every user message is kept, and the app stays
 * healthy.
 */
describe('faults of the AI provider under load', () => {
  jest.setTimeout(60_000);
  let rig: Rig;
  let customers: Customer[];

  beforeAll(async () => {
    rig = await startRig({ env: { AI_TIMEOUT_MS: '1500' } });
    rig.fake.defaultReply = ANSWER;
  });
  beforeEach(async () => {
    customers = await Promise.all(Array.from({ length: STREAMS }, () => rig.customer()));
  });
  afterEach(() => {
    rig.fake.replyFor = undefined;
    rig.fake.reset();
    for (const c of customers) c.close();
  });
  afterAll(async () => {
    await rig?.close();
  });

  async function books() {
    expect(await rig.pendingAfter(5000)).toBe(0);
    const summary = await rig.verify(customers);
    expect(await rig.healthy(rig.url, HEALTHY_WITHIN_MS)).toBeLessThan(HEALTHY_WITHIN_MS);
    return summary;
  }

  it('hangs: waits out AI_TIMEOUT_MS, fails those answers cleanly (nothing charged, message kept), then serves again', async () => {
    let hang = true;
    rig.fake.replyFor = () => (hang ? { hang: true } : undefined);
    const started = Date.now();
    // A hung request times out after 1.5 s and the SDK's one retry after 1.5 s more; sends after the hang ends
    // complete.
    const running = rig.load(customers, started + 6000);
    await sleep(2000);
    hang = false;
    await running;
    const summary = await books();
    // Each hung request (and the SDK's one retry) timed out and ended as failed; later ones completed.
    expect(summary.failed).toBeGreaterThanOrEqual(STREAMS);
    expect(summary.complete).toBeGreaterThan(0);
    expect(summary.charged).toBe(summary.delivered);
  });

  it('drops connections mid-answer: answers with text end interrupted (kept, unpaid), the rest complete', async () => {
    const running = rig.load(customers, Date.now() + 4000);
    await sleep(1500);
    rig.ai.cut();
    await sleep(800);
    rig.ai.restore();
    await running;
    const summary = await books();
    expect(summary.interrupted + summary.failed).toBeGreaterThan(0);
    expect(summary.complete).toBeGreaterThan(0);
    // A dropped answer is interrupted with the text the client already had, and charged nothing.
    for (const a of customers.flatMap((c) => c.attempts).filter((x) => x.outcome === 'interrupted'))
      expect(a.final).toBe(a.streamed);
  });

  it('answers 429 with Retry-After: the retry waits as told and the answer completes; a second 429 fails it cleanly', async () => {
    // The first request of each stream meets a 429 with Retry-After: 1; the SDK's retry succeeds.
    const arrivals: number[] = [];
    let refuseAll = false;
    const tooMany = {
      fail: { status: 429, message: 'Rate limit reached', type: 'requests' },
      retryAfter: '1',
    } as const;
    const refusedOnce = new Set<string>();
    rig.fake.replyFor = (request) => {
      arrivals.push(Date.now());
      if (refuseAll) return tooMany;
      const stream = String(request.messages[request.messages.length - 1]?.content);
      if (refusedOnce.has(stream)) return undefined;
      refusedOnce.add(stream);
      return tooMany;
    };
    const started = Date.now();
    await rig.load(customers, started + 2500);
    let summary = await books();
    expect(summary.complete).toBe(summary.sent);
    expect(summary.failed).toBe(0);
    // The refused requests were retried after the second the provider asked for, not at once.
    expect(arrivals.length).toBe(summary.sent + STREAMS);
    expect(refusedOnce.size).toBe(STREAMS);
    expect(arrivals[STREAMS] - arrivals[0]).toBeGreaterThanOrEqual(950);

    // Refused again on the retry: the answer fails once, reported, nothing charged, the user message kept.
    refuseAll = true;
    const one = customers.slice(0, 2);
    await rig.load(one, Date.now() + 100);
    refuseAll = false;
    summary = await books();
    expect(one.map((c) => c.attempts[c.attempts.length - 1].outcome)).toEqual(['failed', 'failed']);
  });

  it('answers 5xx: one is retried and completes; a persistent 503 fails the answers cleanly', async () => {
    let failing: 'once' | 'always' | null = 'once';
    // Each request is told apart by its message's text: every other one fails once with a 500, and its retry is
    // then served (unless it meets the persistent 503).
    const failedOnce = new Set<string>();
    let retriesServed = 0;
    rig.fake.replyFor = (request) => {
      const text = String(request.messages[request.messages.length - 1]?.content);
      if (failing === 'always') return { fail: { status: 503, message: 'Overloaded', type: 'server_error' } };
      if (failedOnce.has(text)) retriesServed++;
      else if (failing === 'once' && rig.fake.requests.indexOf(request) % 2 === 0) {
        failedOnce.add(text);
        return { fail: { status: 500, message: 'Internal error', type: 'server_error' } };
      }
      return undefined;
    };
    const running = rig.load(customers, Date.now() + 4000);
    await sleep(1500);
    failing = 'always';
    await sleep(1000);
    failing = null;
    await running;
    const summary = await books();
    // How many answers fall in the second of 503s against the seconds around it depends on the machine's speed
    // (the failures come fast, the answers take a second each), so only their kinds are checked.
    expect(retriesServed).toBeGreaterThan(0);
    expect(summary.failed).toBeGreaterThan(0);
    expect(summary.complete).toBeGreaterThan(0);
    expect(summary.charged).toBe(summary.delivered);
  });
});
