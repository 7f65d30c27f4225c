import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { UnitOfWork } from '../../database/unit-of-work';
import { badInput, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import type { StoredField } from '../templates/template-rules';
import { TemplatesService } from '../templates/templates.service';
import type {
  CreateWorkflowBody,
  UpdateWorkflowBody,
  WorkflowDto,
  WorkflowListQuery,
  WorkflowPageResponse,
} from './dto/workflow.dto';
import type { Workflow } from './workflow.entity';
import { normalizeTags, workflowFields } from './workflow-rules';
import { WorkflowsRepository } from './workflows.repository';

export const PAGE_SIZE = 24;

type WorkflowRow = Omit<WorkflowDto, 'templates' | 'fields'>;

/** What another module shows of a workflow. */
export type WorkflowSummary = Pick<WorkflowDto, 'workflow_id' | 'name' | 'description' | 'tags'>;

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

/** The columns the API shows (not the author). */
function toRow({ workflow_id, name, description, tags, createdAt, updatedAt }: Workflow): WorkflowRow {
  return { workflow_id, name, description, tags, createdAt, updatedAt };
}

/**
 * Workflows: ordered lists of templates authored by staff, readable by every signed-in user (they are the
 * product's catalogue, like public templates). A step's template is used whatever its visibility: staff chose it.
 */
@Injectable()
export class WorkflowsService {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: TemplatesService,
  ) {}

  async list(query: WorkflowListQuery): Promise<WorkflowPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total, tags } = await this.repository.page(
      text ? likePattern(text) : undefined,
      query.tag?.trim() || undefined,
      page,
    );
    return {
      workflows: await this.withSteps(rows.map(toRow)),
      total,
      page: page.page,
      limit: page.limit,
      tags,
    };
  }

  async get(workflowId: number, m?: EntityManager): Promise<WorkflowDto> {
    const row = await this.repository.find(workflowId, m);
    if (!row) throw workflowNotFound();
    const [workflow] = await this.withSteps([toRow(row)], m);
    return workflow;
  }

  /** Name, description and tags of the given workflows that exist (for the runs of them). */
  async summaries(workflowIds: number[]): Promise<Map<number, WorkflowSummary>> {
    const rows = await this.repository.findMany([...new Set(workflowIds)]);
    return new Map(
      rows.map(({ workflow_id, name, description, tags }) => [
        workflow_id,
        { workflow_id, name, description, tags },
      ]),
    );
  }

  /** A workflow's steps in order, with their prompts (for starting a user workflow). */
  async steps(workflowId: number, m?: EntityManager): Promise<WorkflowStep[]> {
    return this.loadSteps([workflowId], m);
  }

  /** `starter` marks the first run's starter content (never from the API); every other rule is the same. */
  async create(
    me: Principal,
    body: CreateWorkflowBody,
    options: { starter?: boolean } = {},
  ): Promise<WorkflowDto> {
    const tags = normalizeTags(body.tags);
    const id = await this.unitOfWork.run(async (m) => {
      await this.checkTemplates(m, body.template_ids);
      return this.repository.insert(
        m,
        {
          user_id: me.user_id,
          name: body.name.trim(),
          description: body.description?.trim() ?? '',
          tags: tags.join(','),
          starter: options.starter ?? false,
        },
        body.template_ids,
        tags,
      );
    });
    return this.get(id);
  }

  async update(body: UpdateWorkflowBody): Promise<WorkflowDto> {
    const tags = body.tags === undefined ? undefined : normalizeTags(body.tags);
    await this.unitOfWork.run(async (m) => {
      const old = await this.repository.find(body.workflow_id, m, true);
      if (!old) throw workflowNotFound();
      if (body.template_ids) await this.checkTemplates(m, body.template_ids);
      await this.repository.update(
        m,
        body.workflow_id,
        {
          name: body.name === undefined ? old.name : body.name.trim(),
          description:
            body.description === undefined || body.description === null
              ? old.description
              : body.description.trim(),
          tags: tags ? tags.join(',') : old.tags,
        },
        body.template_ids,
        tags,
      );
    });
    return this.get(body.workflow_id);
  }

  /** How many starter workflows exist, and whether any workflow exists at all. */
  async starterState(): Promise<{ starter: number; any: boolean }> {
    return { starter: await this.repository.countStarter(), any: await this.repository.anyWorkflow() };
  }

  /** Deletes every starter workflow in `m`'s transaction (users' runs stay, without it); answers how many. */
  removeStarter(m: EntityManager): Promise<number> {
    return this.repository.deleteStarter(m);
  }

  /** Users' runs of it stay, without their workflow (workflow_id becomes null). */
  async remove(workflowId: number): Promise<void> {
    if (!(await this.repository.delete(workflowId))) throw workflowNotFound();
  }

  private async withSteps(rows: WorkflowRow[], m?: EntityManager): Promise<WorkflowDto[]> {
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

  /** The steps in order, each with its template (a step whose template is gone is gone with it). */
  private async loadSteps(workflowIds: number[], m?: EntityManager): Promise<WorkflowStep[]> {
    const steps = await this.repository.stepsOf(workflowIds, m);
    const templates = await this.templates.prompts([...new Set(steps.map((s) => s.template_id))], m);
    return steps.flatMap((step) => {
      const template = templates.find((t) => t.template_id === step.template_id);
      return template ? [{ ...template, workflow_id: step.workflow_id, order: step.order }] : [];
    });
  }

  /** Every id must name an existing template (kept until the save commits); the answer names those that do not. */
  private async checkTemplates(m: EntityManager, templateIds: number[]): Promise<void> {
    const found = await this.templates.lockExisting(templateIds, m);
    const missing = templateIds.filter((id) => !found.includes(id));
    if (!missing.length) return;
    const message =
      missing.length === 1
        ? `Template ${missing[0]} does not exist.`
        : `Templates ${missing.join(', ')} do not exist.`;
    throw badInput(message, 'unknown_templates', { errors: [{ field: 'template_ids', message }] });
  }
}
