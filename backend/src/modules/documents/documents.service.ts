import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ownerScope } from '../../common/auth/owner-scope';
import type { Principal } from '../../common/auth/principal';
import { badInput, notFound } from '../../common/errors/domain-error';
import { likePattern, selectPage, toPage } from '../../common/http/pagination';
import { DOCUMENT_TOO_LARGE, MAX_DOCUMENT_CONTENT, MAX_DOCUMENT_NAME } from './document-rules';
import type {
  CreateDocumentBody,
  DocumentDto,
  DocumentListQuery,
  DocumentPageResponse,
  UpdateDocumentBody,
} from './dto/document.dto';

const PAGE_SIZE = 20;
const COLUMNS = `d.document_id, d.user_id, d.organization_id, d.name, d.content, d."createdAt", d."updatedAt"`;

const documentNotFound = () => notFound('Document', 'document_not_found');

/** The caller's documents in the current scope (see ownerScope), on the `d` alias. */
const scopeWhere = (me: Principal, first: number) => ownerScope(me, 'd', first);

/**
 * Documents belong to their creator and to the scope they were created in. Every read and change filters by
 * both, so another user's document, or the caller's own seen from another scope, is 404.
 */
@Injectable()
export class DocumentsService {
  constructor(private readonly db: DataSource) {}

  async list(me: Principal, query: DocumentListQuery): Promise<DocumentPageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const scope = scopeWhere(me, 1);
    const where = [scope.sql];
    const params = [...scope.params];
    const text = query.query?.trim();
    if (text) {
      params.push(likePattern(text));
      where.push(`d.name ILIKE $${params.length}`);
    }
    const whereSql = where.join(' AND ');
    const { rows, total } = await selectPage<DocumentDto>(
      this.db,
      {
        columns: COLUMNS,
        from: `documents d WHERE ${whereSql}`,
        orderBy: `d."updatedAt" DESC, d.document_id DESC`,
        params,
      },
      { page, limit, skip },
    );
    return { documents: rows, total, page, limit };
  }

  async get(me: Principal, documentId: number): Promise<DocumentDto> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM documents d WHERE d.document_id = $1 AND ${scope.sql}`,
      [documentId, ...scope.params],
    )) as DocumentDto[];
    if (!row) throw documentNotFound();
    return row;
  }

  /** Also used by other modules (a shared message becomes a document), so the limits are checked here too. */
  async create(me: Principal, body: CreateDocumentBody): Promise<DocumentDto> {
    const content = body.content ?? '';
    checkContent(content);
    const [row] = (await this.db.query(
      `INSERT INTO documents (user_id, organization_id, name, content) VALUES ($1, $2, $3, $4)
       RETURNING document_id, user_id, organization_id, name, content, "createdAt", "updatedAt"`,
      [me.user_id, me.org?.organization_id ?? null, body.name.slice(0, MAX_DOCUMENT_NAME), content],
    )) as DocumentDto[];
    return row;
  }

  async update(me: Principal, body: UpdateDocumentBody): Promise<DocumentDto> {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (body.name !== undefined) set('name', body.name);
    if (body.content !== undefined) {
      checkContent(body.content);
      set('content', body.content);
    }
    sets.push(`"updatedAt" = now()`);
    const scope = scopeWhere(me, params.length + 2);
    const [rows] = (await this.db.query(
      `UPDATE documents d SET ${sets.join(', ')}
        WHERE d.document_id = $${params.length + 1} AND ${scope.sql} RETURNING ${COLUMNS}`,
      [...params, body.document_id, ...scope.params],
    )) as [DocumentDto[], number];
    if (!rows[0]) throw documentNotFound();
    return rows[0];
  }

  async remove(me: Principal, documentId: number): Promise<void> {
    const scope = scopeWhere(me, 2);
    const [, affected] = (await this.db.query(
      `DELETE FROM documents d WHERE d.document_id = $1 AND ${scope.sql}`,
      [documentId, ...scope.params],
    )) as [unknown[], number];
    if (!affected) throw documentNotFound();
  }
}

function checkContent(content: string): void {
  if (content.length > MAX_DOCUMENT_CONTENT) throw badInput(DOCUMENT_TOO_LARGE, 'document_too_large');
}
