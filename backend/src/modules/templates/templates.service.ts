import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../../common/auth/principal';
import { badInput, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { AppConfigService } from '../app-config/app-config.service';
import { AccessPolicy } from '../organizations/access-policy';
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
  SORTS,
  checkRequired,
  deriveFields,
  missingValues,
  renderTemplate,
  normalizeTags,
  readField,
  throwIfInvalid,
  type FieldError,
  type TemplateSort,
} from './template-rules';
import {
  TemplatesRepository,
  type TemplatePrompt,
  type TemplateRow,
  type TemplateViewer,
} from './templates.repository';

export const PAGE_SIZE = 24;

/** Which templates a list draws from: what the caller can see, only public ones, or every one (staff). */
export type ListMode = 'visible' | 'public' | 'all';

const templateNotFound = () => notFound('Template', 'template_not_found');

function toDto(row: TemplateRow): TemplateDto {
  return { ...row, fields: (row.fields ?? []).map(readField) };
}

/** Templates with their rules: who sees, who edits, and how fields follow from the content. */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfigService,
    private readonly access: AccessPolicy,
  ) {}

  async list(
    me: Principal,
    query: TemplateListQuery,
    mode: ListMode = 'visible',
  ): Promise<TemplatePageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(
      this.viewer(me, mode),
      {
        tag: query.tag?.trim() || undefined,
        type: query.type?.trim() || undefined,
        language: query.language || undefined,
        favorites: query.favorites === 'true',
        text: text ? likePattern(text) : undefined,
      },
      query.sortBy ?? (await this.defaultSort()),
      page,
    );
    return { templates: rows.map(toDto), total, page: page.page, limit: page.limit };
  }

  async tags(me: Principal): Promise<TemplateTagsResponse> {
    const tags = await this.repository.tagCounts(this.viewer(me));
    return { tags, total: tags.length };
  }

  async types(me: Principal): Promise<TemplateTypesResponse> {
    const types = await this.repository.typeCounts(this.viewer(me));
    return { types, total: types.length };
  }

  async get(me: Principal, templateId: number): Promise<TemplateDto> {
    return toDto(await this.load(me, templateId));
  }

  /** A template's prompt whatever show_prompt says, for applying it (the caller has checked it may see it). */
  async promptOf(templateId: number): Promise<string> {
    const content = await this.repository.promptOf(templateId);
    if (content === null) throw templateNotFound();
    return content;
  }

  /**
   * Applying a template needs a template the caller can see (else 404, as GET /api/templates/{id}) and a
   * non-empty value for every field; the prompt is the template rendered with them.
   */
  async render(
    me: Principal,
    templateId: number,
    values: Record<string, unknown> | undefined,
  ): Promise<{ name: string; prompt: string }> {
    const given = values ?? {};
    if (Object.values(given).some((v) => typeof v !== 'string'))
      throw badInput('Each value must be text.', 'invalid_values');
    const template = await this.get(me, templateId);
    // The prompt may be hidden from the caller (show_prompt off), but applying it is what the template is for.
    const templateContent = await this.promptOf(templateId);
    const missing = missingValues(
      template.fields.map((f) => f.name),
      given,
    );
    if (missing.length) {
      const labels = missing.map((name) => template.fields.find((f) => f.name === name)?.label || name);
      throw badInput(`Please fill in every field: ${labels.join(', ')}.`, 'missing_values', {
        missing,
        labels,
      });
    }
    return { name: template.name, prompt: renderTemplate(templateContent, given as Record<string, string>) };
  }

  /** The given templates that exist, with their prompts (for workflows, whose steps they are). */
  prompts(templateIds: number[], m?: EntityManager): Promise<TemplatePrompt[]> {
    return this.repository.prompts(templateIds, m);
  }

  /** Those of the ids that exist, kept from deletion until `m`'s transaction ends (a workflow saving its steps). */
  lockExisting(templateIds: number[], m: EntityManager): Promise<number[]> {
    return this.repository.lockExisting(templateIds, m);
  }

  /** `starter` marks the first run's starter content (never from the API); every other rule is the same. */
  async create(
    me: Principal,
    body: CreateTemplateBody,
    options: { starter?: boolean } = {},
  ): Promise<TemplateDto> {
    if (body.public && !this.access.permits(me, 'template.makePublic'))
      throw forbidden('Only admins can make a template public.', 'template_public_admin_only');
    const errors: FieldError[] = [];
    checkRequired(body, errors);
    const content = body.content ?? '';
    const fields = deriveFields(content, body.fields, [], errors);
    const tags = normalizeTags(body.tags);
    throwIfInvalid(errors);
    const id = await this.unitOfWork.run((m) =>
      this.repository.insert(
        m,
        {
          user_id: me.user_id,
          organization_id: me.org?.organization_id ?? null,
          name: body.name?.trim() ?? '',
          description: body.description?.trim() ?? '',
          content,
          type: body.type?.trim() ?? '',
          tags: tags.join(','),
          language: body.language ?? 'en',
          public: body.public ?? false,
          editable: body.editable ?? false,
          show_prompt: body.show_prompt ?? true,
          fields,
          starter: options.starter ?? false,
        },
        tags,
      ),
    );
    return this.get(me, id);
  }

  async update(me: Principal, body: UpdateTemplateBody): Promise<TemplateDto> {
    await this.unitOfWork.run(async (m) => {
      const old = await this.load(me, body.template_id, m, true);
      this.checkCanChange(me, old);
      if (
        body.public !== undefined &&
        body.public !== old.public &&
        !this.access.permits(me, 'template.makePublic')
      )
        throw forbidden(
          body.public
            ? 'Only admins can make a template public.'
            : 'Only admins can change whether a template is public.',
          'template_public_admin_only',
        );
      const changes = (key: 'editable' | 'show_prompt') => body[key] !== undefined && body[key] !== old[key];
      if (
        (changes('editable') || changes('show_prompt')) &&
        !this.access.permits(me, 'template.editSettings', old)
      )
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
      await this.repository.update(
        m,
        old.template_id,
        {
          user_id: old.user_id,
          organization_id: old.organization_id,
          name: next.name?.trim() ?? '',
          description: next.description?.trim() ?? '',
          content: next.content ?? '',
          // An explicit null empties the type, as on create.
          type: body.type === undefined ? old.type : (body.type?.trim() ?? ''),
          tags: tags ? tags.join(',') : old.tags,
          language: body.language ?? old.language,
          public: body.public ?? old.public,
          editable: body.editable ?? old.editable,
          show_prompt: body.show_prompt ?? old.show_prompt,
          fields,
        },
        tags,
      );
    });
    return this.get(me, body.template_id);
  }

  async remove(me: Principal, templateId: number): Promise<void> {
    await this.unitOfWork.run(async (m) => {
      this.checkCanChange(me, await this.load(me, templateId, m, true));
      await this.repository.delete(m, templateId);
    });
  }

  /** How many starter templates exist, and whether the library holds any template at all. */
  async starterState(): Promise<{ starter: number; any: boolean }> {
    return { starter: await this.repository.countStarter(), any: await this.repository.anyTemplate() };
  }

  /** Deletes every starter template in `m`'s transaction (workflow steps using them go too); answers how many. */
  removeStarter(m: EntityManager): Promise<number> {
    return this.repository.deleteStarter(m);
  }

  async toggleFavorite(me: Principal, templateId: number): Promise<FavoriteResponse> {
    await this.load(me, templateId);
    return { favorite: await this.repository.toggleFavorite(me.user_id, templateId) };
  }

  /** Who reads, and which templates: `mode` as the list asks; `full` for the service's own use (every prompt). */
  private viewer(me: Principal, mode: ListMode = 'visible', full = false): TemplateViewer {
    return {
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      mode,
      seesPrompts: full || this.access.permits(me, 'template.viewAll'),
    };
  }

  /** Names of templates by id, for a campaign's list (the campaigns module has checked who may see them). */
  summaries(
    templateIds: number[],
    text: string | null,
  ): Promise<{ template_id: number; name: string; updatedAt: Date }[]> {
    return this.repository.namesByIds(templateIds, text ? likePattern(text) : null);
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
    m?: EntityManager,
    lock = false,
  ): Promise<TemplateRow> {
    const row = await this.repository.findReadable(
      this.viewer(me, this.access.permits(me, 'template.viewAll') ? 'all' : 'visible', lock),
      templateId,
      m,
      lock,
    );
    if (!row) throw templateNotFound();
    return row;
  }

  /** Who may edit or delete: the owner, a staff admin, or anyone who can see it when it is marked editable. */
  private checkCanChange(me: Principal, template: TemplateRow): void {
    if (template.editable || this.access.permits(me, 'template.edit', template)) return;
    throw forbidden('Only the owner or an admin can change this template.', 'template_forbidden');
  }
}
