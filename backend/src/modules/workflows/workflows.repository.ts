import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { Workflow, WorkflowTag, WorkflowTemplate } from './workflow.entity';

export type WorkflowValues = Pick<Workflow, 'name' | 'description' | 'tags'>;

/** The workflows, workflow_templates and workflow_tags tables: the only code that touches them. */
@Injectable()
export class WorkflowsRepository {
  constructor(
    @InjectRepository(Workflow) private readonly workflows: Repository<Workflow>,
    @InjectRepository(WorkflowTemplate) private readonly steps: Repository<WorkflowTemplate>,
  ) {}

  private repo(m?: EntityManager): Repository<Workflow> {
    return m ? m.getRepository(Workflow) : this.workflows;
  }

  /** Workflows whose name or description matches `text` (a LIKE pattern), on alias `w`. */
  private searched(text: string | undefined): SelectQueryBuilder<Workflow> {
    const qb = this.workflows.createQueryBuilder('w');
    if (text)
      qb.andWhere(new Brackets((b) => b.where('w.name ILIKE :text').orWhere('w.description ILIKE :text')), {
        text,
      });
    return qb;
  }

  /** A page of the search's results (newest first), optionally with a tag, and the tag counts of the search. */
  async page(
    text: string | undefined,
    tag: string | undefined,
    page: Page,
  ): Promise<{ rows: Workflow[]; total: number; tags: { tag: string; count: number }[] }> {
    const qb = this.searched(text);
    if (tag)
      qb.andWhere(
        'EXISTS (SELECT 1 FROM workflow_tags wt WHERE wt.workflow_id = w.workflow_id AND wt.tag = :tag)',
        { tag },
      );
    // The tag counts describe the search's results, so the tag filter is applied after them.
    const [rows, total, tags] = await Promise.all([
      qb
        .clone()
        .orderBy('w.createdAt', 'DESC')
        .addOrderBy('w.workflow_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
      this.searched(text)
        .innerJoin(WorkflowTag, 'wt', 'wt.workflow_id = w.workflow_id')
        .select('wt.tag', 'tag')
        .addSelect('count(*)::int', 'count')
        .groupBy('wt.tag')
        .orderBy('lower(wt.tag)')
        .addOrderBy('wt.tag')
        .getRawMany<{ tag: string; count: number }>(),
    ]);
    return { rows, total, tags };
  }

  /** `lock` holds the row for the rest of `m`'s transaction. */
  find(id: number, m?: EntityManager, lock = false): Promise<Workflow | null> {
    const qb = this.repo(m).createQueryBuilder('w').where('w.workflow_id = :id', { id });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  findMany(ids: number[]): Promise<Workflow[]> {
    return ids.length ? this.workflows.find({ where: { workflow_id: In(ids) } }) : Promise.resolve([]);
  }

  /** The steps of the given workflows, in order. */
  stepsOf(workflowIds: number[], m?: EntityManager): Promise<WorkflowTemplate[]> {
    if (!workflowIds.length) return Promise.resolve([]);
    return (m ? m.getRepository(WorkflowTemplate) : this.steps).find({
      where: { workflow_id: In(workflowIds) },
      order: { workflow_id: 'ASC', order: 'ASC' },
    });
  }

  async insert(
    m: EntityManager,
    values: WorkflowValues & { user_id: number; starter?: boolean },
    templateIds: number[],
    tags: string[],
  ): Promise<number> {
    const repo = this.repo(m);
    const saved = await repo.save(repo.create(values));
    await this.writeSteps(m, saved.workflow_id, templateIds);
    await this.writeTags(m, saved.workflow_id, tags);
    return saved.workflow_id;
  }

  async update(
    m: EntityManager,
    id: number,
    values: WorkflowValues,
    templateIds: number[] | undefined,
    tags: string[] | undefined,
  ): Promise<void> {
    await this.repo(m).update({ workflow_id: id }, values);
    if (templateIds) await this.writeSteps(m, id, templateIds, true);
    if (tags) await this.writeTags(m, id, tags, true);
  }

  /** False when there was no such workflow. */
  async delete(id: number): Promise<boolean> {
    return !!(await this.workflows.delete({ workflow_id: id })).affected;
  }

  /** How many starter workflows exist. */
  countStarter(m?: EntityManager): Promise<number> {
    return this.repo(m).count({ where: { starter: true } });
  }

  async anyWorkflow(m?: EntityManager): Promise<boolean> {
    return (await this.repo(m).count({ take: 1 })) > 0;
  }

  /** Deletes every starter workflow (steps and tags go with them); answers how many. */
  async deleteStarter(m: EntityManager): Promise<number> {
    return (await this.repo(m).delete({ starter: true })).affected ?? 0;
  }

  /** The ordered steps, positions from 1, in the same transaction as the workflow's save. */
  private async writeSteps(m: EntityManager, id: number, templateIds: number[], replace = false) {
    const repo = m.getRepository(WorkflowTemplate);
    if (replace) await repo.delete({ workflow_id: id });
    if (templateIds.length)
      await repo.insert(
        templateIds.map((template_id, i) => ({ workflow_id: id, template_id, order: i + 1 })),
      );
  }

  /** Mirrors the comma string into workflow_tags, in the same transaction as the workflow's save. */
  private async writeTags(m: EntityManager, id: number, tags: string[], replace = false) {
    const repo = m.getRepository(WorkflowTag);
    if (replace) await repo.delete({ workflow_id: id });
    if (tags.length) await repo.insert(tags.map((tag) => ({ workflow_id: id, tag })));
  }
}
