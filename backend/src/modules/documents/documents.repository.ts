import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import type { DocumentSort } from './document-rules';
import { TextDocument } from './document.entity';

export type NewDocument = Pick<
  TextDocument,
  'user_id' | 'organization_id' | 'name' | 'content' | 'tags' | 'blocks'
>;
export type DocumentChanges = Partial<Pick<TextDocument, 'name' | 'content' | 'tags' | 'blocks'>>;

export interface DocumentFilter {
  /** LIKE pattern on the name and the text. */
  text: string | null;
  /** Every one of these tags. */
  tags: string[];
  sort: DocumentSort;
}

const ORDER: Record<DocumentSort, [string, 'ASC' | 'DESC']> = {
  updatedAt_desc: ['d.updatedAt', 'DESC'],
  createdAt_desc: ['d.createdAt', 'DESC'],
  name_asc: ['d.name', 'ASC'],
  name_desc: ['d.name', 'DESC'],
};

/** Outcome of a save that names the version it started from. */
export type SaveOutcome = { saved: TextDocument } | { missing: true } | { stale: true };

/** The documents table: the only code that reads or writes it. */
@Injectable()
export class DocumentsRepository {
  constructor(@InjectRepository(TextDocument) private readonly documents: Repository<TextDocument>) {}

  /** The scope's documents matching the filter, in the order asked (then newest id first). */
  async page(
    scope: OwnerScope,
    filter: DocumentFilter,
    page: Page,
  ): Promise<{ rows: TextDocument[]; total: number }> {
    const qb = whereOwned(this.documents.createQueryBuilder('d'), scope, 'd');
    if (filter.text)
      qb.andWhere(new Brackets((w) => w.where('d.name ILIKE :text').orWhere('d.content ILIKE :text')), {
        text: filter.text,
      });
    if (filter.tags.length) qb.andWhere('d.tags @> :tags', { tags: filter.tags });
    const [column, direction] = ORDER[filter.sort];
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy(column, direction)
        .addOrderBy('d.document_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  /** The distinct tags of the scope's documents, A-Z. */
  async tags(scope: OwnerScope): Promise<string[]> {
    const rows = await whereOwned(this.documents.createQueryBuilder('d'), scope, 'd')
      .select('DISTINCT unnest(d.tags)', 'tag')
      .orderBy('tag', 'ASC')
      .limit(500)
      .getRawMany<{ tag: string }>();
    return rows.map((r) => r.tag);
  }

  findOwned(scope: OwnerScope, id: number): Promise<TextDocument | null> {
    return whereOwned(this.documents.createQueryBuilder('d'), scope, 'd')
      .andWhere('d.document_id = :id', { id })
      .getOne();
  }

  insert(values: NewDocument): Promise<TextDocument> {
    return this.documents.save(this.documents.create(values));
  }

  /**
   * Saves the changes and raises the version in one statement; with `version`, only when the row still has it
   * (so of two tabs saving from the same version, the later one is refused).
   */
  async update(
    scope: OwnerScope,
    id: number,
    changes: DocumentChanges,
    version: number | undefined,
  ): Promise<SaveOutcome> {
    const qb = whereOwned(
      this.documents
        .createQueryBuilder()
        .update()
        // The editor's JSON is opaque to TypeORM's deep-partial type; the driver serializes jsonb as it is.
        .set({
          ...changes,
          version: () => 'version + 1',
          updatedAt: () => 'now()',
        } as QueryDeepPartialEntity<TextDocument>),
      scope,
    ).andWhere('document_id = :id', { id });
    if (version !== undefined) qb.andWhere('version = :version', { version });
    const result = await qb.returning('*').execute();
    const saved = (result.raw as TextDocument[])[0];
    if (saved) return { saved: this.documents.create(saved) };
    if (version !== undefined && (await this.findOwned(scope, id))) return { stale: true };
    return { missing: true };
  }

  /** False when it is not the caller's in the scope. */
  async delete(scope: OwnerScope, id: number): Promise<boolean> {
    const result = await whereOwned(this.documents.createQueryBuilder().delete(), scope)
      .andWhere('document_id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Name and last change of the documents by id, optionally only those whose name matches `name` (LIKE). */
  namesByIds(
    ids: number[],
    name: string | null,
  ): Promise<Pick<TextDocument, 'document_id' | 'name' | 'updatedAt'>[]> {
    if (!ids.length) return Promise.resolve([]);
    const qb = this.documents
      .createQueryBuilder('d')
      .select(['d.document_id', 'd.name', 'd.updatedAt'])
      .where({ document_id: In([...new Set(ids)]) });
    if (name) qb.andWhere('d.name ILIKE :name', { name });
    return qb.orderBy('d.updatedAt', 'DESC').addOrderBy('d.document_id', 'DESC').getMany();
  }

  findById(document_id: number): Promise<TextDocument | null> {
    return this.documents.findOneBy({ document_id });
  }
}
