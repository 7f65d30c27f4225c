import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { likePattern, Page } from '../../common/http/pagination';
import { AvatarChunk } from './avatar-chunk.entity';
import { AvatarFile, IndexState } from './avatar-file.entity';
import { Avatar } from './avatar.entity';
import { EMBEDDING_DIMENSIONS } from '../ai/embedding-model';
import {
  COMMON_STEMS_SQL,
  FULL_TEXT_SQL,
  NEAREST_SETTINGS_SQL,
  nearestSql,
  STEMS_SQL,
  vectorLiteral,
} from './retrieval-rules';

/** Which avatars a caller sees: their own in the scope, the scope organization's, public ones; staff admins all. */
export interface AvatarViewer {
  user_id: number;
  /** 0 = Personal. */
  organization_id: number;
  admin: boolean;
}

export type AvatarSummary = Pick<Avatar, 'avatar_id' | 'name' | 'user_id' | 'organization_id' | 'public'>;

/** A full-text candidate passage with its rank. */
export interface ChunkCandidate {
  chunk_id: string;
  avatar_file_id: number;
  content: string;
  embedding: number[] | null;
}

/** The avatars, avatar_files and avatar_chunks tables. */
@Injectable()
export class AvatarsRepository {
  constructor(
    @InjectRepository(Avatar) private readonly avatars: Repository<Avatar>,
    @InjectRepository(AvatarFile) private readonly files: Repository<AvatarFile>,
    @InjectRepository(AvatarChunk) private readonly chunks: Repository<AvatarChunk>,
  ) {}

  // ---------------------------------------------------------------- avatars

  private visible(qb: SelectQueryBuilder<Avatar>, viewer: AvatarViewer): SelectQueryBuilder<Avatar> {
    if (viewer.admin) return qb;
    return qb.andWhere(
      new Brackets((w) => {
        w.where('(a.user_id = :uid AND COALESCE(a.organization_id, 0) = :org)', {
          uid: viewer.user_id,
          org: viewer.organization_id,
        }).orWhere('a.public');
        if (viewer.organization_id) w.orWhere('a.organization_id = :org', { org: viewer.organization_id });
      }),
    );
  }

  /** The avatar when the viewer may see it; null otherwise. */
  findVisible(viewer: AvatarViewer, avatarId: number): Promise<Avatar | null> {
    return this.visible(this.avatars.createQueryBuilder('a'), viewer)
      .andWhere('a.avatar_id = :id', { id: avatarId })
      .getOne();
  }

  async summaries(avatarIds: number[]): Promise<Map<number, AvatarSummary>> {
    if (!avatarIds.length) return new Map();
    const rows = await this.avatars
      .createQueryBuilder('a')
      .select(['a.avatar_id', 'a.name', 'a.user_id', 'a.organization_id', 'a.public'])
      .where('a.avatar_id IN (:...ids)', { ids: [...new Set(avatarIds)] })
      .getMany();
    return new Map(rows.map((a) => [a.avatar_id, a]));
  }

  createdCount(range: { from: Date; to: Date }): Promise<number> {
    return this.avatars
      .createQueryBuilder('a')
      .where('a."createdAt" >= :from AND a."createdAt" < :to', range)
      .getCount();
  }

  findById(avatarId: number): Promise<Avatar | null> {
    return this.avatars.findOne({ where: { avatar_id: avatarId } });
  }

  /** The caller's own avatars in the scope and the scope organization's (not every public one), newest first. */
  async listMine(
    viewer: AvatarViewer,
    filter: { query?: string; super_fetch?: boolean },
    page: Page,
  ): Promise<{ rows: Avatar[]; total: number }> {
    const qb = this.avatars.createQueryBuilder('a').where(
      new Brackets((w) => {
        w.where('(a.user_id = :uid AND COALESCE(a.organization_id, 0) = :org)', {
          uid: viewer.user_id,
          org: viewer.organization_id,
        });
        if (viewer.organization_id) w.orWhere('a.organization_id = :org', { org: viewer.organization_id });
      }),
    );
    return this.page(qb, filter, page);
  }

  listPublic(filter: { query?: string }, page: Page): Promise<{ rows: Avatar[]; total: number }> {
    return this.page(this.avatars.createQueryBuilder('a').where('a.public'), filter, page);
  }

  private async page(
    qb: SelectQueryBuilder<Avatar>,
    filter: { query?: string; super_fetch?: boolean },
    page: Page,
  ): Promise<{ rows: Avatar[]; total: number }> {
    const text = filter.query?.trim();
    if (text)
      qb.andWhere(`(a.name ILIKE :q ESCAPE '\\' OR a.description ILIKE :q ESCAPE '\\')`, {
        q: likePattern(text),
      });
    if (filter.super_fetch !== undefined)
      qb.andWhere('a.super_fetch_assistant = :sf', { sf: filter.super_fetch });
    const [rows, total] = await qb
      .orderBy('a.createdAt', 'DESC')
      .addOrderBy('a.avatar_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  insert(values: Omit<Avatar, 'avatar_id' | 'createdAt' | 'updatedAt'>): Promise<Avatar> {
    return this.avatars.save(this.avatars.create(values));
  }

  save(avatar: Avatar): Promise<Avatar> {
    return this.avatars.save(avatar);
  }

  /** A new avatar, in `m` (a combination's transaction). */
  insertIn(m: EntityManager, values: Omit<Avatar, 'avatar_id' | 'createdAt' | 'updatedAt'>): Promise<Avatar> {
    const repo = m.getRepository(Avatar);
    return repo.save(repo.create(values));
  }

  /** Replaces an avatar's context in `m` (a refinement's settle transaction); false when it is gone. */
  async setContextIn(m: EntityManager, avatarId: number, context: string): Promise<boolean> {
    const result = await m.getRepository(Avatar).update({ avatar_id: avatarId }, { context });
    return (result.affected ?? 0) > 0;
  }

  async remove(avatarId: number): Promise<void> {
    await this.avatars.delete({ avatar_id: avatarId });
  }

  // ---------------------------------------------------------------- files

  filesOf(avatarIds: number[]): Promise<AvatarFile[]> {
    if (!avatarIds.length) return Promise.resolve([]);
    return this.files
      .createQueryBuilder('f')
      .where('f.avatar_id IN (:...ids)', { ids: avatarIds })
      .orderBy('f.avatar_file_id', 'ASC')
      .getMany();
  }

  countFiles(avatarId: number): Promise<number> {
    return this.files.count({ where: { avatar_id: avatarId } });
  }

  findFile(avatarFileId: number): Promise<AvatarFile | null> {
    return this.files.findOne({ where: { avatar_file_id: avatarFileId } });
  }

  insertFile(values: Partial<AvatarFile>): Promise<AvatarFile> {
    return this.files.save(this.files.create(values));
  }

  saveFile(file: AvatarFile): Promise<AvatarFile> {
    return this.files.save(file);
  }

  /**
   * Copies a file of one avatar to another, in `m`, with its passages as they are indexed (no new indexing);
   * `fileId` is the new avatar's own copy of the stored upload.
   */
  async copyFileIn(
    m: EntityManager,
    source: AvatarFile,
    toAvatarId: number,
    fileId: number | null,
  ): Promise<AvatarFile> {
    const repo = m.getRepository(AvatarFile);
    const copy = await repo.save(
      repo.create({
        avatar_id: toAvatarId,
        file_id: fileId,
        name: source.name,
        type: source.type,
        editable: source.editable,
        content: source.content,
        index_state: source.index_state,
        index_error: source.index_error,
        chunks: source.chunks,
      }),
    );
    // SQL because INSERT ... SELECT (the passages copied inside the database) has no QueryBuilder form.
    await m.query(
      `INSERT INTO avatar_chunks (avatar_id, avatar_file_id, ordinal, content, embedding)
       SELECT $1, $2, ordinal, content, embedding FROM avatar_chunks WHERE avatar_file_id = $3 ORDER BY ordinal`,
      [toAvatarId, copy.avatar_file_id, source.avatar_file_id],
    );
    return copy;
  }

  async removeFile(avatarFileId: number): Promise<void> {
    await this.files.delete({ avatar_file_id: avatarFileId });
  }

  async setIndexState(
    avatarFileId: number,
    state: IndexState,
    extra: { index_error?: string | null; chunks?: number } = {},
  ): Promise<void> {
    await this.files.update({ avatar_file_id: avatarFileId }, { index_state: state, ...extra });
  }

  // ---------------------------------------------------------------- chunks

  /**
   * Replaces a file's passages, in `m` (the indexing job's transaction), holding the file's row so two jobs of one
   * file take turns; false (nothing written) when the file was removed meanwhile.
   */
  async replaceChunks(
    m: EntityManager,
    avatarId: number,
    avatarFileId: number,
    passages: { content: string; embedding: number[] | null }[],
  ): Promise<boolean> {
    // The avatar first (the share lock its passages' foreign key takes anyway), then the file: deleting the
    // avatar locks them in that order too (its row, then its files by cascade), so the two cannot deadlock.
    const avatar = await m
      .getRepository(Avatar)
      .findOne({ where: { avatar_id: avatarId }, lock: { mode: 'for_key_share' } });
    if (!avatar) return false;
    const file = await m
      .getRepository(AvatarFile)
      .findOne({ where: { avatar_file_id: avatarFileId }, lock: { mode: 'pessimistic_write' } });
    if (!file) return false;
    const repo = m.getRepository(AvatarChunk);
    await repo.delete({ avatar_file_id: avatarFileId });
    for (let i = 0; i < passages.length; i += 200)
      await repo.insert(
        passages.slice(i, i + 200).map((p, j) => ({
          avatar_id: avatarId,
          avatar_file_id: avatarFileId,
          ordinal: i + j,
          content: p.content,
          embedding: p.embedding,
        })),
      );
    return true;
  }

  /**
   * The avatar's passages that hold any `choosing` word, best full-text rank by every `ranking` word first
   * (websearch_to_tsquery syntax). SQL because the ranking function and the tsquery have no QueryBuilder form.
   */
  async fullTextCandidates(
    avatarId: number,
    choosing: string,
    ranking: string,
    limit: number,
  ): Promise<ChunkCandidate[]> {
    return (await this.chunks.query(FULL_TEXT_SQL, [avatarId, choosing, ranking, limit])) as ChunkCandidate[];
  }

  /** Each word's stems, as the index holds them (SQL: the stemmer is the database's). */
  async stems(words: string[]): Promise<Map<string, string[]>> {
    const rows = (await this.chunks.query(STEMS_SQL, [words])) as { word: string; stems: string[] }[];
    return new Map(rows.map((r) => [r.word, r.stems]));
  }

  /** The share of passages holding each common stem (SQL: the planner's statistics have no entity). */
  async commonStems(): Promise<Map<string, number>> {
    const [row] = (await this.chunks.query(COMMON_STEMS_SQL)) as {
      stems: string[] | null;
      shares: number[] | null;
    }[];
    const shares = new Map<string, number>();
    row?.stems?.forEach((stem, i) => shares.set(stem, row.shares?.[i] ?? 0));
    return shares;
  }

  private vectorSchemaLookup: Promise<string | null> | null = null;

  /**
   * pgvector's schema when avatar_chunks has its embedding_vector column (the migration adds it only where the
   * database offers pgvector), else null. Read once per process: the migrations ran before the app serves; a
   * failed read is not kept, so the next call asks again.
   */
  private vectorSchema(): Promise<string | null> {
    this.vectorSchemaLookup ??= this.chunks
      .query(
        `SELECT n.nspname AS schema
           FROM pg_attribute a
           JOIN pg_type t ON t.oid = a.atttypid
           JOIN pg_namespace n ON n.oid = t.typnamespace
          WHERE a.attrelid = 'avatar_chunks'::regclass AND a.attname = 'embedding_vector' AND NOT a.attisdropped`,
      )
      .then((rows: { schema: string }[]) => rows[0]?.schema ?? null)
      .catch((err: unknown) => {
        this.vectorSchemaLookup = null;
        throw err;
      });
    return this.vectorSchemaLookup;
  }

  /** Whether passages can be searched by embedding through pgvector's index (SQL: the catalog has no entity). */
  async hasVectorSearch(): Promise<boolean> {
    return (await this.vectorSchema()) !== null;
  }

  /**
   * An avatar's passages nearest to `embedding` by cosine, at most `limit`, through the HNSW index; empty without
   * pgvector or for an embedding of another size than the column's. One transaction, so the index settings
   * (NEAREST_SETTINGS_SQL) hold for this query only. SQL because the vector operator has no QueryBuilder form.
   */
  async nearestByEmbedding(
    avatarId: number,
    embedding: ArrayLike<number>,
    limit: number,
  ): Promise<ChunkCandidate[]> {
    const schema = await this.vectorSchema();
    if (!schema || embedding.length !== EMBEDDING_DIMENSIONS) return [];
    return this.chunks.manager.transaction(async (m) => {
      for (const setting of NEAREST_SETTINGS_SQL) await m.query(setting);
      return (await m.query(nearestSql(schema), [
        avatarId,
        vectorLiteral(embedding),
        limit,
      ])) as ChunkCandidate[];
    });
  }

  /** Every passage of an avatar with few of them (their embeddings are compared all at once). */
  async allChunks(avatarId: number, limit: number): Promise<ChunkCandidate[]> {
    const rows = await this.chunks.find({
      where: { avatar_id: avatarId },
      order: { chunk_id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({
      chunk_id: String(r.chunk_id),
      avatar_file_id: r.avatar_file_id,
      content: r.content,
      embedding: r.embedding,
    }));
  }

  /** How many passages an avatar's files hold (from the files' counts). */
  async chunkCount(avatarId: number): Promise<number> {
    const row = await this.files
      .createQueryBuilder('f')
      .select('COALESCE(SUM(f.chunks), 0)::int', 'n')
      .where('f.avatar_id = :id', { id: avatarId })
      .getRawOne<{ n: number }>();
    return row?.n ?? 0;
  }
}
