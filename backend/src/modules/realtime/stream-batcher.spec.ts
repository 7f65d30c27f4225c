import { StreamBatcher } from './stream-batcher';

describe('StreamBatcher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first delta at once, then the deltas of one interval as a single event', () => {
    const sent: string[] = [];
    const batcher = new StreamBatcher((c) => sent.push(c), { intervalMs: 50, maxTokens: 100 });
    batcher.push('Oh, ');
    expect(sent).toEqual(['Oh, ']);
    batcher.push('Hel');
    batcher.push('lo');
    jest.advanceTimersByTime(49);
    expect(sent).toEqual(['Oh, ']);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual(['Oh, ', 'Hello']);
    batcher.push(' world');
    jest.advanceTimersByTime(50);
    expect(sent).toEqual(['Oh, ', 'Hello', ' world']);
  });

  it('sends at once after N deltas, without waiting for the timer', () => {
    const sent: string[] = [];
    const batcher = new StreamBatcher((c) => sent.push(c), { intervalMs: 50, maxTokens: 3 });
    ['first', 'a', 'b', 'c', 'd'].forEach((t) => batcher.push(t));
    expect(sent).toEqual(['first', 'abc']);
    jest.advanceTimersByTime(50);
    expect(sent).toEqual(['first', 'abc', 'd']);
  });

  it('flushes the remainder on end and ignores later deltas', () => {
    const sent: string[] = [];
    const batcher = new StreamBatcher((c) => sent.push(c));
    batcher.push('head');
    batcher.push('tail');
    batcher.end();
    expect(sent).toEqual(['head', 'tail']);
    batcher.push('late');
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual(['head', 'tail']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives each event the offset where its text starts, so pieces join without gap or overlap', () => {
    const sent: [string, number][] = [];
    const batcher = new StreamBatcher((c, offset) => sent.push([c, offset]), {
      intervalMs: 50,
      maxTokens: 2,
    });
    ['Hello', ', ', 'wor', 'ld', '!'].forEach((t) => batcher.push(t));
    batcher.end();
    expect(sent).toEqual([
      ['Hello', 0],
      [', wor', 5],
      ['ld!', 10],
    ]);
  });

  it('with paced bursts, sends each burst as one event at the end of its turn, whatever its size', () => {
    const sent: [string, number][] = [];
    const batcher = new StreamBatcher((c, offset) => sent.push([c, offset]), {
      maxTokens: 2,
      burstsPaced: true,
    });
    batcher.push('Hi');
    expect(sent).toEqual([['Hi', 0]]);
    [' there', ',', ' you', '!'].forEach((t) => batcher.push(t));
    expect(sent).toEqual([['Hi', 0]]);
    jest.runOnlyPendingTimers();
    expect(sent).toEqual([
      ['Hi', 0],
      [' there, you!', 2],
    ]);
    batcher.push(' Bye');
    batcher.end();
    expect(sent.at(-1)).toEqual([' Bye', 14]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('holds the tail for the end event: dropped when it goes first, sent on its own after the interval else', () => {
    const sent: [string, number][] = [];
    const batcher = new StreamBatcher((c, offset) => sent.push([c, offset]), { burstsPaced: true });
    batcher.push('Hi');
    batcher.push(' there');
    batcher.holdTail(80);
    jest.advanceTimersByTime(79);
    expect(sent).toEqual([['Hi', 0]]);
    batcher.dropTail();
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual([['Hi', 0]]);
    expect(jest.getTimerCount()).toBe(0);

    const late = new StreamBatcher((c, offset) => sent.push([c, offset]), { burstsPaced: true });
    late.push('Yo');
    late.push(' you');
    late.holdTail(80);
    late.push(' ignored');
    jest.advanceTimersByTime(80);
    expect(sent.slice(1)).toEqual([
      ['Yo', 0],
      [' you', 2],
    ]);
    // Nothing is left for the end event, which carries the whole text anyway.
    late.dropTail();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sends a held tail at once on end (the generation failed before its end event)', () => {
    const sent: string[] = [];
    const batcher = new StreamBatcher((c) => sent.push(c), { burstsPaced: true });
    batcher.push('Hi');
    batcher.push(' there');
    batcher.holdTail(80);
    batcher.end();
    expect(sent).toEqual(['Hi', ' there']);
    expect(jest.getTimerCount()).toBe(0);
  });
});
