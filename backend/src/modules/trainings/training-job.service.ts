import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TrainingProgressPayload } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { JobQueue } from '../../common/jobs/job-queue';
import { WorkerPool } from '../../common/workers/worker-pool';
import { UnitOfWork } from '../../database/unit-of-work';
import { AiError } from '../ai/ai.errors';
import { AvatarsService } from '../avatars/avatars.service';
import { FilesService } from '../files/files.service';
import { extractText, TextExtractionFailed } from '../files/text-extraction';
import { GenerationService, type GenerationOwner } from '../generation/generation.service';
import { RealtimeService } from '../realtime/realtime.service';
import { OutputsRepository } from './outputs.repository';
import {
  boundGuide,
  DATASET_KIND_BY_MIME,
  guideRequest,
  notesRequest,
  progressOf,
  REFINE_INSTRUCTION,
  REFINE_OUTPUTS,
  refineRequest,
  sampleWindows,
  STYLE_GUIDE_INSTRUCTION,
  STYLE_NOTES_INSTRUCTION,
  TRAINING_LOST,
  TRAINING_MAX_MS,
  TRAINING_TIMED_OUT,
  type TrainingCheckpoint,
} from './training-rules';
import type { Training } from './training.entity';
import { TrainingsRepository } from './trainings.repository';

export const TRAINING_JOB = 'training-run';
/** Tries of one run; a worker's crash does not count (BullMQ takes a stalled job up again). */
const TRAINING_ATTEMPTS = 3;
/** A dead worker's run is taken up again within about this (BullMQ's lock on the job). */
const TRAINING_LOCK_MS = 10_000;
/** How often runs past their time are marked failed. */
const OVERDUE_SWEEP_MS = 60_000;
/** Past its 15 minutes, a run still marked running is failed after this grace (its own check comes first). */
const OVERDUE_GRACE_MS = 60_000;

interface TrainingJob {
  training_id: number;
  run_id: string;
}

/** A run that cannot go on: its training ends failed with `message`, and the job is not tried again. */
class RunFailed extends Error {}
/** A run replaced by a newer one or whose training was deleted: the job stops quietly. */
class RunGone extends Error {}

const cancelKey = (trainingId: number) => `training:${trainingId}`;

/**
 * The training run, a BullMQ job of up to 15 minutes: the dataset's text is read (worker pool), indexed as the
 * avatar's knowledge (an avatar file of the dataset), then the model reads windows of it and writes notes on its
 * style, and from the notes a style guide (each a metered generation on the engine). After every step the row's
 * checkpoint is saved in the step's own transaction, so a worker that dies is resumed from its last step by the
 * next worker that takes the stalled job; runs past their time are marked failed with a reason.
 */
@Injectable()
export class TrainingJobService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Trainings');
  private sweepTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly repo: TrainingsRepository,
    private readonly outputs: OutputsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly workers: WorkerPool,
    private readonly files: FilesService,
    private readonly avatars: AvatarsService,
    private readonly engine: GenerationService,
    private readonly realtime: RealtimeService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<TrainingJob>(
      TRAINING_JOB,
      (job, attempt) => this.run(job.training_id, job.run_id, attempt),
      { lockDurationMs: TRAINING_LOCK_MS },
    );
  }

  onApplicationBootstrap(): void {
    this.sweepTimer = setInterval(() => {
      this.failOverdue().catch((err: Error) => this.logger.warn(`Overdue sweep failed: ${err.message}`));
    }, OVERDUE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
  }

  async queue(training: Training): Promise<void> {
    this.emit(training);
    await this.jobs.add<TrainingJob>(
      TRAINING_JOB,
      { training_id: training.training_id, run_id: training.checkpoint!.run_id },
      { attempts: TRAINING_ATTEMPTS, backoffMs: 5000 },
    );
  }

  /** Stops the running generation of a training (deleted). */
  cancel(trainingId: number): void {
    this.engine.cancel(cancelKey(trainingId));
  }

  /** Marks runs that outlived their 15 minutes (with grace) as failed: their worker is gone or stuck. */
  async failOverdue(now = Date.now()): Promise<number> {
    const rows = await this.repo.overdue(new Date(now - TRAINING_MAX_MS - OVERDUE_GRACE_MS));
    for (const row of rows) {
      await this.repo.update(row.training_id, { state: 'failed', error: TRAINING_LOST });
      this.emit({ ...row, state: 'failed', error: TRAINING_LOST });
    }
    return rows.length;
  }

  // ---------------------------------------------------------------- the run

  async run(trainingId: number, runId: string, attempt = 1): Promise<void> {
    try {
      await this.steps(trainingId, runId);
    } catch (err) {
      if (err instanceof RunGone) return;
      if (err instanceof RunFailed) return this.fail(trainingId, runId, err.message);
      // Our own rules (no words left, too many generations) and the provider's refusals end the run with their
      // words; anything else (a database blip) is tried again, and fails the run after the last try.
      if (err instanceof AiError) return this.fail(trainingId, runId, `Open AI Error: ${err.message}`);
      if (err instanceof DomainError && err.status < 500) return this.fail(trainingId, runId, err.message);
      if (attempt >= TRAINING_ATTEMPTS)
        return this.fail(trainingId, runId, 'The training failed. Please run it again.');
      throw err;
    }
  }

  private async current(
    trainingId: number,
    runId: string,
  ): Promise<Training & { checkpoint: TrainingCheckpoint }> {
    const row = await this.repo.findById(trainingId);
    if (!row || row.checkpoint?.run_id !== runId || (row.state !== 'queued' && row.state !== 'running'))
      throw new RunGone();
    if (row.started_at && Date.now() - row.started_at.getTime() > TRAINING_MAX_MS)
      throw new RunFailed(TRAINING_TIMED_OUT);
    return row as Training & { checkpoint: TrainingCheckpoint };
  }

  private async steps(trainingId: number, runId: string): Promise<void> {
    let t = await this.current(trainingId, runId);
    if (t.state === 'queued') {
      await this.repo.update(trainingId, { state: 'running' });
      t = { ...t, state: 'running' };
      this.emit(t);
    }
    const { text, name } = await this.datasetText(t);
    if (t.checkpoint.stage === 'reading') {
      const avatar_file_id = await this.avatars.trainingFile(
        t.avatar_id,
        t.file_id!,
        name,
        t.checkpoint.avatar_file_id,
      );
      t = await this.save(t, { stage: 'knowledge', avatar_file_id });
    }
    if (t.checkpoint.stage === 'knowledge') {
      const file = await this.avatars.indexNow(t.checkpoint.avatar_file_id!);
      if (file?.index_state === 'failed')
        throw new RunFailed(file.index_error ?? 'The dataset could not be read.');
      if (t.checkpoint.kind === 'sync') {
        await this.finish(t, { synced_at: new Date() });
        return;
      }
      t = await this.save(t, { stage: 'style' });
    }
    const windows = sampleWindows(text);
    if (t.checkpoint.stage === 'style') {
      for (let i = t.checkpoint.notes.length; i < windows.length; i++) {
        t = await this.current(trainingId, runId);
        const saved = await this.generate(
          t,
          `notes:${i}`,
          STYLE_NOTES_INSTRUCTION,
          notesRequest(windows[i], i, windows.length),
          (m, content) =>
            this.saveIn(m, t, { notes: [...t.checkpoint.notes, boundGuide(content)] }, windows.length),
        );
        t = saved;
      }
      t = await this.save(t, { stage: 'guide' });
    }
    if (t.checkpoint.stage === 'guide') {
      t = await this.current(trainingId, runId);
      await this.generate(
        t,
        'guide',
        STYLE_GUIDE_INSTRUCTION,
        guideRequest(t.checkpoint.notes),
        (m, content) => this.finishIn(m, t, { style_guide: boundGuide(content), executed_at: new Date() }),
      );
    }
  }

  /** The dataset's text, read in the worker pool; a run without a readable dataset fails with the reason. */
  private async datasetText(t: Training): Promise<{ text: string; name: string }> {
    const stored = t.file_id ? await this.files.findById(t.file_id) : null;
    if (!stored) throw new RunFailed('The dataset file is no longer stored.');
    const kind = DATASET_KIND_BY_MIME[stored.type];
    if (!kind) throw new RunFailed('No text can be read from this dataset.');
    let text: string;
    try {
      text = await extractText(this.workers, await this.files.readBytes(stored), kind);
    } catch (err) {
      if (err instanceof TextExtractionFailed) throw new RunFailed(err.message);
      throw err;
    }
    if (!text.trim()) throw new RunFailed('The dataset holds no text.');
    return { text, name: stored.name };
  }

  /** One step's generation on the engine (metered, cancellable); `persist` saves it with the checkpoint. */
  private async generate(
    t: Training & { checkpoint: TrainingCheckpoint },
    step: string,
    instruction: string,
    message: string,
    persist: (
      m: EntityManager,
      content: string,
    ) => Promise<(Training & { checkpoint: TrainingCheckpoint }) | null>,
  ): Promise<Training & { checkpoint: TrainingCheckpoint }> {
    const owner: GenerationOwner = {
      user_id: t.user_id,
      session_id: null,
      staff: t.checkpoint.staff,
      organization_id: t.organization_id,
    };
    const reservation = await this.engine.admit(owner, null);
    try {
      const saved = await this.engine.run(
        {
          id: `training:${t.training_id}:${t.checkpoint.run_id}:${step}`,
          owner,
          keys: [cancelKey(t.training_id)],
          model: null,
          source: 'training',
          prompt: { instruction, history: () => Promise.resolve([{ role: 'user', content: message }]) },
          stream: null,
          persist: (m, output) => persist(m, output.content),
        },
        reservation,
      );
      // Sent once the step's transaction committed (a rolled back step did not happen).
      this.emit(saved);
      return saved;
    } catch (err) {
      // The engine calls a step whose training was deleted or replaced meanwhile cancelled.
      if (err instanceof AiError && err.code === 'ai_cancelled') throw new RunGone();
      throw err;
    }
  }

  /** The checkpoint moved on, in `m` (the step's settle transaction), when the run is still this one. */
  private async saveIn(
    m: EntityManager,
    t: Training & { checkpoint: TrainingCheckpoint },
    change: Partial<TrainingCheckpoint>,
    windows = 1,
  ) {
    const row = await this.repo.lockRun(m, t.training_id, t.checkpoint.run_id);
    if (!row) return null;
    const checkpoint = { ...t.checkpoint, ...change };
    const stage = checkpoint.stage;
    const progress = progressOf(stage, checkpoint.notes.length, windows);
    await this.repo.update(
      t.training_id,
      { checkpoint, stage, progress, avatar_file_id: checkpoint.avatar_file_id },
      m,
    );
    return { ...row, checkpoint, stage, progress, avatar_file_id: checkpoint.avatar_file_id } as Training & {
      checkpoint: TrainingCheckpoint;
    };
  }

  private async save(t: Training & { checkpoint: TrainingCheckpoint }, change: Partial<TrainingCheckpoint>) {
    const next = await this.unitOfWork.run((m) => this.saveIn(m, t, change));
    if (!next) throw new RunGone();
    this.emit(next);
    return next;
  }

  private async finishIn(
    m: EntityManager,
    t: Training & { checkpoint: TrainingCheckpoint },
    values: Partial<Training>,
  ) {
    const row = await this.repo.lockRun(m, t.training_id, t.checkpoint.run_id);
    if (!row) return null;
    const checkpoint = { ...t.checkpoint, stage: 'done' as const };
    const done = { state: 'ready' as const, stage: 'done' as const, progress: 100, error: null, checkpoint };
    await this.repo.update(t.training_id, { ...values, ...done }, m);
    return { ...row, ...values, ...done } as Training & { checkpoint: TrainingCheckpoint };
  }

  private async finish(t: Training & { checkpoint: TrainingCheckpoint }, values: Partial<Training>) {
    const next = await this.unitOfWork.run((m) => this.finishIn(m, t, values));
    if (!next) throw new RunGone();
    this.emit(next);
  }

  private async fail(trainingId: number, runId: string, message: string): Promise<void> {
    const row = await this.repo.findById(trainingId);
    if (!row || row.checkpoint?.run_id !== runId) return;
    await this.repo.update(trainingId, { state: 'failed', error: message });
    this.emit({ ...row, state: 'failed', error: message });
  }

  // ---------------------------------------------------------------- refine

  /** Rewrites the style guide from the rated outputs, in the request; false when nothing is rated. */
  async refine(me: Principal, training: Training): Promise<boolean> {
    const rated = await this.outputs.rated(training.training_id, REFINE_OUTPUTS);
    if (!rated.length) return false;
    const owner: GenerationOwner = {
      user_id: me.user_id,
      session_id: me.session_id,
      staff: !!me.staffRole,
      organization_id: training.organization_id,
    };
    const reservation = await this.engine.admit(owner, null);
    const request = refineRequest(
      training.style_guide,
      rated.map((o) => ({ rating: o.rating!, note: o.rating_note, content: o.content ?? '' })),
    );
    await this.engine.run(
      {
        id: `training:${training.training_id}:refine:${Date.now()}`,
        owner,
        keys: [cancelKey(training.training_id)],
        model: null,
        source: 'training',
        prompt: {
          instruction: REFINE_INSTRUCTION,
          history: () => Promise.resolve([{ role: 'user', content: request }]),
        },
        stream: null,
        persist: async (m, output) => {
          const row = await this.repo.findById(training.training_id, m);
          if (!row) return null;
          await this.repo.update(
            training.training_id,
            { style_guide: boundGuide(output.content), refined_at: new Date() },
            m,
          );
          return row;
        },
      },
      reservation,
    );
    return true;
  }

  // ---------------------------------------------------------------- progress

  private emit(
    t: Pick<
      Training,
      'training_id' | 'avatar_id' | 'user_id' | 'state' | 'stage' | 'progress' | 'error' | 'checkpoint'
    >,
  ): void {
    const payload: TrainingProgressPayload = {
      training_id: t.training_id,
      avatar_id: t.avatar_id,
      kind: t.checkpoint?.kind ?? 'execute',
      state: t.state,
      stage: t.stage,
      progress: t.progress,
      error: t.error,
    };
    this.realtime.emitToUser(t.user_id, 'training_progress', payload);
  }
}
