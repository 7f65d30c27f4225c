import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import { GeneratedIdea } from './generated-idea.entity';
import type { IdeaKind } from './idea-rules';

export type NewIdea = Pick<
  GeneratedIdea,
  'user_id' | 'organization_id' | 'kind' | 'input' | 'items' | 'content'
>;

/** The generated_ideas table: the only code that reads or writes it. */
@Injectable()
export class IdeasRepository {
  constructor(@InjectRepository(GeneratedIdea) private readonly ideas: Repository<GeneratedIdea>) {}

  /** The scope's history of one kind, newest first. */
  async page(
    scope: OwnerScope,
    kind: IdeaKind,
    page: Page,
  ): Promise<{ rows: GeneratedIdea[]; total: number }> {
    const qb = whereOwned(this.ideas.createQueryBuilder('i'), scope, 'i').andWhere('i.kind = :kind', {
      kind,
    });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('i.createdAt', 'DESC')
        .addOrderBy('i.idea_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  /** Saved in the engine's settle transaction, with the charge of its words. */
  insert(m: EntityManager, values: NewIdea): Promise<GeneratedIdea> {
    const repo = m.getRepository(GeneratedIdea);
    return repo.save(repo.create(values));
  }

  /** False when it is not the caller's (of this kind, in the scope). */
  async delete(scope: OwnerScope, kind: IdeaKind, id: number): Promise<boolean> {
    const result = await whereOwned(this.ideas.createQueryBuilder().delete(), scope)
      .andWhere('idea_id = :id AND kind = :kind', { id, kind })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
