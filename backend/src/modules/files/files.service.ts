import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { badInput, notFound, tooLarge, unsupportedMedia } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { APP_ENV, AppEnv } from '../../config/env';
import type { CreateFileDto, FileDto, FileListQuery, FileListResponse } from './dto/files.dto';
import type { StoredFile } from './file.entity';
import { FilesRepository } from './files.repository';
import { ALL_KINDS, DetectedType, detectFileType, FileKind, nameContradictsContent } from './file-type';
import { StorageResolver } from './storage/storage.resolver';
import { ByteRange, STORAGE_KEY, StorageNotFound } from './storage/storage';
import { FILE_TOO_LARGE, UploadedBlob } from './upload.interceptor';

export const TYPE_NOT_ALLOWED = 'This file type is not allowed.';
export const CONTENT_PATH = '/api/files/content/';
const LIST_PAGE_SIZE = 50;

/** What another module shows of a stored file. */
export interface FileSummary {
  file_id: number;
  name: string;
  type: string;
  size: number;
}

/** What the content route needs to answer. */
export interface FileContent {
  status: 200 | 206;
  headers: Record<string, string>;
  stream: Readable;
}

/**
 * Users' files. The type comes from the bytes, storage keys are random and made here, images and videos are
 * public by src (so <img>/<video> work, also on other sites), everything else only for its owner.
 * Other modules store their uploads through `store` and read them back with `readBytes`.
 */
@Injectable()
export class FilesService {
  private readonly logger = new Logger('Files');

  constructor(
    private readonly files: FilesRepository,
    private readonly storage: StorageResolver,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /** POST /files: a multipart `file`, or JSON `{ name, content }` making a text file. */
  async create(userId: number, upload: UploadedBlob | undefined, body: CreateFileDto): Promise<FileDto> {
    if (upload) return toDto(await this.store(userId, body.name || upload.originalname, upload.buffer));
    if (body.content === undefined) {
      throw badInput('Send a file in the form field "file", or JSON with name and content.', 'file_required');
    }
    const data = Buffer.from(body.content, 'utf8');
    return toDto(await this.store(userId, body.name || 'Untitled.txt', data, ['text']));
  }

  /**
   * Stores bytes as a new file of the user. Refuses (415) anything whose content is not one of `kinds`,
   * and (413) anything above MAX_UPLOAD_BYTES.
   */
  async store(
    userId: number,
    name: string,
    data: Buffer,
    kinds: readonly FileKind[] = ALL_KINDS,
  ): Promise<StoredFile> {
    const type = this.check(data, kinds, name);
    const key = newStorageKey(type);
    await (await this.storage.current()).put(key, data, type.mime);
    try {
      return await this.files.insert({
        user_id: userId,
        name: cleanName(name, type),
        type: type.mime,
        size: data.length,
        storage_key: key,
        public: isPublicKind(type.kind),
      });
    } catch (err) {
      await this.storage.remove(key);
      throw err;
    }
  }

  async list(userId: number, query: FileListQuery): Promise<FileListResponse> {
    const page = toPage(query, LIST_PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.files.page(userId, text ? likePattern(text) : null, page);
    return { files: rows.map(toDto), total, page: page.page, limit: page.limit };
  }

  async get(userId: number, fileId: number): Promise<FileDto> {
    return toDto(await this.findOwned(userId, fileId));
  }

  /** The user's own file, or 404 (another user's file is indistinguishable from a missing one). */
  async findOwned(userId: number, fileId: number): Promise<StoredFile> {
    const file = await this.files.findOwned(userId, fileId);
    if (!file) throw notFound('File');
    return file;
  }

  /** PUT /files/{id}: rename (`name`), replace the content (multipart `file`), or both. */
  async update(
    userId: number,
    fileId: number,
    upload: UploadedBlob | undefined,
    name: string | undefined,
  ): Promise<FileDto> {
    const file = await this.findOwned(userId, fileId);
    if (!upload && name === undefined) {
      throw badInput('Send a new name, or a new file in the form field "file".', 'nothing_to_update');
    }
    let oldKey: string | null = null;
    if (upload) {
      const type = this.check(upload.buffer, ALL_KINDS, upload.originalname);
      // A new key per content: src changes, so nothing cached under the old one is served stale.
      const key = newStorageKey(type);
      await (await this.storage.current()).put(key, upload.buffer, type.mime);
      oldKey = file.storage_key;
      Object.assign(file, {
        storage_key: key,
        type: type.mime,
        size: upload.buffer.length,
        public: isPublicKind(type.kind),
      });
    }
    if (name !== undefined) file.name = cleanName(name, null);
    try {
      await this.files.save(file);
    } catch (err) {
      if (oldKey) await this.storage.remove(file.storage_key);
      throw err;
    }
    if (oldKey) await this.storage.remove(oldKey);
    return toDto(file);
  }

  async remove(userId: number, fileId: number): Promise<FileDto> {
    const file = await this.findOwned(userId, fileId);
    await this.files.delete(file.file_id);
    await this.storage.remove(file.storage_key);
    return toDto(file);
  }

  /** A stored file whatever its owner, for the module holding it (e.g. a conversation's attachment). */
  findById(fileId: number): Promise<StoredFile | null> {
    return this.files.findById(fileId);
  }

  /** Name, type and size of the given files (any owner), for modules that show what they hold. */
  async summaries(fileIds: number[]): Promise<Map<number, FileSummary>> {
    const rows = await this.files.findByIds([...new Set(fileIds)]);
    return new Map(
      rows.map((f) => [f.file_id, { file_id: f.file_id, name: f.name, type: f.type, size: f.size }]),
    );
  }

  /** The storage keys of every file of a user, read in the caller's transaction (deleting the account). */
  async storageKeysOf(userId: number, tx: EntityManager): Promise<string[]> {
    return this.files.storageKeysOf(userId, tx);
  }

  /** Removes stored bytes whose rows are gone (a deleted account's files); a failure is logged, never thrown. */
  async removeStoredBytes(keys: string[]): Promise<void> {
    for (const key of keys) await this.storage.remove(key);
  }

  /** The whole content of a file (for modules that process uploads, e.g. text extraction). */
  async readBytes(file: StoredFile): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.read(file.storage_key)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  /**
   * GET /files/content/{key}: public files for anyone, private ones for their owner only (404 otherwise).
   * Honours one `Range` so videos can seek; an unusable range is ignored (the whole file is sent).
   */
  async content(storageKey: string, callerId: number | null, rangeHeader?: string): Promise<FileContent> {
    if (!STORAGE_KEY.test(storageKey)) throw notFound('File');
    const file = await this.files.findByStorageKey(storageKey);
    if (!file || (!file.public && file.user_id !== callerId)) throw notFound('File');
    const range = parseRange(rangeHeader, file.size);
    let stream: Readable;
    try {
      stream = await this.storage.read(file.storage_key, range ?? undefined);
    } catch (err) {
      if (err instanceof StorageNotFound) {
        this.logger.warn(`File ${file.file_id} has no bytes in storage (${file.storage_key})`);
        throw notFound('File');
      }
      throw err;
    }
    const inline = file.public;
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
      'Accept-Ranges': 'bytes',
      'Content-Length': String(range ? range.end - range.start + 1 : file.size),
      // Content never changes under a key (replacing makes a new key), so public files cache for good.
      'Cache-Control': inline ? 'public, max-age=31536000, immutable' : 'private, no-store',
      // Public media may be shown by other sites (the chat widget); private files stay same-origin.
      'Cross-Origin-Resource-Policy': inline ? 'cross-origin' : 'same-origin',
    };
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
    return { status: range ? 206 : 200, headers, stream };
  }

  private check(data: Buffer, kinds: readonly FileKind[], name: string): DetectedType {
    if (data.length > this.env.maxUploadBytes) throw tooLarge(FILE_TOO_LARGE);
    const type = detectFileType(data);
    if (!type || !kinds.includes(type.kind) || nameContradictsContent(name, type)) {
      throw unsupportedMedia(TYPE_NOT_ALLOWED, 'unsupported_type');
    }
    return type;
  }
}

export function toDto(file: StoredFile): FileDto {
  return {
    file_id: file.file_id,
    src: CONTENT_PATH + file.storage_key,
    name: file.name,
    type: file.type,
    size: file.size,
    public: file.public,
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
  };
}

function isPublicKind(kind: FileKind): boolean {
  return kind === 'image' || kind === 'video';
}

function newStorageKey(type: DetectedType): string {
  return `${randomBytes(24).toString('hex')}.${type.ext}`;
}

/** A display name: no path, no control characters, at most 255 characters, never empty. */
export function cleanName(name: string, type: DetectedType | null): string {
  const base = name
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (base || (type ? `file.${type.ext}` : 'file')).slice(0, 255);
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within the file; anything else means "whole file". */
export function parseRange(header: string | undefined, size: number): ByteRange | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || size === 0 || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/** RFC 6266 with an ASCII fallback, so any name is safe in the header. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
