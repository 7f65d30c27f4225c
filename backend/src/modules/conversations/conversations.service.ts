import { cancelKeys } from '../generation/generation-bus';
import { GenerationService } from '../generation/generation.service';
import { Injectable, Logger, Optional } from '@nestjs/common';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { scopeOf } from '../../common/database/owner-scope';
import { AccessPolicy } from '../organizations/access-policy';
import { UnitOfWork, type StatementRead } from '../../database/unit-of-work';
import { WorkerPool } from '../../common/workers/worker-pool';
import type { Principal } from '../../common/auth/principal';
import {
  badInput,
  DomainError,
  notFound,
  preconditionFailed,
  tooLarge,
} from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { resolveModel, supportsVision } from '../ai/ai.models';
import { AppConfigService } from '../app-config/app-config.service';
import { detectFileType, nameContradictsContent, type DetectedType } from '../files/file-type';
import { FilesService, type FileSummary } from '../files/files.service';
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
import { normalizeModel, normalizeTags } from './conversation-rules';
import type { Conversation, ConversationFile } from './conversation.entity';
import {
  ConversationsRepository,
  type AvatarUsageRow,
  type ConversationChanges,
} from './conversations.repository';
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

const conversationNotFound = () => notFound('Conversation', 'conversation_not_found');

/** Conversations a deletion removed, for the work done once its transaction committed (removeDeleted). */
/** A conversation's attached file as read with it (null: nothing attached); opaque to other modules. */
export type AttachedFile = Pick<ConversationFile, 'file_id' | 'extracted_text'> | null;

export interface RemovedConversations {
  user_id: number;
  removed: { conversation_id: number; file_id: number | null }[];
}

/**
 * Conversations belong to their creator and to the scope they were created in (fixed then). Every read and
 * change filters by both, so another user's conversation, or the caller's own seen from another scope, is 404.
 */
@Injectable()
export class ConversationsService {
  private readonly logger = new Logger('Conversations');

  constructor(
    private readonly repository: ConversationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly files: FilesService,
    private readonly appConfig: AppConfigService,
    private readonly workers: WorkerPool,
    private readonly words: WordsService,
    private readonly access: AccessPolicy,
    /** Stops the generations of a deleted conversation (on every instance); optional outside the full app. */
    @Optional() private readonly generation?: GenerationService,
  ) {}

  async list(me: Principal, query: ConversationListQuery): Promise<ConversationPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(
      scopeOf(me),
      {
        name: text ? likePattern(text) : null,
        archived: query.archived ? query.archived === 'true' : undefined,
        tags: normalizeTags(query.tags),
      },
      query.sortBy ?? 'createdAt_desc',
      page,
    );
    return { conversations: await this.withFiles(rows), total, page: page.page, limit: page.limit };
  }

  async tags(me: Principal, query: ConversationTagsQuery): Promise<ConversationTagsResponse> {
    const tags = await this.repository.tagCounts(
      scopeOf(me),
      query.archived ? query.archived === 'true' : undefined,
    );
    return { tags, total: tags.length };
  }

  async get(me: Principal, conversationId: number): Promise<ConversationDto> {
    const [dto] = await this.withFiles([await this.owned(me, conversationId)]);
    return dto;
  }

  /** The caller's conversation in the current scope without its attachment (a message's checks), else 404. */
  async owned(me: Principal, conversationId: number): Promise<Conversation> {
    const row = await this.repository.findOwned(scopeOf(me), conversationId);
    if (!row) throw conversationNotFound();
    return row;
  }

  /**
   * The caller's conversation (404 otherwise) and what is attached to it, as a read for the transaction that
   * admits a message to run in its opening round trip: pass `attachment` to `attachmentContext` to build the
   * prompt's attachment without reading it again.
   */
  ownedWithAttachmentRead(
    me: Principal,
    conversationId: number,
  ): StatementRead<{ conversation: Conversation; attachment: AttachedFile }> {
    return {
      statement: this.repository.ownedWithFileStatement(scopeOf(me), conversationId),
      read: (rows) => {
        const found = this.repository.toOwnedWithFile(rows);
        if (!found) throw conversationNotFound();
        return { conversation: found.conversation, attachment: found.file };
      },
    };
  }

  /** The caller's thread with an avatar in the current scope, or null before its first message. */
  async findAvatarThread(me: Principal, avatarId: number): Promise<ConversationDto | null> {
    const row = await this.repository.findThread(scopeOf(me), avatarId);
    return row ? toDto(row, null) : null;
  }

  /** The caller's thread with an avatar in the current scope, made on its first message. */
  async avatarThread(me: Principal, avatarId: number, name: string): Promise<ConversationDto> {
    const found = await this.findAvatarThread(me, avatarId);
    if (found) return found;
    await this.repository.insertThread({
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      name: name.slice(0, 200),
      model: null,
      tags: '',
      avatar_id: avatarId,
      thread_avatar_id: avatarId,
    });
    const made = await this.findAvatarThread(me, avatarId);
    if (!made) throw conversationNotFound();
    return made;
  }

  /**
   * Users without access (no words left and no subscription) cannot start more conversations, as they cannot
   * send; staff use the product without buying words. 412 no_access, with the sentence a send answers.
   */
  async checkAccess(me: Principal): Promise<void> {
    if (!this.access.permits(me, 'words.unmetered') && !(await this.words.hasAccess(me.user_id)))
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
    const row = await this.unitOfWork.run((m) =>
      this.repository.insert(
        {
          user_id: me.user_id,
          organization_id: me.org?.organization_id ?? null,
          name: body.name,
          model: normalizeModel(body.model) ?? null,
          tags: tags.join(','),
          avatar_id: body.avatar_id ?? null,
        },
        tags,
        m,
      ),
    );
    return toDto(row, null);
  }

  async update(me: Principal, body: UpdateConversationBody): Promise<ConversationDto> {
    const changes: ConversationChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    const model = normalizeModel(body.model);
    if (model !== undefined) changes.model = model;
    // undefined leaves the tags alone; null or '' clears them.
    const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
    if (tags) changes.tags = tags.join(',');
    if (body.archived !== undefined) changes.archived = body.archived;
    // Like a new conversation's avatar: kept as given, used by messages only while the caller may see it.
    if (body.avatar_id !== undefined) changes.avatar_id = body.avatar_id;
    const row = await this.unitOfWork.run((m) =>
      this.repository.update(scopeOf(me), body.conversation_id, changes, tags, m),
    );
    if (!row) throw conversationNotFound();
    const [dto] = await this.withFiles([row]);
    return dto;
  }

  async remove(me: Principal, conversationId: number): Promise<void> {
    const removed = await this.unitOfWork.run((m) => this.removeMany(me, [conversationId], m));
    if (!removed.removed.length) throw conversationNotFound();
    await this.removeDeleted(removed);
  }

  /**
   * Deletes those of `ids` that are the caller's in the scope (with their messages and attachment rows) in the
   * caller's transaction; once it commits, call removeDeleted to stop their generations and delete their files.
   */
  async removeMany(me: Principal, ids: number[], m: EntityManager): Promise<RemovedConversations> {
    return { user_id: me.user_id, removed: await this.repository.deleteOwned(scopeOf(me), ids, m) };
  }

  /** After a deletion committed: stops the conversations' generations and deletes their attached files. */
  async removeDeleted({ user_id, removed }: RemovedConversations): Promise<void> {
    for (const { conversation_id } of removed)
      this.generation?.cancel(cancelKeys.conversation(conversation_id));
    for (const { file_id } of removed) if (file_id) await this.discardFile(user_id, file_id);
  }

  /** "Last Used" on the conversation list sorts by updatedAt: a new message touches it, in its transaction. */
  async touch(conversationId: number, m?: EntityManager): Promise<void> {
    await this.repository.touch(conversationId, m);
  }

  /** `touch` as a statement for another module's statement to run as one of its parts (see the repository). */
  touchStatement(idParam: string): string {
    return this.repository.touchStatement(idParam);
  }

  /**
   * The ids of the caller's conversations in the current scope, as a subquery with its parameters, for the
   * messages module to list the scope's messages in one query.
   */
  scopeSubquery(me: Principal): { sql: string; parameters: ObjectLiteral } {
    return this.repository.scopeSubquery(scopeOf(me));
  }

  /** The conversation rows with their attached file's name, type and size. */
  private async withFiles(rows: Conversation[]): Promise<ConversationDto[]> {
    const attached = await this.repository.filesOf(rows.map((r) => r.conversation_id));
    const summaries = await this.files.summaries(attached.map((a) => a.file_id));
    return rows.map((row) => {
      const fileId = attached.find((a) => a.conversation_id === row.conversation_id)?.file_id;
      return toDto(row, (fileId !== undefined && summaries.get(fileId)) || null);
    });
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
      previous = await this.unitOfWork.run(async (m) => {
        // Locks the conversation row: a concurrent delete waits, and a concurrent attach is serialized.
        if (!(await this.repository.findOwned(scopeOf(me), conversationId, m, true)))
          throw conversationNotFound();
        await this.repository.touch(conversationId, m);
        const old = await this.repository.fileOf(conversationId, m);
        await this.repository.upsertFile(m, conversationId, stored.file_id, text);
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
    const fileId = await this.repository.deleteFile(conversationId);
    if (fileId !== null) {
      await this.repository.touch(conversationId);
      await this.discardFile(me.user_id, fileId);
    }
    return this.get(me, conversationId);
  }

  /**
   * The conversation's attachment for the prompt builder: the document's text (cut to its token budget), the
   * image as a data URL, or only its name when the model cannot see images. Null when nothing is attached.
   * The caller (a running generation) has already checked that the conversation is the user's; `model` is the
   * one the message is sent with.
   */
  async attachmentContext(
    conversationId: number,
    model: string | null,
    read?: AttachedFile,
  ): Promise<PromptAttachment | null> {
    const attached = read !== undefined ? read : await this.repository.fileOf(conversationId);
    const file = attached && (await this.files.findById(attached.file_id));
    if (!attached || !file) return null;
    if (attached.extracted_text !== null)
      return { kind: 'text', name: file.name, text: attachmentExcerpt(attached.extracted_text) };
    // The message may go to a model that cannot see images (chosen for it, or the conversation's changed since).
    if (!supportsVision(await this.modelOf(model))) {
      return { kind: 'unseen_image', name: file.name };
    }
    let data: Buffer;
    try {
      data = await this.files.readBytes(file);
    } catch (err) {
      this.logger.warn(
        `Attachment ${file.file_id} of conversation ${conversationId} unreadable: ${String(err)}`,
      );
      return null;
    }
    const mime = file.type.split(';')[0].trim();
    return { kind: 'image', name: file.name, dataUrl: `data:${mime};base64,${data.toString('base64')}` };
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

  /**
   * Per avatar: conversations opened with it in the range and their users, the `limit` most used, and the
   * conversations with any avatar in the range (the analytics `instructors`).
   */
  avatarUsage(
    range: { from: Date; to: Date },
    limit: number,
  ): Promise<{ conversations: number; rows: AvatarUsageRow[] }> {
    return this.repository.avatarUsage(range, limit);
  }
}

function toDto(row: Conversation, file: FileSummary | null): ConversationDto {
  return { ...row, file };
}
