import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { AppConfigService } from '../app-config/app-config.service';
import type {
  CreateTemplateBody,
  FavoriteResponse,
  TemplateDto,
  TemplateListQuery,
  TemplatePageResponse,
  TemplateTagsResponse,
  TemplateTypesResponse,
  UpdateTemplateBody,
} from './dto/template.dto';
import {
  ORDER_BY,
  SORTS,
  checkRequired,
  deriveFields,
  normalizeTags,
  readField,
  throwIfInvalid,
  type FieldError,
  type StoredField,
  type TemplateSort,
} from './template-rules';

export const PAGE_SIZE = 24;

/** Which templates a list draws from: what the caller can see, only public ones, or every one (staff). */
export type ListMode = 'visible' | 'public' | 'all';

interface TemplateRow extends Omit<TemplateDto, 'fields'> {
  fields: StoredField[];
}

const templateNotFound = () => notFound('Template', 'template_not_found');
const isStaff = (me: Principal) => me.staffRole !== null;
const isStaffAdmin = (me: Principal) => me.staffRole === 'admin';

/**
 * Columns as the caller may see them, `$1` being the caller's id. The prompt is withheld (null) when the author
 * turned show_prompt off, unless the caller is the author or staff. `full` is for the service's own use (an
 * editable template's save keeps its content when the editor cannot see it).
 */
function columns(me: Principal, full = false): string {
  const seesPrompt = full || isStaff(me) ? 'true' : 'false';
  return `t.template_id, t.user_id, t.organization_id, t.name, t.description,
    CASE WHEN t.show_prompt OR t.user_id = $1 OR ${seesPrompt} THEN t.content END AS content,
    t.type, t.tags, t.language, t.public, t.editable, t.show_prompt, t.fields,
    EXISTS (SELECT 1 FROM template_favorites f WHERE f.template_id = t.template_id AND f.user_id = $1) AS favorite,
    t."createdAt", t."updatedAt"`;
}

/**
 * What the caller can see, with `$1` the caller's id and the organization id pushed onto `params`: public
 * templates, plus their own Personal ones (Personal scope) or the organization's (organization scope; the guard
 * has checked membership). Another user's private template, or the caller's own seen from another scope, is 404.
 */
function visibleWhere(me: Principal, params: unknown[]): string {
  const org = me.org?.organization_id ?? null;
  if (org === null) return `((t.user_id = $1 AND t.organization_id IS NULL) OR t.public)`;
  params.push(org);
  return `(t.organization_id = $${params.length} OR t.public)`;
}

function toDto(row: TemplateRow): TemplateDto {
  return { ...row, fields: (row.fields ?? []).map(readField) };
}

/** Templates with their rules: who sees, who edits, and how fields follow from the content. */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfigService,
  ) {}

  async list(
    me: Principal,
    query: TemplateListQuery,
    mode: ListMode = 'visible',
  ): Promise<TemplatePageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const params: unknown[] = [me.user_id];
    const where = [mode === 'visible' ? visibleWhere(me, params) : mode === 'public' ? 't.public' : 'true'];
    const add = (value: unknown, sql: (p: string) => string) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (query.tag?.trim())
      add(
        query.tag.trim(),
        (p) =>
          `EXISTS (SELECT 1 FROM template_tags tt WHERE tt.template_id = t.template_id AND tt.tag = ${p})`,
      );
    if (query.type?.trim()) add(query.type.trim(), (p) => `t.type = ${p}`);
    if (query.language) add(query.language, (p) => `t.language = ${p}`);
    if (query.favorites === 'true')
      where.push(
        `EXISTS (SELECT 1 FROM template_favorites f WHERE f.template_id = t.template_id AND f.user_id = $1)`,
      );
    const text = query.query?.trim();
    if (text) add(likePattern(text), (p) => `(t.name ILIKE ${p} OR t.description ILIKE ${p})`);
    const whereSql = where.join(' AND ');
    const orderBy = ORDER_BY[query.sortBy ?? (await this.defaultSort())];
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT ${columns(me)} FROM templates t WHERE ${whereSql} ORDER BY ${orderBy}
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, skip],
      ) as Promise<TemplateRow[]>,
      // The count takes the same parameters; $1 may go unused there, so it is typed explicitly.
      this.db.query(
        `SELECT count(*)::int AS total FROM templates t WHERE $1::int IS NOT NULL AND ${whereSql}`,
        params,
      ) as Promise<{ total: number }[]>,
    ]);
    return { templates: rows.map(toDto), total, page, limit };
  }

  async tags(me: Principal): Promise<TemplateTagsResponse> {
    const params: unknown[] = [me.user_id];
    const tags = (await this.db.query(
      `SELECT tt.tag, count(*)::int AS templates
         FROM templates t JOIN template_tags tt ON tt.template_id = t.template_id
        WHERE $1::int IS NOT NULL AND ${visibleWhere(me, params)}
        GROUP BY tt.tag ORDER BY lower(tt.tag), tt.tag`,
      params,
    )) as { tag: string; templates: number }[];
    return { tags, total: tags.length };
  }

  async types(me: Principal): Promise<TemplateTypesResponse> {
    const params: unknown[] = [me.user_id];
    const types = (await this.db.query(
      `SELECT t.type, count(*)::int AS templates FROM templates t
        WHERE $1::int IS NOT NULL AND t.type <> '' AND ${visibleWhere(me, params)}
        GROUP BY t.type ORDER BY lower(t.type), t.type`,
      params,
    )) as { type: string; templates: number }[];
    return { types, total: types.length };
  }

  async get(me: Principal, templateId: number): Promise<TemplateDto> {
    return toDto(await this.load(me, templateId, this.db.manager));
  }

  /** A template's prompt whatever show_prompt says, for applying it (the caller has checked it may see it). */
  async promptOf(templateId: number): Promise<string> {
    const [row] = (await this.db.query(`SELECT content FROM templates WHERE template_id = $1`, [
      templateId,
    ])) as { content: string }[];
    if (!row) throw templateNotFound();
    return row.content;
  }

  async create(me: Principal, body: CreateTemplateBody): Promise<TemplateDto> {
    if (body.public && !isStaffAdmin(me))
      throw forbidden('Only admins can make a template public.', 'template_public_admin_only');
    const errors: FieldError[] = [];
    checkRequired(body, errors);
    const content = body.content ?? '';
    const fields = deriveFields(content, body.fields, [], errors);
    const tags = normalizeTags(body.tags);
    throwIfInvalid(errors);
    const id = await this.db.transaction(async (m) => {
      const [{ template_id }] = (await m.query(
        `INSERT INTO templates (user_id, organization_id, name, description, content, type, tags, language,
           public, editable, show_prompt, fields)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb) RETURNING template_id`,
        [
          me.user_id,
          me.org?.organization_id ?? null,
          body.name?.trim(),
          body.description?.trim(),
          content,
          body.type?.trim() ?? '',
          tags.join(','),
          body.language ?? 'en',
          body.public ?? false,
          body.editable ?? false,
          body.show_prompt ?? true,
          JSON.stringify(fields),
        ],
      )) as { template_id: number }[];
      await this.writeTags(m, template_id, tags);
      return template_id;
    });
    return this.get(me, id);
  }

  async update(me: Principal, body: UpdateTemplateBody): Promise<TemplateDto> {
    await this.db.transaction(async (m) => {
      const old = await this.load(me, body.template_id, m, true);
      this.checkCanChange(me, old);
      const owner = old.user_id === me.user_id;
      if (body.public !== undefined && body.public !== old.public && !isStaffAdmin(me))
        throw forbidden(
          body.public
            ? 'Only admins can make a template public.'
            : 'Only admins can change whether a template is public.',
          'template_public_admin_only',
        );
      const changes = (key: 'editable' | 'show_prompt') => body[key] !== undefined && body[key] !== old[key];
      if ((changes('editable') || changes('show_prompt')) && !owner && !isStaff(me))
        throw forbidden(
          'Only the owner or staff can change Editable and Show Prompt.',
          'template_settings_forbidden',
        );
      // Left-out fields keep their value; an explicit null on a required text is "emptied", hence an error.
      const pick = <K extends 'name' | 'description' | 'content'>(key: K) =>
        body[key] === undefined ? old[key] : body[key];
      const next = { name: pick('name'), description: pick('description'), content: pick('content') };
      const errors: FieldError[] = [];
      checkRequired(next, errors);
      const fields = deriveFields(next.content ?? '', body.fields, old.fields, errors);
      const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
      throwIfInvalid(errors);
      await m.query(
        `UPDATE templates SET name = $2, description = $3, content = $4, type = $5, tags = $6, language = $7,
           public = $8, editable = $9, show_prompt = $10, fields = $11::jsonb, "updatedAt" = now()
         WHERE template_id = $1`,
        [
          old.template_id,
          next.name?.trim(),
          next.description?.trim(),
          next.content,
          body.type === undefined ? old.type : body.type.trim(),
          tags ? tags.join(',') : old.tags,
          body.language ?? old.language,
          body.public ?? old.public,
          body.editable ?? old.editable,
          body.show_prompt ?? old.show_prompt,
          JSON.stringify(fields),
        ],
      );
      if (tags) await this.writeTags(m, old.template_id, tags, true);
    });
    return this.get(me, body.template_id);
  }

  async remove(me: Principal, templateId: number): Promise<void> {
    await this.db.transaction(async (m) => {
      this.checkCanChange(me, await this.load(me, templateId, m, true));
      await m.query(`DELETE FROM templates WHERE template_id = $1`, [templateId]);
    });
  }

  async toggleFavorite(me: Principal, templateId: number): Promise<FavoriteResponse> {
    await this.load(me, templateId, this.db.manager);
    const [, removed] = (await this.db.query(
      `DELETE FROM template_favorites WHERE user_id = $1 AND template_id = $2`,
      [me.user_id, templateId],
    )) as [unknown[], number];
    if (removed) return { favorite: false };
    await this.db.query(
      `INSERT INTO template_favorites (user_id, template_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [me.user_id, templateId],
    );
    return { favorite: true };
  }

  /** The sort the admins chose for template lists, when the caller names none; a bad stored value falls back. */
  private async defaultSort(): Promise<TemplateSort> {
    const value = await this.config.get('templates_default_sort');
    return (SORTS as readonly string[]).includes(value ?? '') ? (value as TemplateSort) : 'createdAt_desc';
  }

  /**
   * One template the caller can see (staff see every one: they have the all-templates list), else 404. `lock`
   * (for changes) holds the row for the rest of the transaction so two saves do not interleave, and reads the
   * content even when it is hidden from the caller.
   */
  private async load(
    me: Principal,
    templateId: number,
    m: EntityManager,
    lock = false,
  ): Promise<TemplateRow> {
    const params: unknown[] = [me.user_id, templateId];
    const visible = isStaff(me) ? 'true' : visibleWhere(me, params);
    const [row] = (await m.query(
      `SELECT ${columns(me, lock)} FROM templates t WHERE t.template_id = $2 AND ${visible}${lock ? ' FOR UPDATE' : ''}`,
      params,
    )) as TemplateRow[];
    if (!row) throw templateNotFound();
    return row;
  }

  /** Who may edit or delete: the owner, a staff admin, or anyone who can see it when it is marked editable. */
  private checkCanChange(me: Principal, template: TemplateRow): void {
    if (template.user_id === me.user_id || isStaffAdmin(me) || template.editable) return;
    throw forbidden('Only the owner or an admin can change this template.', 'template_forbidden');
  }

  /** Mirrors the comma string into template_tags, in the same transaction as the template's save. */
  private async writeTags(m: EntityManager, templateId: number, tags: string[], replace = false) {
    if (replace) await m.query(`DELETE FROM template_tags WHERE template_id = $1`, [templateId]);
    if (tags.length)
      await m.query(`INSERT INTO template_tags (template_id, tag) SELECT $1, unnest($2::varchar[])`, [
        templateId,
        tags,
      ]);
  }
}
