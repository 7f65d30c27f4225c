import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { badInput, notFound } from '../../common/errors/domain-error';
import { likePattern, selectPage, toPage } from '../../common/http/pagination';
import type { StoredField } from '../templates/template-rules';
import type {
  CreateWorkflowBody,
  UpdateWorkflowBody,
  WorkflowDto,
  WorkflowListQuery,
  WorkflowPageResponse,
} from './dto/workflow.dto';
import { normalizeTags, workflowFields } from './workflow-rules';

export const PAGE_SIZE = 24;
const COLUMNS = `w.workflow_id, w.name, w.description, w.tags, w."createdAt", w."updatedAt"`;

type WorkflowRow = Omit<WorkflowDto, 'templates' | 'fields'>;

/** One step of a workflow with what its fields are derived from. */
export interface WorkflowStep {
  workflow_id: number;
  template_id: number;
  name: string;
  description: string;
  content: string;
  fields: StoredField[];
  order: number;
}

export const workflowNotFound = () => notFound('Workflow', 'workflow_not_found');

/**
 * Workflows: ordered lists of templates authored by staff, readable by every signed-in user (they are the
 * product's catalogue, like public templates). A step's template is used whatever its visibility: staff chose it.
 */
@Injectable()
export class WorkflowsService {
  constructor(private readonly db: DataSource) {}

  async list(query: WorkflowListQuery): Promise<WorkflowPageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const params: unknown[] = [];
    const searched: string[] = ['true'];
    const text = query.query?.trim();
    if (text) {
      params.push(likePattern(text));
      searched.push(`(w.name ILIKE $${params.length} OR w.description ILIKE $${params.length})`);
    }
    // The tag counts describe the search's results, so the tag filter is applied after them.
    const searchSql = searched.join(' AND ');
    const tagParams = [...params];
    const where = [...searched];
    if (query.tag?.trim()) {
      params.push(query.tag.trim());
      where.push(
        `EXISTS (SELECT 1 FROM workflow_tags wt WHERE wt.workflow_id = w.workflow_id AND wt.tag = $${params.length})`,
      );
    }
    const whereSql = where.join(' AND ');
    const [{ rows, total }, tags] = await Promise.all([
      selectPage<WorkflowRow>(
        this.db,
        {
          columns: COLUMNS,
          from: `workflows w WHERE ${whereSql}`,
          orderBy: `w."createdAt" DESC, w.workflow_id DESC`,
          params,
        },
        { page, limit, skip },
      ),
      this.db.query(
        `SELECT wt.tag, count(*)::int AS count
           FROM workflows w JOIN workflow_tags wt ON wt.workflow_id = w.workflow_id
          WHERE ${searchSql}
          GROUP BY wt.tag ORDER BY lower(wt.tag), wt.tag`,
        tagParams,
      ) as Promise<{ tag: string; count: number }[]>,
    ]);
    return { workflows: await this.withSteps(rows), total, page, limit, tags };
  }

  async get(workflowId: number, m: EntityManager = this.db.manager): Promise<WorkflowDto> {
    const [row] = (await m.query(`SELECT ${COLUMNS} FROM workflows w WHERE w.workflow_id = $1`, [
      workflowId,
    ])) as WorkflowRow[];
    if (!row) throw workflowNotFound();
    const [workflow] = await this.withSteps([row], m);
    return workflow;
  }

  /** A workflow's steps in order, with their prompts (for starting a user workflow). */
  async steps(workflowId: number, m: EntityManager = this.db.manager): Promise<WorkflowStep[]> {
    return this.loadSteps([workflowId], m);
  }

  async create(me: Principal, body: CreateWorkflowBody): Promise<WorkflowDto> {
    const tags = normalizeTags(body.tags);
    const id = await this.db.transaction(async (m) => {
      await this.checkTemplates(m, body.template_ids);
      const [{ workflow_id }] = (await m.query(
        `INSERT INTO workflows (user_id, name, description, tags) VALUES ($1, $2, $3, $4) RETURNING workflow_id`,
        [me.user_id, body.name.trim(), body.description?.trim() ?? '', tags.join(',')],
      )) as { workflow_id: number }[];
      await this.writeSteps(m, workflow_id, body.template_ids);
      await this.writeTags(m, workflow_id, tags);
      return workflow_id;
    });
    return this.get(id);
  }

  async update(body: UpdateWorkflowBody): Promise<WorkflowDto> {
    const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
    await this.db.transaction(async (m) => {
      const [old] = (await m.query(`SELECT ${COLUMNS} FROM workflows w WHERE w.workflow_id = $1 FOR UPDATE`, [
        body.workflow_id,
      ])) as WorkflowRow[];
      if (!old) throw workflowNotFound();
      if (body.template_ids) await this.checkTemplates(m, body.template_ids);
      await m.query(
        `UPDATE workflows SET name = $2, description = $3, tags = $4, "updatedAt" = now() WHERE workflow_id = $1`,
        [
          body.workflow_id,
          body.name === undefined ? old.name : body.name.trim(),
          body.description === undefined || body.description === null
            ? old.description
            : body.description.trim(),
          tags ? tags.join(',') : old.tags,
        ],
      );
      if (body.template_ids) await this.writeSteps(m, body.workflow_id, body.template_ids, true);
      if (tags) await this.writeTags(m, body.workflow_id, tags, true);
    });
    return this.get(body.workflow_id);
  }

  /** Users' runs of it stay, without their workflow (workflow_id becomes null). */
  async remove(workflowId: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM workflows WHERE workflow_id = $1`, [
      workflowId,
    ])) as [unknown[], number];
    if (!affected) throw workflowNotFound();
  }

  private async withSteps(rows: WorkflowRow[], m: EntityManager = this.db.manager): Promise<WorkflowDto[]> {
    if (!rows.length) return [];
    const steps = await this.loadSteps(
      rows.map((r) => r.workflow_id),
      m,
    );
    return rows.map((row) => {
      const own = steps.filter((s) => s.workflow_id === row.workflow_id);
      return {
        ...row,
        templates: own.map(({ template_id, name, description, order }) => ({
          template_id,
          name,
          description,
          order,
        })),
        fields: workflowFields(own),
      };
    });
  }

  private loadSteps(workflowIds: number[], m: EntityManager): Promise<WorkflowStep[]> {
    return m.query(
      `SELECT wt.workflow_id, t.template_id, t.name, t.description, t.content, t.fields, wt."order"
         FROM workflow_templates wt JOIN templates t ON t.template_id = wt.template_id
        WHERE wt.workflow_id = ANY($1::int[])
        ORDER BY wt.workflow_id, wt."order"`,
      [workflowIds],
    ) as Promise<WorkflowStep[]>;
  }

  /** Every id must name an existing template; the answer names those that do not. */
  private async checkTemplates(m: EntityManager, templateIds: number[]): Promise<void> {
    const found = (await m.query(
      `SELECT template_id FROM templates WHERE template_id = ANY($1::int[]) FOR KEY SHARE`,
      [templateIds],
    )) as { template_id: number }[];
    const missing = templateIds.filter((id) => !found.some((f) => f.template_id === id));
    if (!missing.length) return;
    const message =
      missing.length === 1
        ? `Template ${missing[0]} does not exist.`
        : `Templates ${missing.join(', ')} do not exist.`;
    throw badInput(message, 'unknown_templates', { errors: [{ field: 'template_ids', message }] });
  }

  private async writeSteps(m: EntityManager, workflowId: number, templateIds: number[], replace = false) {
    if (replace) await m.query(`DELETE FROM workflow_templates WHERE workflow_id = $1`, [workflowId]);
    await m.query(
      `INSERT INTO workflow_templates (workflow_id, template_id, "order")
       SELECT $1, t.id, t.ord FROM unnest($2::int[]) WITH ORDINALITY AS t(id, ord)`,
      [workflowId, templateIds],
    );
  }

  /** Mirrors the comma string into workflow_tags, in the same transaction as the workflow's save. */
  private async writeTags(m: EntityManager, workflowId: number, tags: string[], replace = false) {
    if (replace) await m.query(`DELETE FROM workflow_tags WHERE workflow_id = $1`, [workflowId]);
    if (tags.length)
      await m.query(`INSERT INTO workflow_tags (workflow_id, tag) SELECT $1, unnest($2::varchar[])`, [
        workflowId,
        tags,
      ]);
  }
}
