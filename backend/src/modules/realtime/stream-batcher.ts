/** How often a stream event goes out at most, and after how many deltas it goes out anyway. */
export const STREAM_BATCH_MS = 80;
export const STREAM_BATCH_TOKENS = 24;

/**
 * Batches streamed text deltas: one event per STREAM_BATCH_MS or per STREAM_BATCH_TOKENS deltas instead of one
 * per token, which would flood the socket and the Redis adapter (each event is a write, and a publish with Redis;
 * 80 ms still moves the text about 12 times a second). Each event carries the offset where its text starts in the
 * whole text, so a client can skip overlap and detect a gap. The first delta goes out at once, so batching never
 * delays the first words the user sees. `end()` flushes what is left, so no text is lost.
 *
 * With `burstsPaced`, the source already comes in bursts at most one every STREAM_BATCH_MS (the provider's answer
 * read at that pace, ProviderHttp): each burst goes out as one event at the end of the turn of the event loop that
 * delivered it, so the text waits for neither a timer nor a token count (waiting for the timer too would hold it
 * up to twice as long).
 *
 * `holdTail` keeps the text not yet sent when the source has ended, for an end event that carries the whole text
 * anyway: it goes with that event (`dropTail`), or on its own if the end event has not gone within the interval.
 */
export class StreamBatcher {
  private buffer = '';
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private ended = false;
  private started = false;
  /** Characters sent so far: where the next event's content starts in the whole text. */
  private sent = 0;

  constructor(
    private readonly send: (content: string, offset: number) => void,
    private readonly options: { intervalMs?: number; maxTokens?: number; burstsPaced?: boolean } = {},
  ) {}

  push(delta: string): void {
    // A late delta after end() would arrive after message_stream_end; drop it rather than reorder the stream.
    if (this.ended || delta === '') return;
    this.buffer += delta;
    this.count++;
    if (!this.started) {
      this.started = true;
      this.flush();
    } else if (this.options.burstsPaced) this.immediate ??= setImmediate(() => this.flush());
    else if (this.count >= (this.options.maxTokens ?? STREAM_BATCH_TOKENS)) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.intervalMs ?? STREAM_BATCH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (this.buffer === '') return;
    const content = this.buffer;
    const offset = this.sent;
    this.buffer = '';
    this.count = 0;
    this.sent += content.length;
    this.send(content, offset);
  }

  /** Sends the remainder and stops the timer; call it before emitting the stream's end event. */
  end(): void {
    this.flush();
    this.ended = true;
  }

  /**
   * The source has ended: what is not sent yet waits up to `ms` for the end event that carries it (`dropTail`),
   * then goes out on its own. Nothing more is taken; `end()` still sends it at once.
   */
  holdTail(ms: number): void {
    this.ended = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.buffer === '') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), ms);
  }

  /** The end event carries the text held by `holdTail`: it is not sent on its own. */
  dropTail(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.buffer = '';
  }
}
