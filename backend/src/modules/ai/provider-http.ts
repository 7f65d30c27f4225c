import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';

/**
 * How one streamed answer is read: as it comes until its reader has the first words (`start()`), then at most
 * one read every `everyMs` (pacedReading). Only the reader knows which bytes hold the first words (an answer
 * usually opens with an event that carries none), so it says when.
 */
export class ReadingPace {
  started = false;

  constructor(readonly everyMs: number) {}

  start(): void {
    this.started = true;
  }
}

/**
 * The HTTP client under the OpenAI SDK (its `fetch`): undici's request API on a keep-alive pool, answered with a
 * standard Response. Two reasons, both CPU per streamed answer: fetch's own machinery cost a 60-chunk answer 2-4 ms
 * more than this client here, and a streamed answer can be read in bursts (`paced`) instead of waking the process
 * for every chunk the provider sends (docs/DECISIONS.md, "A streamed answer is read at the pace its events go out").
 *
 * The pool's sockets keep almost nothing in their read buffer (high-water mark 1 byte), so a response whose
 * reading is paused stops reading the socket: the kernel holds what arrives, and the next read takes it all at once.
 */
export class ProviderHttp {
  private readonly agent: Agent;

  /** `lookup` resolves the servers' names for every connection (guardedLookup for servers an admin set). */
  constructor({ lookup }: { lookup?: LookupFunction } = {}) {
    // As many connections per server as requests in flight, as fetch's own pool has.
    this.agent = new Agent({
      // Passed on to net.connect and tls.connect, which undici's types do not list.
      connect: { highWaterMark: 1, ...(lookup ? { lookup } : {}) } as Agent.Options['connect'],
    });
  }

  /**
   * A fetch for the SDK: same arguments, same errors (an abort rejects with an AbortError). `dispatcher` (fetch's
   * own option, given per request in the SDK's `fetchOptions`) is one of `paced`'s, else the pool itself.
   */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) throw new TypeError('ProviderHttp.fetch takes a URL and its options');
    const { method, headers, body, signal } = init;
    if (body != null && typeof body !== 'string')
      throw new TypeError('ProviderHttp.fetch sends text bodies only');
    const dispatcher = (init as { dispatcher?: Dispatcher }).dispatcher ?? this.agent;
    // fetch sends a method in capitals whatever the case it was given in (the SDK's are already).
    const verb = (method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod;
    const answer = await request(input, {
      dispatcher,
      method: verb,
      headers: new Headers(headers),
      body: body ?? undefined,
      signal: signal ?? undefined,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
      else if (value !== undefined) responseHeaders.append(name, value);
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || verb === 'HEAD';
    if (empty) await answer.body.dump();
    return new Response(empty ? null : (answer.body as unknown as AsyncIterable<Uint8Array>), {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };

  /** The pool, reading one answer at `pace`: pass it as the request's `dispatcher`. */
  paced(pace: ReadingPace): Dispatcher {
    return this.agent.compose(pacedReading(pace));
  }

  /** Closes the pool, cutting any request still open. */
  async destroy(): Promise<void> {
    await this.agent.destroy();
  }
}

/**
 * Reads a response's body in bursts, at most one every `everyMs`: a read that comes sooner than that after the
 * last delivered one is kept (with the parser paused, so the socket is not read again) until `everyMs` have passed;
 * then it is delivered and everything the provider sent meanwhile is read and delivered in the same turn of the
 * event loop. Until the reader has the first words (`pace.start()`) every read is delivered at once, so the first
 * words are never held; the answer's end
 * is seen up to `everyMs` later. Every chunk the provider sends would otherwise wake the process (about 0.1 ms of
 * CPU each on the 2-core machine), while a streamed answer's events go out one per burst. Pauses asked for by the
 * body's reader (backpressure) are kept apart from the hold: reading resumes only when neither holds it.
 */
export function pacedReading(pace: ReadingPace): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => dispatch(options, new PacedReadingHandler(handler, pace));
}

type DispatchHandler = Dispatcher.DispatchHandler;
type DispatchController = Dispatcher.DispatchController;

class PacedReadingHandler implements DispatchHandler {
  private controller: DispatchController | null = null;
  private readonly forInner: InnerController;
  /** Reads that came during a hold, delivered when it ends. */
  private kept: Buffer[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** True from a delivery to the end of that turn of the event loop: the burst's reads go straight through. */
  private open = false;
  /** No read is delivered before this time (performance.now()), unless the turn is open. */
  private holdUntil = 0;

  constructor(
    private readonly inner: DispatchHandler,
    private readonly pace: ReadingPace,
  ) {
    this.forInner = new InnerController(
      () => this.controller,
      () => this.timer !== null,
    );
  }

  onRequestStart(controller: DispatchController, context: unknown): void {
    this.controller = controller;
    this.inner.onRequestStart?.(this.forInner, context);
  }

  onRequestUpgrade(
    controller: DispatchController,
    ...rest: Parameters<NonNullable<DispatchHandler['onRequestUpgrade']>> extends [unknown, ...infer R]
      ? R
      : never
  ): void {
    this.inner.onRequestUpgrade?.(this.forInner, ...rest);
  }

  onResponseStart(
    controller: DispatchController,
    ...rest: Parameters<NonNullable<DispatchHandler['onResponseStart']>> extends [unknown, ...infer R]
      ? R
      : never
  ): void {
    this.controller = controller;
    this.inner.onResponseStart?.(this.forInner, ...rest);
  }

  onResponseData(controller: DispatchController, chunk: Buffer): void {
    if (this.open) {
      this.inner.onResponseData?.(this.forInner, chunk);
      return;
    }
    const now = performance.now();
    if (!this.pace.started || (!this.timer && now >= this.holdUntil)) {
      this.openTurn(now);
      this.inner.onResponseData?.(this.forInner, chunk);
      return;
    }
    this.kept.push(chunk);
    controller.pause();
    this.timer ??= setTimeout(() => this.release(), this.holdUntil - now);
  }

  onResponseEnd(
    controller: DispatchController,
    trailers: Parameters<NonNullable<DispatchHandler['onResponseEnd']>>[1],
  ): void {
    this.stop();
    // The parser is paused while a read is kept, so the end comes after it; delivered first all the same.
    for (const chunk of this.kept.splice(0)) this.inner.onResponseData?.(this.forInner, chunk);
    this.inner.onResponseEnd?.(this.forInner, trailers);
  }

  onResponseError(controller: DispatchController, error: Error): void {
    this.stop();
    this.inner.onResponseError?.(this.forInner, error);
  }

  private openTurn(now: number): void {
    this.open = true;
    this.holdUntil = now + this.pace.everyMs;
    setImmediate(() => (this.open = false));
  }

  /** The hold is over: what was kept goes to the reader, and the socket is read again in this turn. */
  private release(): void {
    this.timer = null;
    const controller = this.controller;
    if (!controller || controller.aborted) return;
    this.openTurn(performance.now());
    const kept = this.kept;
    this.kept = [];
    for (const chunk of kept) this.inner.onResponseData?.(this.forInner, chunk);
    if (!this.forInner.paused) controller.resume();
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The controller the inner handler sees: its pause and resume are its own, combined with the hold. */
class InnerController implements DispatchController {
  paused = false;

  constructor(
    private readonly outer: () => DispatchController | null,
    private readonly holding: () => boolean,
  ) {}

  get aborted(): boolean {
    return this.outer()?.aborted ?? false;
  }

  get reason(): Error | null {
    return this.outer()?.reason ?? null;
  }

  get rawHeaders(): DispatchController['rawHeaders'] {
    return this.outer()?.rawHeaders;
  }

  get rawTrailers(): DispatchController['rawTrailers'] {
    return this.outer()?.rawTrailers;
  }

  abort(reason: Error): void {
    this.outer()?.abort(reason);
  }

  pause(): void {
    this.paused = true;
    this.outer()?.pause();
  }

  resume(): void {
    this.paused = false;
    if (!this.holding()) this.outer()?.resume();
  }
}
