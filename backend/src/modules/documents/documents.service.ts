import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { scopeOf } from '../../common/database/owner-scope';
import { badInput, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { DOCUMENT_TOO_LARGE, MAX_DOCUMENT_CONTENT, MAX_DOCUMENT_NAME } from './document-rules';
import type {
  CreateDocumentBody,
  DocumentDto,
  DocumentListQuery,
  DocumentPageResponse,
  UpdateDocumentBody,
} from './dto/document.dto';
import { DocumentsRepository, type DocumentChanges } from './documents.repository';

const PAGE_SIZE = 20;

const documentNotFound = () => notFound('Document', 'document_not_found');

/**
 * Documents belong to their creator and to the scope they were created in. Every read and change filters by
 * both, so another user's document, or the caller's own seen from another scope, is 404.
 */
@Injectable()
export class DocumentsService {
  constructor(private readonly repository: DocumentsRepository) {}

  async list(me: Principal, query: DocumentListQuery): Promise<DocumentPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(scopeOf(me), text ? likePattern(text) : null, page);
    return { documents: rows, total, page: page.page, limit: page.limit };
  }

  async get(me: Principal, documentId: number): Promise<DocumentDto> {
    const row = await this.repository.findOwned(scopeOf(me), documentId);
    if (!row) throw documentNotFound();
    return row;
  }

  /** Also used by other modules (a shared message becomes a document), so the limits are checked here too. */
  async create(me: Principal, body: CreateDocumentBody): Promise<DocumentDto> {
    const content = body.content ?? '';
    checkContent(content);
    return this.repository.insert({
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      name: body.name.slice(0, MAX_DOCUMENT_NAME),
      content,
    });
  }

  async update(me: Principal, body: UpdateDocumentBody): Promise<DocumentDto> {
    const changes: DocumentChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.content !== undefined) {
      checkContent(body.content);
      changes.content = body.content;
    }
    const row = await this.repository.update(scopeOf(me), body.document_id, changes);
    if (!row) throw documentNotFound();
    return row;
  }

  async remove(me: Principal, documentId: number): Promise<void> {
    if (!(await this.repository.delete(scopeOf(me), documentId))) throw documentNotFound();
  }
}

function checkContent(content: string): void {
  if (content.length > MAX_DOCUMENT_CONTENT) throw badInput(DOCUMENT_TOO_LARGE, 'document_too_large');
}
