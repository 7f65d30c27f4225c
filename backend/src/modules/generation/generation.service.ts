import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { DomainError } from '../../common/errors/domain-error';
import { toErrorBody } from '../../common/errors/http-exception.filter';
import { APP_ENV, AppEnv } from '../../config/env';
import { isDatabaseUnavailable } from '../../database/resilient-pg';
import { AiError, aiCancelled, isAiCancelled, socketErrorMessage, toAiError } from '../ai/ai.errors';
import type { ProviderChoice } from '../ai/ai.models';
import { AiDelta, AiResult, AiService } from '../ai/ai.service';
import { countWords } from '../ai/words';
import type { PromptAttachment } from '../conversations/conversation-files';
import { RealtimeService } from '../realtime/realtime.service';
import { STREAM_BATCH_MS, StreamBatcher } from '../realtime/stream-batcher';
import type { SearchProvider, SearchResult } from '../search/search.provider';
import { SearchService } from '../search/search.service';
import { Reservation, type StoredWithReservation, WordsService } from '../words/words.service';
import { BusMessage, cancelKeys, GenerationBus } from './generation-bus';
import { AvatarKnowledge, buildPrompt, HistoryMessage, KnowledgePassage } from './prompt-builder';
import { WordLimit } from './word-limit';

/** Who a generation is for; the engine checks nothing about access beyond words and the concurrency cap. */
export interface GenerationOwner {
  user_id: number;
  /** The session that asked: ending it stops the generation. Null for keys without a session. */
  session_id: string | null;
  /** Staff use the product without buying words. */
  staff: boolean;
  /** The organization scope: whose AI key is used first, and where the words count. */
  organization_id: number | null;
}

/** What the model is asked, in parts; the engine's one prompt builder puts them together. */
export interface PromptSpec {
  /** Our own fixed instruction (system text); nothing from outside goes here. */
  instruction?: string;
  /** The messages the model sees, oldest first, the one to answer last. */
  history: () => Promise<HistoryMessage[]>;
  attachment?: () => Promise<PromptAttachment | null>;
  /** Search the web for `query` first. */
  search?: { provider: SearchProvider; query: string } | null;
  /** The avatar answering: its context and the passages retrieved for the message (saved as citations). */
  avatar?: () => Promise<AvatarKnowledge | null>;
}

/** The finished text, as the caller stores it. */
export interface GenerationOutput {
  content: string;
  finish_reason: string;
  model: string;
  /** Words of `content`, as charged. */
  words: number;
  sources: SearchResult[] | null;
  /** The avatar's passages the model was given; null without an avatar. */
  citations: KnowledgePassage[] | null;
}

/**
 * One generation for the engine to run. The callbacks belong to the feature that stores the result (messages,
 * enhance, later avatars, Super Fetch...); the engine calls them at the right moments.
 */
export interface GenerationSpec<T> {
  /** Unique while it runs: 'message:{id}', 'enhance:{uuid}'. Also its ledger reference and its resume id. */
  id: string;
  owner: GenerationOwner;
  /** More keys that stop it when cancelled (its conversation...); its id, session and user always do. */
  keys?: string[];
  model: string | null;
  prompt: PromptSpec;
  /** Where the text goes as it is produced (batched, with offsets); null = not streamed. */
  stream: ((content: string, offset: number) => void) | null;
  /** The ledger's source of the charge. */
  source: string;
  /**
   * Saves the result in the engine's settle transaction, which also charges the words; null when the target is
   * gone (deleted meanwhile): then nothing is charged.
   */
  persist(m: EntityManager, output: GenerationOutput, saved?: T | null): Promise<T | null>;
  /**
   * The save's statement, when one statement saves the result and it needs nothing the transaction reads first:
   * it is sent in the settle's opening round trip (after the user's lock and the charge's reads) instead of a
   * round trip of its own, and what it read is handed to `persist` as `saved` (null: the target is gone).
   */
  saving?(output: GenerationOutput): StatementRead<T | null>;
  /**
   * The result as saved, when it already is (a save whose commit went through although its connection was
   * lost before the answer came back); null otherwise. Without it, a lost commit is not retried.
   */
  stored?(): Promise<T | null>;
  /** Called once saved and charged (the end event). */
  finished?(saved: T): void;
  /**
   * The end event (`finished`) carries the whole text as saved: then the text the provider's last burst brought
   * goes with it instead of in a stream event of its own (one write less per answer), or on its own after
   * STREAM_BATCH_MS if the save takes longer, so it is never held beyond the stream's pace.
   */
  endCarriesText?: boolean;
  /** Renews the lease on the stored target with the text so far; false when the target is gone. */
  checkpoint?(text: string, leaseMs: number): Promise<boolean>;
  /** Ends the target as interrupted with the text so far (nothing charged) and tells the user. */
  interrupt?(text: string, reason: string): Promise<void>;
  /** Removes what the caller stored for a generation that produced nothing to keep. */
  discard?(): Promise<void>;
  /**
   * Tells whoever asked that the generation failed; without it the error goes to the owner's socket. The widget
   * answers its visitor on their own stream instead.
   */
  report?(err: unknown): void;
}

/**
 * A feature's own bounds on admission: fewer words reserved (its answers are short), or its own cap of running
 * generations instead of the per-user one (the widget, whose visitors are many and bounded per widget).
 */
export interface AdmissionLimits {
  words?: number;
  /** Null: no per-user cap (the caller has its own); left out: the per-user cap. */
  maxConcurrent?: number | null;
}

/** Stored-target upkeep run by every instance: turns targets whose lease lapsed into interrupted ones. */
export interface LeaseSweeper {
  sweep(held: string[]): Promise<void>;
}

/** What a generation's provider call needs to begin: for whom, which model, the prompt, whether it is watched. */
export type CallSpec = Pick<GenerationSpec<unknown>, 'owner' | 'model' | 'prompt'> & { streamed: boolean };

/** A generation's provider call as it began: its prompt read and its request sent (see `begin`). */
interface Begun {
  generation: AsyncGenerator<AiDelta, AiResult, undefined>;
  /** The generation's first step, already asked for, so the request is on its way; its consumer awaits it. */
  first: Promise<IteratorResult<AiDelta, AiResult>>;
  provider: ProviderChoice;
  sources: SearchResult[] | null;
  avatar: AvatarKnowledge | null;
}

/**
 * A generation's provider call begun once its words are admitted, before its admission has committed
 * (`GenerationService.headStart`): `run` takes the answer from there, and nothing goes out before it does.
 * `cancel()` ends the call when the admission fails.
 */
export class HeadStart {
  constructor(
    readonly controller: AbortController,
    readonly begun: Promise<Begun>,
  ) {
    // Its failure is reported by `run`, which awaits it, or not at all when it is cancelled.
    begun.catch(() => undefined);
  }

  cancel(): void {
    this.controller.abort('cancel' satisfies StopReason);
    // An answer whose first words came already waits at them: returning closes its connection and its timer.
    void this.begun.then((b) => b.generation.return(undefined as never)).catch(() => undefined);
  }
}

interface Running {
  spec: GenerationSpec<unknown>;
  controller: AbortController;
  reservation: Reservation;
  /** The text produced so far (after the word limit). */
  text: string;
  /** How much of `text` has gone out on the stream. */
  sent: number;
  done: Promise<unknown>;
}

/** Why a generation was stopped from outside. */
type StopReason = 'cancel' | 'shutdown';

export const SHUTDOWN_REASON = 'The server restarted before this answer was finished.';
export const PROVIDER_FAILED_REASON = 'The AI service stopped answering before this answer was finished.';
export const LAPSED_REASON = 'The server generating this answer stopped before it was finished.';
export const DRAINING_MESSAGE = 'The server is restarting. Please try again in a few seconds.';
/** A failure of ours (not the provider's) on the socket: the client only needs to know the answer is gone. */
const GENERATION_FAILED_MESSAGE = 'The answer could not be generated. Please try again.';

/**
 * The one generation engine: every generation of the product runs here, from admission (draining, offered
 * model, concurrency cap, word reservation) through the one prompt builder, the provider call, batched streaming
 * with offsets, the word limit of the reservation, cancellation by signal (in process and over Redis, never by
 * polling), the lease on the stored target, to save-and-charge in one transaction and error reporting.
 */
@Injectable()
export class GenerationService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Generation');
  private readonly running = new Map<string, Running>();
  private readonly sweepers: LeaseSweeper[] = [];
  private timers: ReturnType<typeof setInterval>[] = [];
  private draining: Promise<void> | null = null;
  /**
   * Generations between their admission and `run`: a token while the admission is under way, then its
   * reservation until it is run or released. A drain waits for them as for the running ones, so a generation
   * admitted as the drain began is run and finished, not cut off by the stop that follows.
   */
  private readonly unstarted = new Set<object>();
  /** Resolved when an entry leaves `unstarted`, for a drain that waits on it. */
  private unstartedLeft: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly unitOfWork: UnitOfWork,
    private readonly ai: AiService,
    private readonly words: WordsService,
    private readonly search: SearchService,
    private readonly realtime: RealtimeService,
    private readonly bus: GenerationBus,
  ) {
    bus.on((message) => this.onBus(message));
  }

  get leaseMs(): number {
    return this.env.generationLeaseMs;
  }

  /**
   * How long a reservation holds unless renewed: longer than the lease, because the sweep that ends a crashed
   * instance's answers also releases their reservations; this expiry is the backstop for the rest (enhance).
   */
  private get reservationTtlMs(): number {
    return this.leaseMs * 4;
  }

  onApplicationBootstrap(): void {
    void this.sweep();
    const every = (ms: number, task: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        task().catch((err: unknown) =>
          this.logger.warn(`Lease upkeep failed: ${err instanceof Error ? err.message : String(err)}`),
        );
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(Math.max(100, Math.floor(this.leaseMs / 5)), () => this.renewLeases());
    every(Math.max(200, Math.floor(this.leaseMs / 2)), () => this.sweep());
  }

  /**
   * Lets the running generations finish (up to SHUTDOWN_DRAIN_MS), then ends the rest as interrupted; the
   * leases are renewed until then, so no other instance takes a draining answer for a crashed one.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Registers stored-target upkeep (e.g. messages) run at start and periodically. */
  addSweeper(sweeper: LeaseSweeper): void {
    this.sweepers.push(sweeper);
  }

  /**
   * Admits a new generation: 503 while draining, 400 model_not_offered, 429 at the concurrency cap, 412 without
   * words; else reserves its words. Release the reservation (`release`) if `run` is never called.
   */
  async admit(
    owner: GenerationOwner,
    requestedModel: string | null | undefined,
    limits: AdmissionLimits = {},
  ): Promise<Reservation> {
    return this.admitting(
      async () => {
        await this.checkAdmission(requestedModel);
        return this.words.reserve(owner.user_id, this.reserveInput(owner, limits));
      },
      (reservation) => reservation,
    );
  }

  /**
   * Admits like `admit` and stores the generation's target (`store`, whose reference is the generation's id) in
   * the reservation's own transaction: one transaction less before the first token; nothing is kept when either
   * fails. `reads` (the target's own row and what its prompt needs, from their modules) run in the transaction's
   * opening round trip and are handed to `store`, which runs once the words are admitted; its statements are
   * written with the commit. Only who pays is needed here: the caller, unmetered or not, whatever the target's
   * scope.
   */
  async admitWith<T, R extends readonly unknown[] = []>(
    payer: Pick<GenerationOwner, 'user_id' | 'staff'>,
    requestedModel: string | null | undefined,
    store: (m: EntityManager, read: R) => Promise<StoredWithReservation<T>>,
    reads?: { readonly [K in keyof R]: StatementRead<R[K]> },
  ): Promise<{ reservation: Reservation; stored: T }> {
    return this.admitting(
      async () => {
        await this.checkAdmission(requestedModel);
        return this.words.reserveWith(payer.user_id, this.reserveInput(payer, {}), store, reads);
      },
      (admitted) => admitted.reservation,
    );
  }

  /** Runs an admission as one of the generations not yet started (see `unstarted`); its reservation stays one. */
  private async admitting<A>(admission: () => Promise<A>, reservationOf: (admitted: A) => Reservation) {
    const underWay = {};
    this.unstarted.add(underWay);
    try {
      const admitted = await admission();
      this.unstarted.add(reservationOf(admitted));
      return admitted;
    } finally {
      this.started(underWay);
    }
  }

  /** `entry` (an admission's token or reservation) is no longer waiting to start. */
  private started(entry: object): void {
    if (!this.unstarted.delete(entry)) return;
    const left = this.unstartedLeft;
    this.unstartedLeft = null;
    left?.resolve();
  }

  private async checkAdmission(requestedModel: string | null | undefined): Promise<void> {
    if (this.draining) throw new DomainError(503, 'server_draining', DRAINING_MESSAGE);
    await this.ai.checkOffered(requestedModel);
  }

  private reserveInput(owner: Pick<GenerationOwner, 'staff'>, limits: AdmissionLimits) {
    return {
      words: Math.min(limits.words ?? Infinity, this.env.generationReserveWords),
      staff: owner.staff,
      maxConcurrent:
        limits.maxConcurrent === undefined ? this.env.generationMaxConcurrentPerUser : limits.maxConcurrent,
      ttlMs: this.reservationTtlMs,
    };
  }

  /** Ties a reservation to the generation id it pays for, in the caller's transaction that stores its target. */
  async bind(reservation: Reservation, id: string, m?: EntityManager): Promise<void> {
    await this.words.labelReservation(reservation, id, m);
  }

  /** Releases the reservations of generations that ended on another (stopped) instance. */
  async releaseFor(ids: string[]): Promise<void> {
    await this.words.releaseByReference(ids);
  }

  async release(reservation: Reservation): Promise<void> {
    this.started(reservation);
    await this.words
      .release(reservation)
      .catch((err: Error) =>
        this.logger.warn(`Could not release reservation ${reservation.reservation_id}: ${err.message}`),
      );
  }

  /**
   * Runs one admitted generation to its end and resolves with what `persist` saved. A failure rejects: the
   * target is discarded (or, once text was streamed, interrupted) and, when streamed, reported on the socket.
   */
  run<T>(spec: GenerationSpec<T>, reservation: Reservation, head?: HeadStart): Promise<T> {
    this.started(reservation);
    const controller = head?.controller ?? new AbortController();
    const entry: Running = {
      spec: spec as GenerationSpec<unknown>,
      controller,
      reservation,
      text: '',
      sent: 0,
      done: Promise.resolve(),
    };
    this.running.set(spec.id, entry);
    const done = this.execute(spec, entry, head).finally(() => this.running.delete(spec.id));
    entry.done = done.catch(() => undefined);
    return done;
  }

  /**
   * Begins a provider call (its prompt read, its request sent) once its words are admitted, before its target is
   * stored and its admission has committed, so the first words come two database round trips sooner. Hand it to
   * `run` with the generation's spec once admitted; `cancel()` it if the admission fails. Nothing is streamed or
   * saved before `run`.
   */
  headStart(spec: CallSpec): HeadStart {
    const controller = new AbortController();
    // Begun once the caller's turn is over, so the statement it sends next (the exchange's) goes first and waits
    // for none of this work.
    const begun = new Promise((resolve) => setImmediate(resolve)).then(() => {
      if (controller.signal.aborted) throw aiCancelled();
      return this.begin(spec, controller.signal);
    });
    return new HeadStart(controller, begun);
  }

  /** Stops the generations answering to `key`, on every instance. */
  cancel(key: string): void {
    this.bus.cancel(key);
  }

  /** Whether this instance runs the generation `id`. */
  isRunningHere(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Sends the owner the text of generation `id` from `offset` on, when it runs on this instance (true), else
   * asks the other instances (false: the caller answers from what is stored if nobody does).
   */
  resume(id: string, user_id: number, offset: number): boolean {
    if (this.resumeLocal(id, user_id, offset)) return true;
    this.bus.publish({ type: 'resume', id, user_id, offset });
    return false;
  }

  private resumeLocal(id: string, user_id: number, offset: number): boolean {
    const run = this.running.get(id);
    if (!run || run.spec.owner.user_id !== user_id) return false;
    const from = Math.max(0, Math.min(offset, run.sent));
    // The next batch starts at `sent`, so this piece and the live deltas meet without gap or overlap.
    if (from < run.sent) run.spec.stream?.(run.text.slice(from, run.sent), from);
    return true;
  }

  /**
   * Stops accepting, lets the running generations (and those admitted but not yet started, once they start)
   * finish for SHUTDOWN_DRAIN_MS, then interrupts the rest.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      const all = () => [...this.running.values()];
      if (all().length || this.unstarted.size) {
        this.logger.log(`Draining ${all().length} running generations and ${this.unstarted.size} admitted`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        let over = false;
        const deadline = new Promise<void>(
          (resolve) => (timer = setTimeout(resolve, this.env.shutdownDrainMs)),
        );
        void deadline.then(() => (over = true));
        while (!over && (all().length || this.unstarted.size)) {
          const waits: Promise<unknown>[] = [deadline];
          if (all().length) waits.push(Promise.allSettled(all().map((r) => r.done)));
          if (this.unstarted.size) waits.push(this.nextUnstartedLeaving());
          await Promise.race(waits);
        }
        clearTimeout(timer);
      }
      const left = all();
      for (const run of left) run.controller.abort('shutdown' satisfies StopReason);
      await Promise.allSettled(left.map((r) => r.done));
    })();
    return this.draining;
  }

  // ---------------------------------------------------------------- internals

  private nextUnstartedLeaving(): Promise<void> {
    if (!this.unstartedLeft) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.unstartedLeft = { promise, resolve };
    }
    return this.unstartedLeft.promise;
  }

  private onBus(message: BusMessage): void {
    if (message.type === 'resume') {
      this.resumeLocal(message.id, message.user_id, message.offset);
      return;
    }
    for (const run of this.running.values()) {
      if (this.keysOf(run.spec).includes(message.key)) run.controller.abort('cancel' satisfies StopReason);
    }
  }

  private keysOf(spec: GenerationSpec<unknown>): string[] {
    const keys = [spec.id, cancelKeys.user(spec.owner.user_id), ...(spec.keys ?? [])];
    if (spec.owner.session_id) keys.push(cancelKeys.session(spec.owner.session_id));
    return keys;
  }

  /**
   * Reads the prompt (the web searched first when asked), builds it and sends the provider its request; the
   * first step of the answer is asked for, so the request goes out before anyone reads it.
   */
  private async begin(spec: CallSpec, signal: AbortSignal): Promise<Begun> {
    // Which key and model: a configuration read (read again after a database blip like the prompt), looked up
    // while the prompt is read, since neither needs the other; its failure is reported after the prompt's.
    const providerLookup = this.whileDatabaseBlips(() =>
      this.ai.resolveProvider({ organization_id: spec.owner.organization_id, model: spec.model }),
    );
    providerLookup.catch(() => undefined);
    // Reading the prompt changes nothing, so a connection lost to a database blip is simply read again.
    const [history, attachment, avatar] = await this.whileDatabaseBlips(() =>
      Promise.all([
        spec.prompt.history(),
        spec.prompt.attachment?.() ?? Promise.resolve(null),
        spec.prompt.avatar?.() ?? Promise.resolve(null),
      ]),
    );
    let sources: SearchResult[] | null = null;
    if (spec.prompt.search) {
      sources = await this.search
        .search(spec.prompt.search.provider, spec.prompt.search.query, signal)
        .catch((err: unknown) => {
          throw signal.aborted ? aiCancelled() : err;
        });
    }
    const messages = buildPrompt({
      instruction: spec.prompt.instruction,
      attachment,
      history,
      search: sources,
      avatar,
    });
    const provider = await providerLookup;
    const generation = this.ai.stream({
      messages,
      model: spec.model,
      organization_id: spec.owner.organization_id,
      signal,
      provider,
      // A streamed answer's text goes out in events at most every STREAM_BATCH_MS: the provider's answer is read
      // at that pace (each read wakes the process), and each read goes out as one event. An answer nobody
      // watches is read as it comes, so it ends as soon as the provider's does.
      readEveryMs: spec.streamed ? STREAM_BATCH_MS : undefined,
    });
    const first = generation.next();
    // Awaited by the consumer; a cancelled head start has none.
    first.catch(() => undefined);
    return { generation, first, provider, sources, avatar };
  }

  private async execute<T>(spec: GenerationSpec<T>, run: Running, head?: HeadStart): Promise<T> {
    const signal = run.controller.signal;
    const batcher = spec.stream
      ? new StreamBatcher(
          (content, offset) => {
            run.sent = offset + content.length;
            spec.stream?.(content, offset);
          },
          { burstsPaced: true },
        )
      : null;
    const limit = new WordLimit(run.reservation.limited ? run.reservation.words : Infinity);
    try {
      const { generation, first, provider, sources, avatar } = await (head?.begun ??
        this.begin({ ...spec, streamed: spec.stream !== null }, signal));
      let result: Pick<AiResult, 'finish_reason' | 'model'> | null = null;
      for (let step = first; ; step = generation.next()) {
        const next = await step;
        if (next.done) {
          result = next.value;
          break;
        }
        const piece = limit.take(next.value.delta);
        run.text += piece;
        batcher?.push(piece);
        if (limit.reached) {
          // The reservation is spent: stop the provider (return() closes its connection) as a cut answer.
          await generation.return(undefined as never);
          break;
        }
      }
      if (spec.endCarriesText) batcher?.holdTail(STREAM_BATCH_MS);
      else batcher?.end();
      if (signal.aborted) throw aiCancelled();
      const model = result?.model ?? provider.model;
      const output: GenerationOutput = {
        content: result ? run.text : run.text.trimEnd(),
        finish_reason: result?.finish_reason ?? 'length',
        model,
        words: countWords(run.text),
        sources,
        citations: avatar ? avatar.passages : null,
      };
      const saved = await this.saveAndCharge(spec, run, output);
      // The target was deleted while it was generated: nothing saved, nothing charged.
      if (saved === null) throw aiCancelled();
      batcher?.dropTail();
      spec.finished?.(saved);
      return saved;
    } catch (err) {
      batcher?.end();
      await this.release(run.reservation);
      await this.fail(spec, run, err);
      throw err;
    }
  }

  /**
   * Saves the result and charges its words in one transaction. A connection lost to a database blip rolls it
   * back, so it is tried again within the database's retry window; when the commit itself may have gone
   * through, what is stored decides (never saved or charged twice).
   */
  private async saveAndCharge<T>(
    spec: GenerationSpec<T>,
    run: Running,
    output: GenerationOutput,
  ): Promise<T | null> {
    let attempt = 0;
    return this.whileDatabaseBlips(async () => {
      if (attempt++ > 0 && spec.stored) {
        const already = await spec.stored();
        if (already !== null) return already;
      }
      const charge = { source: spec.source, reference: spec.id, organization_id: spec.owner.organization_id };
      // Two round trips when the spec has its save's statement: the user's lock, the charge's reads and the save
      // open the transaction, and the charge is recorded with the commit (three without it).
      const saving = spec.saving?.(output);
      const opening = [
        ...this.words.settleOpening(run.reservation, charge),
        ...(saving ? [saving.statement] : []),
      ];
      const { value } = await this.unitOfWork.runBatched(opening, async (m, opened) => {
        const saved = saving?.read(opened[opening.length - 1]);
        const stored = await spec.persist(m, output, saved);
        if (stored === null) return { value: null };
        const { closing } = await this.words.settleOpened(run.reservation, output.words, charge, m, opened);
        return { value: stored, closing };
      });
      return value;
    }, !spec.stored);
  }

  /**
   * Runs `task` again while it fails because the database connection was lost, up to DATABASE_RETRY_MS (the
   * pool itself waits for the database to come back within that window). `once` runs it a single time.
   */
  private async whileDatabaseBlips<R>(task: () => Promise<R>, once = false): Promise<R> {
    const deadline = Date.now() + this.env.databaseRetryMs;
    for (;;) {
      try {
        return await task();
      } catch (err) {
        if (once || !isDatabaseUnavailable(err) || Date.now() >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /**
   * A generation that did not complete: stopped by the shutdown, or failing after text was streamed, it ends as
   * interrupted with that text (nothing charged); otherwise its target is discarded and the error reported.
   */
  private async fail<T>(spec: GenerationSpec<T>, run: Running, err: unknown): Promise<void> {
    const stop = run.controller.signal.aborted ? (run.controller.signal.reason as StopReason) : null;
    const streamed = spec.stream !== null && run.sent > 0;
    try {
      if (spec.interrupt && stop === 'shutdown')
        await spec.interrupt(run.text.slice(0, run.sent), SHUTDOWN_REASON);
      else if (spec.interrupt && stop === null && streamed && !isOurRule(err))
        await spec.interrupt(run.text.slice(0, run.sent), PROVIDER_FAILED_REASON);
      else {
        await spec.discard?.();
        if (spec.report) spec.report(err);
        else if (spec.stream) this.report(spec.owner.user_id, spec.id, err);
      }
    } catch (cleanup) {
      this.logger.warn(
        `Could not end ${spec.id}: ${cleanup instanceof Error ? cleanup.message : String(cleanup)}`,
      );
    }
  }

  /** The provider's refusals as 'openai-error'; a cancellation was asked for and needs no report. */
  private report(user_id: number, what: string, err: unknown): void {
    if (isAiCancelled(err)) return;
    // Our own rules, such as a failed web search: their status and sentence as they are.
    if (isOurRule(err)) {
      this.realtime.emitToUser(user_id, 'error', { statusCode: err.status, message: err.message });
      return;
    }
    // The database stayed unreachable past its retry window: the same 503 as an HTTP request gets, not a 500.
    if (isDatabaseUnavailable(err)) {
      const { statusCode, message } = toErrorBody(err);
      this.logger.warn(`${what} failed: the database is unreachable`);
      this.realtime.emitToUser(user_id, 'error', { statusCode, message });
      return;
    }
    if (!(err instanceof AiError)) {
      this.logger.error(`${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      this.realtime.emitToUser(user_id, 'error', { statusCode: 500, message: GENERATION_FAILED_MESSAGE });
      return;
    }
    const mapped = toAiError(err);
    if (mapped.code === 'openai_error')
      this.realtime.emitToUser(user_id, 'openai-error', { message: socketErrorMessage(err) });
    else this.realtime.emitToUser(user_id, 'error', { statusCode: mapped.status, message: mapped.message });
  }

  /** Renews the leases of this instance's generations, saving the text so far, and their reservations. */
  private async renewLeases(): Promise<void> {
    const all = [...this.running.values()];
    if (!all.length) return;
    await this.words.renewReservations(
      all.map((r) => r.reservation.reservation_id),
      this.reservationTtlMs,
    );
    await Promise.all(
      all.map(async (run) => {
        if (!run.spec.checkpoint || run.controller.signal.aborted) return;
        const alive = await run.spec.checkpoint(run.text.slice(0, run.sent), this.leaseMs);
        if (!alive) run.controller.abort('cancel' satisfies StopReason);
      }),
    );
  }

  /** Interrupts stored targets whose lease lapsed (never this instance's own). */
  private async sweep(): Promise<void> {
    const held = [...this.running.keys()];
    for (const sweeper of this.sweepers) await sweeper.sweep(held);
  }
}

function isOurRule(err: unknown): err is DomainError {
  return err instanceof DomainError && !(err instanceof AiError);
}
