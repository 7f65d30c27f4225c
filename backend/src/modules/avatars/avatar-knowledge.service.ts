import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../common/jobs/job-queue';
import { UnitOfWork } from '../../database/unit-of-work';
import { WorkerPool } from '../../common/workers/worker-pool';
import { AiService } from '../ai/ai.service';
import type { KnowledgePassage } from '../generation/prompt-builder';
import type { FileKind } from '../files/file-type';
import { FilesService } from '../files/files.service';
import { extractText, TextExtractionFailed } from '../files/text-extraction';
import type { AvatarFile } from './avatar-file.entity';
import { AvatarsRepository } from './avatars.repository';
import {
  ALL_CHUNKS_LIMIT,
  choosingWords,
  chunkText,
  FULL_TEXT_CANDIDATES,
  NEAREST_CANDIDATES,
  pickPassages,
  searchQuery,
  searchWords,
  unionCandidates,
} from './retrieval-rules';

/** How long the statistics of common words are reused. */
const COMMON_STEMS_TTL_MS = 5 * 60_000;

export const INDEX_JOB = 'avatar-file-index';

interface IndexJob {
  avatar_file_id: number;
}

const KIND_BY_MIME: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain; charset=utf-8': 'text',
};

/**
 * An avatar's knowledge: indexing its files (text extracted in the worker pool, cut into passages, embedded when
 * the provider offers embeddings) as a background job whose state is on the file, and retrieval (full-text
 * candidates fused with the embedding ranking) for the message an avatar answers.
 */
@Injectable()
export class AvatarKnowledgeService implements OnModuleInit {
  private readonly logger = new Logger('AvatarKnowledge');

  constructor(
    private readonly repo: AvatarsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly workers: WorkerPool,
    private readonly files: FilesService,
    private readonly ai: AiService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<IndexJob>(INDEX_JOB, (job) => this.index(job.avatar_file_id));
  }

  /** Queues (re)indexing of a file; its state goes back to pending. */
  async queue(avatarFileId: number): Promise<void> {
    await this.repo.setIndexState(avatarFileId, 'pending', { index_error: null });
    await this.jobs.add<IndexJob>(INDEX_JOB, { avatar_file_id: avatarFileId }, { attempts: 3 });
  }

  /** The indexing job: a file that is gone meanwhile needs nothing; an unreadable one ends as failed. */
  async index(avatarFileId: number): Promise<void> {
    const file = await this.repo.findFile(avatarFileId);
    if (!file) return;
    await this.repo.setIndexState(avatarFileId, 'indexing');
    let text: string;
    try {
      text = await this.textOf(file);
    } catch (err) {
      if (!(err instanceof TextExtractionFailed)) throw err;
      await this.repo.setIndexState(avatarFileId, 'failed', { index_error: err.message, chunks: 0 });
      return;
    }
    const passages = chunkText(text);
    const avatar = await this.repo.findById(file.avatar_id);
    if (!avatar) return;
    // Embeddings are an improvement, not a requirement: without them retrieval is full-text only.
    const embeddings = passages.length
      ? await this.ai.embed(passages, avatar.organization_id).catch((err: unknown) => {
          this.logger.warn(`Embeddings for file ${avatarFileId} failed: ${(err as Error).message}`);
          return null;
        })
      : null;
    const written = await this.unitOfWork.run((m) =>
      this.repo.replaceChunks(
        m,
        file.avatar_id,
        avatarFileId,
        passages.map((content, i) => ({ content, embedding: embeddings?.[i] ?? null })),
      ),
    );
    // The file (or its avatar) was removed while it was read: nothing to keep.
    if (!written) return;
    await this.repo.setIndexState(avatarFileId, 'ready', {
      chunks: passages.length,
      index_error: passages.length ? null : 'The file holds no text.',
    });
  }

  private async textOf(file: AvatarFile): Promise<string> {
    if (file.editable) return file.content ?? '';
    const stored = file.file_id ? await this.files.findById(file.file_id) : null;
    if (!stored) throw new TextExtractionFailed('The file is no longer stored.');
    const kind = KIND_BY_MIME[stored.type];
    if (!kind) throw new TextExtractionFailed('No text can be read from this file.');
    return extractText(this.workers, await this.files.readBytes(stored), kind);
  }

  private commonStemsCache: { at: number; shares: Promise<Map<string, number>> } | null = null;

  private commonStems(): Promise<Map<string, number>> {
    if (!this.commonStemsCache || Date.now() - this.commonStemsCache.at > COMMON_STEMS_TTL_MS) {
      const shares = this.repo.commonStems().catch(() => new Map<string, number>());
      this.commonStemsCache = { at: Date.now(), shares };
    }
    return this.commonStemsCache.shares;
  }

  /** Full-text candidates: chosen by the question's rare words, ranked by all of them. */
  private async fullText(avatarId: number, question: string) {
    const words = searchWords(question);
    if (!words.length) return [];
    const [stems, shares] = await Promise.all([this.repo.stems(words), this.commonStems()]);
    const choosing = searchQuery(choosingWords(words, stems, shares));
    if (!choosing) return [];
    return this.repo.fullTextCandidates(avatarId, choosing, searchQuery(words)!, FULL_TEXT_CANDIDATES);
  }

  /**
   * The passages of an avatar's files for `question`: full-text candidates fused with the ranking by embedding
   * (all passages of a small avatar; of a large one its full-text candidates, with pgvector also its nearest
   * passages by embedding), at most PASSAGES_PER_ANSWER, with file names.
   */
  async retrieve(
    avatarId: number,
    question: string,
    organization_id: number | null,
  ): Promise<KnowledgePassage[]> {
    const total = await this.repo.chunkCount(avatarId);
    if (!total) return [];
    const embedding = this.ai
      .embed([question], organization_id)
      .then((vectors) => vectors?.[0] ?? null)
      .catch(() => null);
    // A large avatar's nearest passages by embedding (pgvector), asked while the full-text search runs.
    const nearest = embedding.then(async (vector) =>
      vector && total > ALL_CHUNKS_LIMIT && (await this.repo.hasVectorSearch())
        ? this.repo.nearestByEmbedding(avatarId, vector, NEAREST_CANDIDATES)
        : [],
    );
    const [fullText, questionEmbedding, near] = await Promise.all([
      this.fullText(avatarId, question),
      embedding,
      nearest,
    ]);
    const pool = !questionEmbedding
      ? fullText
      : total <= ALL_CHUNKS_LIMIT
        ? await this.repo.allChunks(avatarId, ALL_CHUNKS_LIMIT)
        : unionCandidates(fullText, near);
    const picked = pickPassages(fullText, questionEmbedding, pool);
    if (!picked.length) return [];
    const names = new Map((await this.repo.filesOf([avatarId])).map((f) => [f.avatar_file_id, f.name]));
    return picked.map((c) => ({
      avatar_file_id: c.avatar_file_id,
      file_name: names.get(c.avatar_file_id) ?? '',
      passage: c.content,
    }));
  }
}
