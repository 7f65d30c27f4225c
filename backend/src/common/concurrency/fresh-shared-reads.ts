interface Entry {
  /** The computation under way, if any. */
  running?: Promise<unknown>;
  /** The computation that starts when the running one ends: the requests that came after the running one began. */
  waiting?: Promise<unknown>;
}

/**
 * One computation shared by identical requests that arrive together, never answering a request with a state older
 * than the request: a request joins only a computation that has not started yet. The first request starts one;
 * those that arrive while it runs wait for the next, which starts when it ends and answers them all. So N identical
 * requests at once cost two computations instead of N, and each answer is what the database held at some moment
 * after its request came in, as a computation of its own would be. A failure answers only the requests that
 * shared that computation. Per process, and only while requests are in flight: nothing is kept afterwards.
 */
export class FreshSharedReads {
  private readonly entries = new Map<string, Entry>();

  /** The answer of `compute`, shared with the requests of the same `key` (everything the answer depends on). */
  read<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {};
      this.entries.set(key, entry);
    }
    if (entry.waiting) return entry.waiting as Promise<T>;
    const current = entry;
    const start = (): Promise<T> => {
      current.waiting = undefined;
      const run = compute();
      current.running = run;
      const settled = () => {
        if (current.running === run) current.running = undefined;
        if (!current.running && !current.waiting) this.entries.delete(key);
      };
      run.then(settled, settled);
      return run;
    };
    if (!current.running) return start();
    const waiting = current.running.then(start, start);
    current.waiting = waiting;
    return waiting;
  }

  /** Keys with a computation running or waiting (for tests). */
  get inFlight(): number {
    return this.entries.size;
  }
}
