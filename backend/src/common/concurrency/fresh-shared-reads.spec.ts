import { FreshSharedReads } from './fresh-shared-reads';

/** A computation the test finishes by hand, counting how many were started. */
function controlled() {
  const started: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const compute = () =>
    new Promise<number>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, compute };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshSharedReads', () => {
  it('answers requests that arrive while one runs with the next computation, started after they arrived', async () => {
    const reads = new FreshSharedReads();
    const { started, compute } = controlled();
    const first = reads.read('k', compute);
    const second = reads.read('k', compute);
    const third = reads.read('k', compute);
    // Only the first started: the other two must not get an answer computed before they arrived.
    expect(started).toHaveLength(1);
    started[0].resolve(1);
    await expect(first).resolves.toBe(1);
    await flush();
    expect(started).toHaveLength(2);
    const fourth = reads.read('k', compute);
    started[1].resolve(2);
    await expect(second).resolves.toBe(2);
    await expect(third).resolves.toBe(2);
    await flush();
    // The fourth came while the second computation ran: it gets a third one.
    expect(started).toHaveLength(3);
    started[2].resolve(3);
    await expect(fourth).resolves.toBe(3);
    await flush();
    expect(reads.inFlight).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const reads = new FreshSharedReads();
    const { started, compute } = controlled();
    const a = reads.read('a', compute);
    const b = reads.read('b', compute);
    expect(started).toHaveLength(2);
    started[0].resolve(1);
    started[1].resolve(2);
    await expect(a).resolves.toBe(1);
    await expect(b).resolves.toBe(2);
  });

  it('fails only the requests that shared the failed computation; the waiting ones get a fresh one', async () => {
    const reads = new FreshSharedReads();
    const { started, compute } = controlled();
    const failing = reads.read('k', compute);
    const after = reads.read('k', compute);
    started[0].reject(new Error('database down'));
    await expect(failing).rejects.toThrow('database down');
    await flush();
    expect(started).toHaveLength(2);
    started[1].resolve(7);
    await expect(after).resolves.toBe(7);
    await flush();
    expect(reads.inFlight).toBe(0);
  });

  it('starts anew once nothing is in flight', async () => {
    const reads = new FreshSharedReads();
    let calls = 0;
    const compute = async () => ++calls;
    await expect(reads.read('k', compute)).resolves.toBe(1);
    await expect(reads.read('k', compute)).resolves.toBe(2);
  });
});
