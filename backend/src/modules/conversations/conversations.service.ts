import { cancelKeys } from '../generation/generation-bus';
import { GenerationService } from '../generation/generation.service';
import { Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ownerScope } from '../../common/auth/owner-scope';
import { WorkerPool } from '../../common/workers/worker-pool';
import type { Principal } from '../../common/auth/principal';
import {
  badInput,
  DomainError,
  notFound,
  preconditionFailed,
  tooLarge,
} from '../../common/errors/domain-error';
import { likePattern, selectPage, toPage } from '../../common/http/pagination';
import { resolveModel, supportsVision } from '../ai/ai.models';
import { AppConfigService } from '../app-config/app-config.service';
import { detectFileType, nameContradictsContent, type DetectedType } from '../files/file-type';
import { FilesService } from '../files/files.service';
import { NO_ACCESS_MESSAGE, WordsService } from '../words/words.service';
import { extractTextKeepingBytes, TextExtractionFailed } from '../files/text-extraction';
import type { UploadedBlob } from '../files/upload.interceptor';
import {
  ACCEPTED_FILE_MESSAGE,
  attachmentExcerpt,
  type PromptAttachment,
  isAttachable,
  MAX_ATTACHED_IMAGE_BYTES,
  MAX_STORED_TEXT_CHARS,
} from './conversation-files';
import { ORDER_BY, normalizeModel, normalizeTags } from './conversation-rules';
import type {
  ConversationDto,
  ConversationListQuery,
  ConversationPageResponse,
  ConversationTagsQuery,
  ConversationTagsResponse,
  CreateConversationBody,
  UpdateConversationBody,
} from './dto/conversation.dto';

const PAGE_SIZE = 20;
const COLUMNS = `c.conversation_id, c.user_id, c.organization_id, c.name, c.model, c.tags, c.archived,
  c.avatar_id, c.thread_avatar_id, c."createdAt", c."updatedAt",
  (SELECT json_build_object('file_id', f.file_id, 'name', f.name, 'type', f.type, 'size', f.size)
     FROM conversation_files cf JOIN files f ON f.file_id = cf.file_id
    WHERE cf.conversation_id = c.conversation_id) AS file`;

const conversationNotFound = () => notFound('Conversation', 'conversation_not_found');

/** The caller's conversations in the current scope (see ownerScope), on the `c` alias. */
export function scopeWhere(me: Principal, first: number): { sql: string; params: unknown[] } {
  return ownerScope(me, 'c', first);
}

/**
 * Conversations belong to their creator and to the scope they were created in (fixed then). Every read and
 * change filters by both, so another user's conversation, or the caller's own seen from another scope, is 404.
 */
@Injectable()
export class ConversationsService {
  private readonly logger = new Logger('Conversations');

  constructor(
    private readonly db: DataSource,
    private readonly files: FilesService,
    private readonly appConfig: AppConfigService,
    private readonly workers: WorkerPool,
    private readonly words: WordsService,
    /** Stops the generations of a deleted conversation (on every instance); optional outside the full app. */
    @Optional() private readonly generation?: GenerationService,
  ) {}

  async list(me: Principal, query: ConversationListQuery): Promise<ConversationPageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const scope = scopeWhere(me, 1);
    // Threads with avatars are shown on the avatar's page, not among conversations.
    const where = [scope.sql, 'c.thread_avatar_id IS NULL'];
    const params = [...scope.params];
    const text = query.query?.trim();
    if (text) {
      params.push(likePattern(text));
      where.push(`c.name ILIKE $${params.length}`);
    }
    if (query.archived) {
      params.push(query.archived === 'true');
      where.push(`c.archived = $${params.length}`);
    }
    // A conversation must carry every tag asked for; each check is a primary-key lookup in conversation_tags.
    for (const tag of normalizeTags(query.tags)) {
      params.push(tag);
      where.push(
        `EXISTS (SELECT 1 FROM conversation_tags ct WHERE ct.conversation_id = c.conversation_id AND ct.tag = $${params.length})`,
      );
    }
    const whereSql = where.join(' AND ');
    const orderBy = ORDER_BY[query.sortBy ?? 'createdAt_desc'];
    const { rows, total } = await selectPage<ConversationDto>(
      this.db,
      { columns: COLUMNS, from: `conversations c WHERE ${whereSql}`, orderBy, params },
      { page, limit, skip },
    );
    return { conversations: rows, total, page, limit };
  }

  async tags(me: Principal, query: ConversationTagsQuery): Promise<ConversationTagsResponse> {
    const scope = scopeWhere(me, 1);
    const params = [...scope.params];
    let archived = '';
    if (query.archived) {
      params.push(query.archived === 'true');
      archived = `AND c.archived = $${params.length}`;
    }
    const tags = (await this.db.query(
      `SELECT ct.tag, count(*)::int AS conversations
         FROM conversations c JOIN conversation_tags ct ON ct.conversation_id = c.conversation_id
        WHERE ${scope.sql} AND c.thread_avatar_id IS NULL ${archived}
        GROUP BY ct.tag ORDER BY lower(ct.tag), ct.tag`,
      params,
    )) as { tag: string; conversations: number }[];
    return { tags, total: tags.length };
  }

  async get(me: Principal, conversationId: number): Promise<ConversationDto> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM conversations c WHERE c.conversation_id = $1 AND ${scope.sql}`,
      [conversationId, ...scope.params],
    )) as ConversationDto[];
    if (!row) throw conversationNotFound();
    return row;
  }

  /** The caller's thread with an avatar in the current scope, or null before its first message. */
  async findAvatarThread(me: Principal, avatarId: number): Promise<ConversationDto | null> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM conversations c WHERE c.thread_avatar_id = $1 AND ${scope.sql}`,
      [avatarId, ...scope.params],
    )) as ConversationDto[];
    return row ?? null;
  }

  /** The caller's thread with an avatar in the current scope, made on its first message. */
  async avatarThread(me: Principal, avatarId: number, name: string): Promise<ConversationDto> {
    const found = await this.findAvatarThread(me, avatarId);
    if (found) return found;
    await this.db.query(
      `INSERT INTO conversations (user_id, organization_id, name, tags, avatar_id, thread_avatar_id)
       VALUES ($1, $2, $3, '', $4, $4)
       ON CONFLICT (user_id, thread_avatar_id, (COALESCE(organization_id, 0))) WHERE thread_avatar_id IS NOT NULL
       DO NOTHING`,
      [me.user_id, me.org?.organization_id ?? null, name.slice(0, 200), avatarId],
    );
    const made = await this.findAvatarThread(me, avatarId);
    if (!made) throw conversationNotFound();
    return made;
  }

  /**
   * Users without access (no words left and no subscription) cannot start more conversations, as they cannot
   * send; staff use the product without buying words. 412 no_access, with the sentence a send answers.
   */
  async checkAccess(me: Principal): Promise<void> {
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(NO_ACCESS_MESSAGE, 'no_access');
  }

  /** `accessChecked`: the caller (a feature starting several at once) has just called checkAccess itself. */
  async create(
    me: Principal,
    body: CreateConversationBody,
    options: { accessChecked?: boolean } = {},
  ): Promise<ConversationDto> {
    if (!options.accessChecked) await this.checkAccess(me);
    const tags = normalizeTags(body.tags);
    return this.db.transaction(async (m) => {
      const [row] = (await m.query(
        `INSERT INTO conversations (user_id, organization_id, name, model, tags, avatar_id)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [
          me.user_id,
          me.org?.organization_id ?? null,
          body.name,
          normalizeModel(body.model) ?? null,
          tags.join(','),
          body.avatar_id ?? null,
        ],
      )) as ConversationDto[];
      await this.writeTags(m, row.conversation_id, tags);
      return { ...row, file: null };
    });
  }

  async update(me: Principal, body: UpdateConversationBody): Promise<ConversationDto> {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (body.name !== undefined) set('name', body.name);
    const model = normalizeModel(body.model);
    if (model !== undefined) set('model', model);
    // undefined leaves the tags alone; null or '' clears them.
    const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
    if (tags) set('tags', tags.join(','));
    if (body.archived !== undefined) set('archived', body.archived);
    sets.push(`"updatedAt" = now()`);
    const scope = scopeWhere(me, params.length + 2);
    return this.db.transaction(async (m) => {
      const [rows] = (await m.query(
        `UPDATE conversations c SET ${sets.join(', ')}
          WHERE c.conversation_id = $${params.length + 1} AND ${scope.sql} RETURNING ${COLUMNS}`,
        [...params, body.conversation_id, ...scope.params],
      )) as [ConversationDto[], number];
      const row = rows[0];
      if (!row) throw conversationNotFound();
      if (tags) await this.writeTags(m, row.conversation_id, tags, true);
      return row;
    });
  }

  async remove(me: Principal, conversationId: number): Promise<void> {
    const scope = scopeWhere(me, 2);
    // RETURNING sees the statement's snapshot, so it still finds the attachment the delete cascades away.
    const [rows, affected] = (await this.db.query(
      `DELETE FROM conversations c WHERE c.conversation_id = $1 AND ${scope.sql}
       RETURNING (SELECT cf.file_id FROM conversation_files cf WHERE cf.conversation_id = c.conversation_id) AS file_id`,
      [conversationId, ...scope.params],
    )) as [{ file_id: number | null }[], number];
    if (!affected) throw conversationNotFound();
    this.generation?.cancel(cancelKeys.conversation(conversationId));
    if (rows[0]?.file_id) await this.discardFile(me.user_id, rows[0].file_id);
  }

  /**
   * POST /conversations/file/{id}: attaches a docx, pdf, pptx or txt (its text is read now and kept) or a
   * jpeg/png/webp image (only when the conversation's model can see images). Replaces any earlier attachment,
   * whose stored file is then deleted.
   */
  async attachFile(
    me: Principal,
    conversationId: number,
    upload: UploadedBlob | undefined,
  ): Promise<ConversationDto> {
    const conversation = await this.get(me, conversationId);
    if (!upload) throw badInput('Send the file in the form field "file".', 'file_required');
    const type = detectFileType(upload.buffer);
    if (!type || !isAttachable(type) || nameContradictsContent(upload.originalname, type)) {
      throw badInput(ACCEPTED_FILE_MESSAGE, 'unsupported_type');
    }
    let text: string | null = null;
    if (type.kind === 'image') {
      await this.checkVision(conversation.model);
      if (upload.buffer.length > MAX_ATTACHED_IMAGE_BYTES) {
        throw tooLarge('Images can be at most 20 MB.', 'image_too_large');
      }
    } else {
      const read = await this.readText(upload.buffer, type);
      text = read.text;
      // The bytes went to the pool thread without a copy and came back.
      upload = { ...upload, buffer: read.data };
    }
    const stored = await this.files.store(me.user_id, upload.originalname, upload.buffer, [type.kind]);
    let previous: number | null;
    try {
      previous = await this.db.transaction(async (m) => {
        // Locks the conversation row: a concurrent delete waits, and a concurrent attach is serialized.
        const scope = scopeWhere(me, 2);
        const [, found] = (await m.query(
          `UPDATE conversations c SET "updatedAt" = now() WHERE c.conversation_id = $1 AND ${scope.sql}`,
          [conversationId, ...scope.params],
        )) as [unknown, number];
        if (!found) throw conversationNotFound();
        const [old] = (await m.query(`SELECT file_id FROM conversation_files WHERE conversation_id = $1`, [
          conversationId,
        ])) as { file_id: number }[];
        await m.query(
          `INSERT INTO conversation_files (conversation_id, file_id, extracted_text) VALUES ($1, $2, $3)
           ON CONFLICT (conversation_id)
           DO UPDATE SET file_id = EXCLUDED.file_id, extracted_text = EXCLUDED.extracted_text, "createdAt" = now()`,
          [conversationId, stored.file_id, text],
        );
        return old?.file_id ?? null;
      });
    } catch (err) {
      await this.discardFile(me.user_id, stored.file_id);
      throw err;
    }
    if (previous !== null && previous !== stored.file_id) await this.discardFile(me.user_id, previous);
    return this.get(me, conversationId);
  }

  /** DELETE /conversations/file/{id}: detaches the file and deletes it; nothing attached is not an error. */
  async removeFile(me: Principal, conversationId: number): Promise<ConversationDto> {
    await this.get(me, conversationId);
    const [rows] = (await this.db.query(
      `DELETE FROM conversation_files WHERE conversation_id = $1 RETURNING file_id`,
      [conversationId],
    )) as [{ file_id: number }[], number];
    if (rows[0]) {
      await this.db.query(`UPDATE conversations SET "updatedAt" = now() WHERE conversation_id = $1`, [
        conversationId,
      ]);
      await this.discardFile(me.user_id, rows[0].file_id);
    }
    return this.get(me, conversationId);
  }

  /**
   * The conversation's attachment for the prompt builder: the document's text (cut to its token budget), the
   * image as a data URL, or only its name when the model cannot see images. Null when nothing is attached.
   * The caller (a running generation) has already checked that the conversation is the user's; `model` is the
   * one the message is sent with.
   */
  async attachmentContext(conversationId: number, model: string | null): Promise<PromptAttachment | null> {
    const [row] = (await this.db.query(
      `SELECT f.file_id, f.user_id, f.name, f.type, cf.extracted_text
         FROM conversation_files cf JOIN files f ON f.file_id = cf.file_id
        WHERE cf.conversation_id = $1`,
      [conversationId],
    )) as {
      file_id: number;
      user_id: number;
      name: string;
      type: string;
      extracted_text: string | null;
    }[];
    if (!row) return null;
    if (row.extracted_text !== null)
      return { kind: 'text', name: row.name, text: attachmentExcerpt(row.extracted_text) };
    // The message may go to a model that cannot see images (chosen for it, or the conversation's changed since).
    if (!supportsVision(await this.modelOf(model))) {
      return { kind: 'unseen_image', name: row.name };
    }
    let data: Buffer;
    try {
      data = await this.files.readBytes(await this.files.findOwned(row.user_id, row.file_id));
    } catch (err) {
      this.logger.warn(
        `Attachment ${row.file_id} of conversation ${conversationId} unreadable: ${String(err)}`,
      );
      return null;
    }
    const mime = row.type.split(';')[0].trim();
    return { kind: 'image', name: row.name, dataUrl: `data:${mime};base64,${data.toString('base64')}` };
  }

  private async modelOf(model: string | null): Promise<string> {
    return resolveModel(model, await this.appConfig.get('openai_model'));
  }

  private async checkVision(model: string | null): Promise<void> {
    if (!supportsVision(await this.modelOf(model))) {
      throw badInput(
        'Images need a model that can see images (for example gpt-4o-mini).',
        'image_needs_vision_model',
      );
    }
  }

  private async readText(data: Buffer, type: DetectedType): Promise<{ text: string; data: Buffer }> {
    let read: { text: string; data: Buffer };
    try {
      read = await extractTextKeepingBytes(this.workers, data, type.kind, {
        maxChars: MAX_STORED_TEXT_CHARS,
        handOver: true,
      });
    } catch (err) {
      if (!(err instanceof TextExtractionFailed)) throw err;
      throw badInput(
        'This file could not be read. It may be damaged or protected by a password.',
        'unreadable_file',
      );
    }
    if (!read.text) throw badInput('No text could be read from this file.', 'no_text_in_file');
    return read;
  }

  /** Deletes a stored attachment; already gone (the user deleted it in Files) is fine. */
  private async discardFile(userId: number, fileId: number): Promise<void> {
    try {
      await this.files.remove(userId, fileId);
    } catch (err) {
      if (!(err instanceof DomainError && err.status === 404)) throw err;
    }
  }

  /** Mirrors the comma string into conversation_tags, in the same transaction as the conversation's save. */
  private async writeTags(m: EntityManager, conversationId: number, tags: string[], replace = false) {
    if (replace) await m.query(`DELETE FROM conversation_tags WHERE conversation_id = $1`, [conversationId]);
    if (tags.length)
      await m.query(`INSERT INTO conversation_tags (conversation_id, tag) SELECT $1, unnest($2::varchar[])`, [
        conversationId,
        tags,
      ]);
  }
}
