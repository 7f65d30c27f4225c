import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import {
  badInput,
  DomainError,
  forbidden,
  notFound,
  preconditionFailed,
} from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AvatarKnowledge } from '../generation/prompt-builder';
import { FilesService } from '../files/files.service';
import type { UploadedBlob } from '../files/upload.interceptor';
import { WordsService } from '../words/words.service';
import { AvatarFile } from './avatar-file.entity';
import { AvatarKnowledgeService } from './avatar-knowledge.service';
import {
  AVATAR_FILE_KINDS,
  AVATAR_NAME_REQUIRED,
  INPUT_EMPTY,
  combinedContext,
  DEFAULT_AVATAR_NAME,
  MAX_AVATAR_CONTEXT,
  MAX_EDITABLE_FILE_CHARS,
  MAX_FILES_PER_AVATAR,
  PREMIUM_FEATURE,
} from './avatar-rules';
import { Avatar } from './avatar.entity';
import { AvatarsRepository, AvatarViewer, type AvatarSummary } from './avatars.repository';
import type {
  AddContextBody,
  AvatarDto,
  AvatarFileDto,
  AvatarListQuery,
  AvatarPageResponse,
  CreateAvatarBody,
  EditableFileBody,
  UpdateAvatarBody,
  UpdateEditableFileBody,
} from './dto/avatar.dto';

const PAGE_SIZE = 24;
const TEXT_MIME = 'text/plain; charset=utf-8';

const avatarNotFound = () => notFound('Avatar', 'avatar_not_found');
const fileNotFound = () => notFound('Avatar file', 'avatar_file_not_found');
const isAdmin = (me: Principal) => me.staffRole === 'admin';

/**
 * Avatars: a name, a context (its owner's instruction) and knowledge files. Visible to their owner in the scope
 * they were made in, to the members of that organization, to everyone when public, and to staff admins; changed
 * by their owner or a staff admin; made public by staff admins only. Anything not visible is 404.
 */
@Injectable()
export class AvatarsService {
  constructor(
    private readonly repo: AvatarsRepository,
    private readonly knowledge: AvatarKnowledgeService,
    private readonly files: FilesService,
    private readonly words: WordsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  private newKey(): string {
    return `asst_${randomBytes(12).toString('hex')}`;
  }

  private viewer(me: Principal): AvatarViewer {
    return { user_id: me.user_id, organization_id: me.org?.organization_id ?? 0, admin: isAdmin(me) };
  }

  private canManage(me: Principal, avatar: Avatar): boolean {
    return isAdmin(me) || avatar.user_id === me.user_id;
  }

  /** Creating and feeding avatars is for users with access (staff exempt): 412 with the premium sentence. */
  private async checkPremium(me: Principal): Promise<void> {
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(PREMIUM_FEATURE, 'no_access');
  }

  /** An avatar the caller may see (else 404). */
  async visible(me: Principal, avatarId: number): Promise<Avatar> {
    const avatar = await this.repo.findVisible(this.viewer(me), avatarId);
    if (!avatar) throw avatarNotFound();
    return avatar;
  }

  /** An avatar the caller may change: 404 when not visible, 403 when visible but another's. */
  private async managed(me: Principal, avatarId: number): Promise<Avatar> {
    const avatar = await this.visible(me, avatarId);
    if (!this.canManage(me, avatar))
      throw forbidden('Only the owner of this avatar or an admin can change it.', 'forbidden');
    return avatar;
  }

  async list(me: Principal, query: AvatarListQuery): Promise<AvatarPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repo.listMine(this.viewer(me), { query: query.query }, page);
    return { avatars: await this.toDtos(me, rows), total, page: page.page, limit: page.limit };
  }

  async listPublic(me: Principal, query: AvatarListQuery): Promise<AvatarPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repo.listPublic({ query: query.query }, page);
    return { avatars: await this.toDtos(me, rows), total, page: page.page, limit: page.limit };
  }

  /** The caller's Super Fetch assistants in the scope. */
  async superFetch(me: Principal): Promise<AvatarPageResponse> {
    const page = toPage({}, PAGE_SIZE);
    const { rows, total } = await this.repo.listMine(this.viewer(me), { super_fetch: true }, page);
    return { avatars: await this.toDtos(me, rows), total, page: page.page, limit: page.limit };
  }

  async get(me: Principal, avatarId: number): Promise<AvatarDto> {
    return (await this.toDtos(me, [await this.visible(me, avatarId)]))[0];
  }

  async create(me: Principal, body: CreateAvatarBody): Promise<AvatarDto> {
    await this.checkPremium(me);
    if (!body.name?.trim()) throw badInput(AVATAR_NAME_REQUIRED, 'avatar_name_required');
    if (body.public && !isAdmin(me))
      throw forbidden('Only admins can make an avatar public.', 'avatar_public_admin_only');
    const avatar = await this.repo.insert({
      assistant_id: this.newKey(),
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      name: body.name.trim(),
      description: body.description ?? '',
      context: body.context ?? '',
      public: body.public ?? false,
      super_fetch_assistant: body.super_fetch_assistant ?? false,
    });
    return this.get(me, avatar.avatar_id);
  }

  async update(me: Principal, body: UpdateAvatarBody): Promise<AvatarDto> {
    const avatar = await this.managed(me, body.avatar_id);
    if (body.public !== undefined && body.public !== avatar.public && !isAdmin(me))
      throw forbidden('Only admins can make an avatar public.', 'avatar_public_admin_only');
    if (body.name !== undefined) avatar.name = body.name.trim();
    if (body.description !== undefined) avatar.description = body.description;
    if (body.context !== undefined) avatar.context = body.context;
    if (body.public !== undefined) avatar.public = body.public;
    if (body.super_fetch_assistant !== undefined) avatar.super_fetch_assistant = body.super_fetch_assistant;
    await this.repo.save(avatar);
    return this.get(me, avatar.avatar_id);
  }

  /** PUT /avatars/add-context/{id}: the context must not be empty. */
  async addContext(me: Principal, avatarId: number, body: AddContextBody): Promise<AvatarDto> {
    const avatar = await this.managed(me, avatarId);
    if (!body.context?.trim()) throw badInput(INPUT_EMPTY, 'avatar_context_empty');
    avatar.context = body.context;
    if (body.name !== undefined) avatar.name = body.name.trim();
    await this.repo.save(avatar);
    return this.get(me, avatarId);
  }

  async remove(me: Principal, avatarId: number): Promise<void> {
    const avatar = await this.managed(me, avatarId);
    const files = await this.repo.filesOf([avatarId]);
    await this.repo.remove(avatarId);
    for (const file of files) if (file.file_id) await this.dropStored(avatar, file.file_id);
  }

  /** Creating and feeding avatars needs access (staff exempt): 412 with the premium sentence. */
  async requirePremium(me: Principal): Promise<void> {
    await this.checkPremium(me);
  }

  /** Replaces an avatar's context in `m` (a refinement's settle transaction); false when it was deleted. */
  async replaceContextIn(m: EntityManager, avatarId: number, context: string): Promise<boolean> {
    return this.repo.setContextIn(m, avatarId, context.trim().slice(0, MAX_AVATAR_CONTEXT));
  }

  /**
   * A new avatar of the caller's, in the current scope, holding both avatars' contexts, a style guide and copies
   * of both avatars' files with their passages (no indexing again). The callers check both may be changed.
   */
  async combine(
    me: Principal,
    selected: Avatar,
    target: Avatar,
    name: string,
    styleGuide: string,
  ): Promise<AvatarDto> {
    if (!name.trim()) throw badInput(AVATAR_NAME_REQUIRED, 'avatar_name_required');
    const sources = await this.repo.filesOf([selected.avatar_id, target.avatar_id]);
    if (sources.length > MAX_FILES_PER_AVATAR)
      throw badInput(
        `An avatar can hold at most ${MAX_FILES_PER_AVATAR} files; these two hold ${sources.length}.`,
        'avatar_file_limit',
      );
    // Uploads are copied first (storage is outside the transaction) and removed again if the rows are not saved.
    const copies = new Map<number, number>();
    try {
      for (const file of sources) {
        if (!file.file_id) continue;
        const stored = await this.files.findById(file.file_id);
        if (!stored) continue;
        const bytes = await this.files.readBytes(stored);
        const copy = await this.files.store(me.user_id, stored.name, bytes);
        copies.set(file.avatar_file_id, copy.file_id);
      }
      const { avatar, pending } = await this.unitOfWork.run(async (m) => {
        const made = await this.repo.insertIn(m, {
          assistant_id: this.newKey(),
          user_id: me.user_id,
          organization_id: me.org?.organization_id ?? null,
          name: name.trim().slice(0, 255),
          description: `${selected.name} + ${target.name}`.slice(0, 2_000),
          context: combinedContext(selected.context, target.context, styleGuide),
          public: false,
          super_fetch_assistant: false,
        });
        const waiting: number[] = [];
        for (const file of sources) {
          const copy = await this.repo.copyFileIn(
            m,
            file,
            made.avatar_id,
            copies.get(file.avatar_file_id) ?? null,
          );
          if (copy.index_state !== 'ready') waiting.push(copy.avatar_file_id);
        }
        return { avatar: made, pending: waiting };
      });
      // A file still being indexed in its source is indexed again for the copy (its passages are not all there).
      for (const id of pending) await this.knowledge.queue(id);
      return this.get(me, avatar.avatar_id);
    } catch (err) {
      for (const fileId of copies.values())
        await this.files.remove(me.user_id, fileId).catch(() => undefined);
      throw err;
    }
  }

  /** A new default avatar for the user (their Super Fetch assistant, in Personal), in `m`. */
  createDefaultIn(m: EntityManager, userId: number): Promise<Avatar> {
    return this.repo.insertIn(m, {
      assistant_id: this.newKey(),
      user_id: userId,
      organization_id: null,
      name: DEFAULT_AVATAR_NAME,
      description: '',
      context: '',
      public: false,
      super_fetch_assistant: true,
    });
  }

  /** Deletes a user's former default avatar with its files, threads and what it learned (when still theirs). */
  async removeDefault(userId: number, avatarId: number): Promise<void> {
    const previous = await this.repo.findById(avatarId);
    if (!previous || previous.user_id !== userId || !previous.super_fetch_assistant) return;
    const files = await this.repo.filesOf([avatarId]);
    await this.repo.remove(avatarId);
    for (const file of files) if (file.file_id) await this.dropStored(previous, file.file_id);
  }

  /** The avatar named by both path segments (its id and its assistant_id), for the caller to change. */
  private async managedByKeys(me: Principal, avatarId: number, assistantId: string): Promise<Avatar> {
    const avatar = await this.managed(me, avatarId);
    if (avatar.assistant_id !== assistantId) throw avatarNotFound();
    return avatar;
  }

  private async checkRoom(avatarId: number): Promise<void> {
    if ((await this.repo.countFiles(avatarId)) >= MAX_FILES_PER_AVATAR)
      throw badInput(`An avatar can hold at most ${MAX_FILES_PER_AVATAR} files.`, 'avatar_file_limit');
  }

  /** POST /avatars/add-file/{avatar_id}/{assistant_id}: a .docx, .pdf, .pptx or .txt (typed by content). */
  async addFile(
    me: Principal,
    avatarId: number,
    assistantId: string,
    upload: UploadedBlob | undefined,
    name: string | undefined,
  ): Promise<AvatarFileDto> {
    const avatar = await this.managedByKeys(me, avatarId, assistantId);
    await this.checkPremium(me);
    if (!upload) throw badInput('Send the file in the form field "file".', 'file_required');
    await this.checkRoom(avatarId);
    // Stored as the avatar owner's file (an admin may add it), refused by content unless one of the four kinds.
    const stored = await this.files.store(
      avatar.user_id,
      name || upload.originalname,
      upload.buffer,
      AVATAR_FILE_KINDS,
    );
    const file = await this.repo.insertFile({
      avatar_id: avatarId,
      file_id: stored.file_id,
      name: stored.name,
      type: stored.type,
      editable: false,
      content: null,
    });
    await this.knowledge.queue(file.avatar_file_id);
    return toFileDto({ ...file, index_state: 'pending' });
  }

  /** POST /avatars/add-editable-file/{avatar_id}/{assistant_id}: a .txt file whose text is edited in place. */
  async addEditableFile(
    me: Principal,
    avatarId: number,
    assistantId: string | null,
    body: EditableFileBody,
  ): Promise<AvatarFileDto> {
    const avatar =
      assistantId === null
        ? await this.managed(me, avatarId)
        : await this.managedByKeys(me, avatarId, assistantId);
    await this.checkPremium(me);
    await this.checkRoom(avatar.avatar_id);
    const file = await this.repo.insertFile({
      avatar_id: avatar.avatar_id,
      file_id: null,
      name: txtName(body.name),
      type: TEXT_MIME,
      editable: true,
      content: checkEditable(body.content),
    });
    await this.knowledge.queue(file.avatar_file_id);
    return toFileDto({ ...file, index_state: 'pending' });
  }

  /** PUT /avatars/editable-file/{file_id}: new text (and name), indexed again. */
  async updateEditableFile(
    me: Principal,
    avatarFileId: number,
    body: UpdateEditableFileBody,
  ): Promise<AvatarFileDto> {
    const file = await this.managedFile(me, avatarFileId);
    if (!file.editable) throw badInput('Only an editable text file can be edited.', 'bad_input');
    file.content = checkEditable(body.content);
    if (body.name !== undefined) file.name = txtName(body.name);
    const saved = await this.repo.saveFile(file);
    await this.knowledge.queue(file.avatar_file_id);
    return toFileDto({ ...saved, index_state: 'pending', index_error: null });
  }

  /** DELETE /avatars/file/{fileId}/{openaiFileId}/{assistantId}: every key must name the same file. */
  async removeFile(
    me: Principal,
    avatarFileId: number,
    openaiFileId: string,
    assistantId: string,
  ): Promise<void> {
    const file = await this.managedFile(me, avatarFileId);
    const avatar = (await this.repo.findById(file.avatar_id))!;
    if (openaiFileId !== String(file.avatar_file_id) || avatar.assistant_id !== assistantId)
      throw fileNotFound();
    await this.repo.removeFile(avatarFileId);
    if (file.file_id) await this.dropStored(avatar, file.file_id);
  }

  private async managedFile(me: Principal, avatarFileId: number): Promise<AvatarFile> {
    const file = await this.repo.findFile(avatarFileId);
    if (!file) throw fileNotFound();
    try {
      await this.managed(me, file.avatar_id);
    } catch (err) {
      // A file of an avatar the caller cannot see is as missing as one that does not exist.
      if (err instanceof DomainError && err.status === 404) throw fileNotFound();
      throw err;
    }
    return file;
  }

  private async dropStored(avatar: Avatar, fileId: number): Promise<void> {
    await this.files.remove(avatar.user_id, fileId).catch(() => undefined);
  }

  /** What a chat with the avatar needs: its context and the passages retrieved for `question`. */
  async knowledgeFor(
    avatarId: number,
    question: string,
    organization_id: number | null,
  ): Promise<AvatarKnowledge | null> {
    const avatar = await this.repo.findById(avatarId);
    if (!avatar) return null;
    return {
      context: avatar.context,
      passages: await this.knowledge.retrieve(avatarId, question, organization_id),
    };
  }

  /** The avatar's name (a chat widget shows whom the visitor talks to); null when it is gone. */
  async nameOf(avatarId: number): Promise<string | null> {
    return (await this.repo.findById(avatarId))?.name ?? null;
  }

  /** Names and owners of these avatars (deleted ones are absent), for the back office's analytics. */
  summaries(avatarIds: number[]): Promise<Map<number, AvatarSummary>> {
    return this.repo.summaries(avatarIds);
  }

  /** Avatars created in [from, to). */
  createdCount(range: { from: Date; to: Date }): Promise<number> {
    return this.repo.createdCount(range);
  }

  /** GET /avatars/{id}/passages: what the avatar would be given for a question. */
  async passages(me: Principal, avatarId: number, question: string) {
    await this.visible(me, avatarId);
    return { passages: await this.knowledge.retrieve(avatarId, question, me.org?.organization_id ?? null) };
  }

  /** An avatar the caller may change (404 when not visible, 403 when another's), for trainings and outputs. */
  async manageable(me: Principal, avatarId: number): Promise<Avatar> {
    return this.managed(me, avatarId);
  }

  /**
   * The avatar file that holds a training's dataset (`file_id`, a stored upload of the avatar's owner): the one
   * given when it still belongs to the avatar, else a new one. Its passages are written by `indexNow`.
   */
  async trainingFile(
    avatarId: number,
    fileId: number,
    name: string,
    existing: number | null,
  ): Promise<number> {
    if (existing) {
      const file = await this.repo.findFile(existing);
      if (file && file.avatar_id === avatarId) {
        if (file.file_id !== fileId || file.name !== name) {
          file.file_id = fileId;
          file.name = name.slice(0, 255);
          await this.repo.saveFile(file);
        }
        return file.avatar_file_id;
      }
    }
    await this.checkRoom(avatarId);
    const stored = await this.files.findById(fileId);
    if (!stored) throw badInput('The dataset file is no longer stored.', 'training_file_missing');
    const file = await this.repo.insertFile({
      avatar_id: avatarId,
      file_id: fileId,
      name: name.slice(0, 255),
      type: stored.type,
      editable: false,
      content: null,
    });
    return file.avatar_file_id;
  }

  /** Indexes an avatar file now, in the caller's job (a training's), instead of queueing it. */
  async indexNow(avatarFileId: number): Promise<AvatarFileDto | null> {
    await this.knowledge.index(avatarFileId);
    const file = await this.repo.findFile(avatarFileId);
    return file ? toFileDto(file) : null;
  }

  private async toDtos(me: Principal, avatars: Avatar[]): Promise<AvatarDto[]> {
    const files = await this.repo.filesOf(avatars.map((a) => a.avatar_id));
    return avatars.map((a) => ({
      avatar_id: a.avatar_id,
      assistant_id: a.assistant_id,
      name: a.name,
      description: a.description,
      context: a.context,
      user_id: a.user_id,
      organization_id: a.organization_id,
      public: a.public,
      super_fetch_assistant: a.super_fetch_assistant,
      can_manage: this.canManage(me, a),
      avatar_files: files.filter((f) => f.avatar_id === a.avatar_id).map(toFileDto),
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
    }));
  }
}

function toFileDto(f: AvatarFile): AvatarFileDto {
  return {
    avatar_file_id: f.avatar_file_id,
    file_data: { name: f.name, file_id: f.file_id, type: f.type },
    openai_file_id: String(f.avatar_file_id),
    editable: f.editable,
    content: f.editable ? f.content : null,
    index_state: f.index_state,
    index_error: f.index_error,
    chunks: f.chunks,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

/** An editable file's name ends in .txt. */
function txtName(name: string): string {
  const clean = name.trim().replace(/[/\\]/g, '_');
  return (clean.toLowerCase().endsWith('.txt') ? clean : `${clean}.txt`).slice(0, 255);
}

function checkEditable(content: string): string {
  if (!content.trim()) throw badInput(INPUT_EMPTY, 'bad_input');
  if (content.length > MAX_EDITABLE_FILE_CHARS)
    throw badInput('The file length is too large, please remove text to save', 'too_large');
  return content;
}
