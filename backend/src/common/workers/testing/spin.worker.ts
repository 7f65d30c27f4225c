/** A pool task for tests: keeps its thread busy for `ms` (no event loop turn), then answers `ms`. */
export default function spin({ ms }: { ms: number }): number {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy on purpose
  }
  return ms;
}
