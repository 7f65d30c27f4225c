import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { ORDER_BY, type StoredField, type TemplateSort } from './template-rules';
import { Template, TemplateFavorite, TemplateTag } from './template.entity';

/** Who reads templates, and which of them. */
export interface TemplateViewer {
  user_id: number;
  /** The organization scope; null = Personal. */
  organization_id: number | null;
  /**
   * 'visible': public templates plus the viewer's own Personal ones (Personal scope) or the organization's;
   * 'public': only public ones; 'all': every template (staff).
   */
  mode: 'visible' | 'public' | 'all';
  /** Sees every prompt (staff, or the service's own use); else a prompt hidden by show_prompt reads null. */
  seesPrompts: boolean;
}

/** A template as read for a viewer: the prompt null when hidden from them, and whether it is their favorite. */
export interface TemplateRow extends Omit<Template, 'content'> {
  content: string | null;
  favorite: boolean;
}

export interface TemplateFilter {
  tag?: string;
  type?: string;
  language?: string;
  favorites?: boolean;
  /** A LIKE pattern the name or description must match. */
  text?: string;
}

export type TemplateValues = Omit<Template, 'template_id' | 'createdAt' | 'updatedAt' | 'starter'> & {
  starter?: boolean;
};

/** What another module needs of a template to use it as a step. */
export type TemplatePrompt = Pick<Template, 'template_id' | 'name' | 'description' | 'content' | 'fields'>;

const COLUMNS = [
  'template_id',
  'user_id',
  'organization_id',
  'name',
  'description',
  'type',
  'tags',
  'language',
  'public',
  'editable',
  'show_prompt',
  'fields',
  'createdAt',
  'updatedAt',
] as const;

/** The templates, template_tags and template_favorites tables: the only code that touches them. */
@Injectable()
export class TemplatesRepository {
  constructor(
    @InjectRepository(Template) private readonly templates: Repository<Template>,
    @InjectRepository(TemplateTag) private readonly tags: Repository<TemplateTag>,
    @InjectRepository(TemplateFavorite) private readonly favorites: Repository<TemplateFavorite>,
  ) {}

  private repo(m?: EntityManager): Repository<Template> {
    return m ? m.getRepository(Template) : this.templates;
  }

  /** The templates the viewer may read, on alias `t`. */
  private readable(viewer: TemplateViewer, m?: EntityManager): SelectQueryBuilder<Template> {
    const qb = this.repo(m).createQueryBuilder('t');
    if (viewer.mode === 'public') qb.where('t.public');
    else if (viewer.mode === 'visible') {
      if (viewer.organization_id === null)
        qb.where('((t.user_id = :viewer AND t.organization_id IS NULL) OR t.public)', {
          viewer: viewer.user_id,
        });
      else qb.where('(t.organization_id = :viewerOrg OR t.public)', { viewerOrg: viewer.organization_id });
    }
    return qb;
  }

  /** The columns as the viewer sees them (the prompt withheld unless shown, theirs, or `seesPrompts`). */
  private view(qb: SelectQueryBuilder<Template>, viewer: TemplateViewer): SelectQueryBuilder<Template> {
    qb.select([]);
    for (const column of COLUMNS) qb.addSelect(`t.${column}`, column);
    return qb
      .addSelect(
        `CASE WHEN t.show_prompt OR t.user_id = :reader OR :seesPrompts THEN t.content END`,
        'content',
      )
      .addSelect(
        `EXISTS (SELECT 1 FROM template_favorites f WHERE f.template_id = t.template_id AND f.user_id = :reader)`,
        'favorite',
      )
      .setParameters({ reader: viewer.user_id, seesPrompts: viewer.seesPrompts });
  }

  async page(
    viewer: TemplateViewer,
    filter: TemplateFilter,
    sort: TemplateSort,
    page: Page,
  ): Promise<{ rows: TemplateRow[]; total: number }> {
    const qb = this.readable(viewer);
    if (filter.tag)
      qb.andWhere(
        'EXISTS (SELECT 1 FROM template_tags tt WHERE tt.template_id = t.template_id AND tt.tag = :tag)',
        { tag: filter.tag },
      );
    if (filter.type) qb.andWhere('t.type = :type', { type: filter.type });
    if (filter.language) qb.andWhere('t.language = :language', { language: filter.language });
    if (filter.favorites)
      qb.andWhere(
        'EXISTS (SELECT 1 FROM template_favorites f WHERE f.template_id = t.template_id AND f.user_id = :fan)',
        { fan: viewer.user_id },
      );
    if (filter.text)
      qb.andWhere(new Brackets((b) => b.where('t.name ILIKE :text').orWhere('t.description ILIKE :text')), {
        text: filter.text,
      });
    const rows = this.view(qb.clone(), viewer);
    for (const [expression, direction] of ORDER_BY[sort]) rows.addOrderBy(expression, direction);
    const [found, total] = await Promise.all([
      rows.offset(page.skip).limit(page.limit).getRawMany<TemplateRow>(),
      qb.getCount(),
    ]);
    return { rows: found, total };
  }

  tagCounts(viewer: TemplateViewer): Promise<{ tag: string; templates: number }[]> {
    return this.readable(viewer)
      .innerJoin(TemplateTag, 'tt', 'tt.template_id = t.template_id')
      .select('tt.tag', 'tag')
      .addSelect('count(*)::int', 'templates')
      .groupBy('tt.tag')
      .orderBy('lower(tt.tag)')
      .addOrderBy('tt.tag')
      .getRawMany();
  }

  typeCounts(viewer: TemplateViewer): Promise<{ type: string; templates: number }[]> {
    return this.readable(viewer)
      .andWhere(`t.type <> ''`)
      .select('t.type', 'type')
      .addSelect('count(*)::int', 'templates')
      .groupBy('t.type')
      .orderBy('lower(t.type)')
      .addOrderBy('t.type')
      .getRawMany();
  }

  /** One template the viewer may read; `lock` holds it for the rest of `m`'s transaction. */
  findReadable(
    viewer: TemplateViewer,
    id: number,
    m?: EntityManager,
    lock = false,
  ): Promise<TemplateRow | undefined> {
    const qb = this.view(this.readable(viewer, m).andWhere('t.template_id = :id', { id }), viewer);
    if (lock) qb.setLock('pessimistic_write');
    return qb.getRawOne<TemplateRow>();
  }

  async promptOf(id: number): Promise<string | null> {
    const row = await this.templates.findOne({ where: { template_id: id }, select: ['content'] });
    return row?.content ?? null;
  }

  /** The given templates (those that exist), with their prompts. */
  prompts(ids: number[], m?: EntityManager): Promise<TemplatePrompt[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo(m).find({
      where: { template_id: In(ids) },
      select: ['template_id', 'name', 'description', 'content', 'fields'],
    });
  }

  /** Those of `ids` that exist, locked against deletion for the rest of `m`'s transaction (FOR KEY SHARE). */
  async lockExisting(ids: number[], m: EntityManager): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.repo(m)
      .createQueryBuilder('t')
      .select('t.template_id', 'template_id')
      .where('t.template_id IN (:...ids)', { ids })
      .setLock('for_key_share')
      .getRawMany<{ template_id: number }>();
    return rows.map((r) => r.template_id);
  }

  async insert(m: EntityManager, values: TemplateValues, tags: string[]): Promise<number> {
    const repo = this.repo(m);
    const saved = await repo.save(repo.create(values));
    await this.writeTags(m, saved.template_id, tags);
    return saved.template_id;
  }

  async update(
    m: EntityManager,
    id: number,
    values: TemplateValues,
    tags: string[] | undefined,
  ): Promise<void> {
    await this.repo(m).update({ template_id: id }, values as Parameters<Repository<Template>['update']>[1]);
    if (tags) await this.writeTags(m, id, tags, true);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await this.repo(m).delete({ template_id: id });
  }

  /** How many starter templates exist. */
  countStarter(m?: EntityManager): Promise<number> {
    return this.repo(m).count({ where: { starter: true } });
  }

  /** Whether any template exists at all (the starter content loads only on an empty library). */
  async anyTemplate(m?: EntityManager): Promise<boolean> {
    return (await this.repo(m).count({ take: 1 })) > 0;
  }

  /** Deletes every starter template (tags and favorites go with them); answers how many. */
  async deleteStarter(m: EntityManager): Promise<number> {
    return (await this.repo(m).delete({ starter: true })).affected ?? 0;
  }

  /** Adds or removes the favorite; answers whether it is one now. */
  async toggleFavorite(userId: number, templateId: number): Promise<boolean> {
    const removed = await this.favorites.delete({ user_id: userId, template_id: templateId });
    if (removed.affected) return false;
    await this.favorites
      .createQueryBuilder()
      .insert()
      .values({ user_id: userId, template_id: templateId })
      .orIgnore()
      .execute();
    return true;
  }

  /** Mirrors the comma string into template_tags, in the same transaction as the template's save. */
  private async writeTags(m: EntityManager, id: number, tags: string[], replace = false): Promise<void> {
    const repo = m.getRepository(TemplateTag);
    if (replace) await repo.delete({ template_id: id });
    if (tags.length) await repo.insert(tags.map((tag) => ({ template_id: id, tag })));
  }

  /** Name and last change of the templates by id, optionally only those whose name matches `name` (LIKE). */
  namesByIds(
    ids: number[],
    name: string | null,
  ): Promise<{ template_id: number; name: string; updatedAt: Date }[]> {
    if (!ids.length) return Promise.resolve([]);
    const qb = this.templates
      .createQueryBuilder('t')
      .select(['t.template_id', 't.name', 't.updatedAt'])
      .where('t.template_id IN (:...ids)', { ids: [...new Set(ids)] });
    if (name) qb.andWhere('t.name ILIKE :name', { name });
    return qb.orderBy('t.updatedAt', 'DESC').addOrderBy('t.template_id', 'DESC').getMany();
  }
}

export type { StoredField };
