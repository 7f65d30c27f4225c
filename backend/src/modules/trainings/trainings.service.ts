import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { TrainingRunKind } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import {
  badInput,
  conflict,
  DomainError,
  forbidden,
  notFound,
  preconditionFailed,
  unsupportedMedia,
} from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { AiService } from '../ai/ai.service';
import { PREMIUM_FEATURE } from '../avatars/avatar-rules';
import { AvatarsService } from '../avatars/avatars.service';
import { FilesService } from '../files/files.service';
import { WordsService } from '../words/words.service';
import type {
  CreateTrainingBody,
  TrainingDto,
  TrainingListQuery,
  TrainingPageResponse,
  UpdateTrainingBody,
} from './dto/training.dto';
import { TrainingJobService } from './training-job.service';
import { DATASET_MIME_TYPES, NOT_EXECUTED, NOTHING_RATED, TRAINING_BUSY } from './training-rules';
import type { Training } from './training.entity';
import { TrainingsRepository, TrainingViewer } from './trainings.repository';

const PAGE_SIZE = 24;
const trainingNotFound = () => notFound('Training', 'training_not_found');
const isAdmin = (me: Principal) => me.staffRole === 'admin';
const running = (t: Training) => t.state === 'queued' || t.state === 'running';

/**
 * Trainings: a dataset file that a run turns into its avatar's knowledge and a learned style guide. Seen like
 * avatars (the owner in the scope, the organization's members, everyone when public, staff admins), changed by
 * the owner or a staff admin, made public by staff admins only; anything not visible is 404.
 */
@Injectable()
export class TrainingsService {
  constructor(
    private readonly repo: TrainingsRepository,
    private readonly job: TrainingJobService,
    private readonly avatars: AvatarsService,
    private readonly files: FilesService,
    private readonly words: WordsService,
    private readonly ai: AiService,
  ) {}

  private viewer(me: Principal): TrainingViewer {
    return { user_id: me.user_id, organization_id: me.org?.organization_id ?? 0, admin: isAdmin(me) };
  }

  private canManage(me: Principal, t: Training): boolean {
    return isAdmin(me) || t.user_id === me.user_id;
  }

  /** Running a training or making one needs access (staff exempt): 412 with the premium sentence. */
  private async checkPremium(me: Principal): Promise<void> {
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(PREMIUM_FEATURE, 'no_access');
  }

  /** A training the caller may see (else 404). */
  async visible(me: Principal, trainingId: number): Promise<Training> {
    const training = await this.repo.findVisible(this.viewer(me), trainingId);
    if (!training) throw trainingNotFound();
    return training;
  }

  private async managed(me: Principal, trainingId: number): Promise<Training> {
    const training = await this.visible(me, trainingId);
    if (!this.canManage(me, training))
      throw forbidden('Only the owner of this training or an admin can change it.', 'forbidden');
    return training;
  }

  /** Whether runs in the caller's scope are paid by the scope's own key (the organization's). */
  private async ownKeyPays(me: Principal): Promise<boolean> {
    const organization_id = me.org?.organization_id ?? null;
    if (!organization_id) return false;
    return this.ai
      .resolveProvider({ organization_id })
      .then((choice) => choice.source === 'organization')
      .catch(() => false);
  }

  async list(me: Principal, query: TrainingListQuery): Promise<TrainingPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    if (query.avatar_id) await this.avatars.visible(me, query.avatar_id);
    const { rows, total } = await this.repo.listMine(
      this.viewer(me),
      { query: query.query, avatar_id: query.avatar_id },
      page,
    );
    return {
      trainings: await this.toDtos(me, rows),
      total,
      page: page.page,
      limit: page.limit,
      own_key_pays: await this.ownKeyPays(me),
    };
  }

  async listPublic(me: Principal, query: TrainingListQuery): Promise<TrainingPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repo.listPublic({ query: query.query }, page);
    return {
      trainings: await this.toDtos(me, rows),
      total,
      page: page.page,
      limit: page.limit,
      own_key_pays: await this.ownKeyPays(me),
    };
  }

  async get(me: Principal, trainingId: number): Promise<TrainingDto> {
    return (await this.toDtos(me, [await this.visible(me, trainingId)]))[0];
  }

  /** The dataset must be the caller's own upload, of a kind a training reads (415 otherwise). */
  private async checkDataset(me: Principal, fileId: number): Promise<void> {
    const file = await this.files.findOwned(me.user_id, fileId).catch((err: unknown) => {
      if (err instanceof DomainError && err.status === 404)
        throw notFound('Dataset file', 'training_file_missing');
      throw err;
    });
    if (!DATASET_MIME_TYPES.includes(file.type))
      throw unsupportedMedia(
        'A dataset is a .txt, .csv, .jsonl, .docx, .pdf or .pptx file.',
        'unsupported_type',
      );
  }

  async create(me: Principal, body: CreateTrainingBody): Promise<TrainingDto> {
    await this.checkPremium(me);
    const avatar = await this.avatars.manageable(me, body.avatar_id);
    await this.checkDataset(me, body.file_id);
    const training = await this.repo.insert({
      user_id: avatar.user_id,
      organization_id: avatar.organization_id,
      avatar_id: avatar.avatar_id,
      name: body.name.trim(),
      file_id: body.file_id,
      state: 'draft',
    });
    return this.get(me, training.training_id);
  }

  async update(me: Principal, body: UpdateTrainingBody): Promise<TrainingDto> {
    const training = await this.managed(me, body.training_id);
    if (body.public !== undefined && body.public !== training.public && !isAdmin(me))
      throw forbidden('Only admins can make a training public.', 'forbidden');
    if (body.file_id !== undefined && body.file_id !== training.file_id) {
      if (running(training)) throw conflict(TRAINING_BUSY, 'training_busy');
      await this.checkDataset(me, body.file_id);
      training.file_id = body.file_id;
    }
    if (body.name !== undefined) training.name = body.name.trim();
    if (body.public !== undefined) training.public = body.public;
    await this.repo.save(training);
    return this.get(me, training.training_id);
  }

  /** Starts a run (execute: knowledge and style guide; sync: the dataset read and indexed again). */
  async start(me: Principal, trainingId: number, kind: TrainingRunKind): Promise<TrainingDto> {
    const training = await this.managed(me, trainingId);
    await this.checkPremium(me);
    if (!training.file_id) throw badInput('This training has no dataset file.', 'training_file_missing');
    if (running(training)) throw conflict(TRAINING_BUSY, 'training_busy');
    const started = await this.repo.claimRun(trainingId, {
      state: 'queued',
      stage: 'reading',
      progress: 0,
      error: null,
      started_at: new Date(),
      checkpoint: {
        run_id: randomUUID(),
        kind,
        staff: !!me.staffRole && training.user_id === me.user_id,
        stage: 'reading',
        notes: [],
        avatar_file_id: training.avatar_file_id,
      },
    });
    if (!started) throw conflict(TRAINING_BUSY, 'training_busy');
    const claimed = (await this.repo.findById(trainingId))!;
    await this.job.queue(claimed);
    return this.get(me, trainingId);
  }

  /** Rewrites the style guide from the training's rated outputs (runs in the request). */
  async refine(me: Principal, trainingId: number): Promise<TrainingDto> {
    const training = await this.managed(me, trainingId);
    await this.checkPremium(me);
    if (running(training)) throw conflict(TRAINING_BUSY, 'training_busy');
    if (!training.style_guide.trim()) throw badInput(NOT_EXECUTED, 'training_not_executed');
    const refined = await this.job.refine(me, training);
    if (!refined) throw badInput(NOTHING_RATED, 'training_nothing_rated');
    return this.get(me, trainingId);
  }

  async remove(me: Principal, trainingId: number): Promise<void> {
    const training = await this.managed(me, trainingId);
    await this.repo.remove(training.training_id);
    this.job.cancel(training.training_id);
  }

  /** What an output written with a training needs: its avatar and its style guide (the caller must see it). */
  async styleFor(me: Principal, trainingId: number): Promise<{ avatar_id: number; style_guide: string }> {
    const training = await this.visible(me, trainingId);
    return { avatar_id: training.avatar_id, style_guide: training.style_guide };
  }

  private async toDtos(me: Principal, rows: Training[]): Promise<TrainingDto[]> {
    const files = await this.files.summaries(rows.map((t) => t.file_id).filter((id): id is number => !!id));
    return rows.map((t) => ({
      training_id: t.training_id,
      name: t.name,
      avatar_id: t.avatar_id,
      file_id: t.file_id,
      file: t.file_id ? (files.get(t.file_id) ?? null) : null,
      user_id: t.user_id,
      organization_id: t.organization_id,
      public: t.public,
      state: t.state,
      stage: t.stage,
      progress: t.progress,
      error: t.error,
      style_guide: t.style_guide,
      avatar_file_id: t.avatar_file_id,
      can_manage: this.canManage(me, t),
      executed_at: t.executed_at,
      synced_at: t.synced_at,
      refined_at: t.refined_at,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
    }));
  }
}
