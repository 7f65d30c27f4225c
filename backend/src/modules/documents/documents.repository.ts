import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import { TextDocument } from './document.entity';

export type NewDocument = Pick<TextDocument, 'user_id' | 'organization_id' | 'name' | 'content'>;
export type DocumentChanges = Partial<Pick<TextDocument, 'name' | 'content'>>;

/** The documents table: the only code that reads or writes it. */
@Injectable()
export class DocumentsRepository {
  constructor(@InjectRepository(TextDocument) private readonly documents: Repository<TextDocument>) {}

  /** The scope's documents, last changed first, optionally only those whose name matches `name` (LIKE). */
  async page(
    scope: OwnerScope,
    name: string | null,
    page: Page,
  ): Promise<{ rows: TextDocument[]; total: number }> {
    const qb = whereOwned(this.documents.createQueryBuilder('d'), scope, 'd');
    if (name) qb.andWhere('d.name ILIKE :name', { name });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('d.updatedAt', 'DESC')
        .addOrderBy('d.document_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  findOwned(scope: OwnerScope, id: number): Promise<TextDocument | null> {
    return whereOwned(this.documents.createQueryBuilder('d'), scope, 'd')
      .andWhere('d.document_id = :id', { id })
      .getOne();
  }

  insert(values: NewDocument): Promise<TextDocument> {
    return this.documents.save(this.documents.create(values));
  }

  /** Null when it is not the caller's in the scope. */
  async update(scope: OwnerScope, id: number, changes: DocumentChanges): Promise<TextDocument | null> {
    const result = await whereOwned(
      this.documents
        .createQueryBuilder()
        .update()
        .set({ ...changes, updatedAt: () => 'now()' }),
      scope,
    )
      .andWhere('document_id = :id', { id })
      .returning('*')
      .execute();
    return (result.raw as TextDocument[])[0] ?? null;
  }

  /** False when it is not the caller's in the scope. */
  async delete(scope: OwnerScope, id: number): Promise<boolean> {
    const result = await whereOwned(this.documents.createQueryBuilder().delete(), scope)
      .andWhere('document_id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
