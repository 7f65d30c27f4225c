import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import { UserWorkflow, UserWorkflowStep } from './user-workflow.entity';
import type { StepStatus } from './user-workflow-rules';

export type NewUserWorkflow = Pick<
  UserWorkflow,
  'user_id' | 'organization_id' | 'workflow_id' | 'name' | 'description' | 'values'
>;
export type NewStep = Pick<UserWorkflowStep, 'template_id' | 'conversation_id' | 'content'>;
export type UserWorkflowChanges = Partial<Pick<UserWorkflow, 'name' | 'description' | 'values'>>;

const UNFINISHED: StepStatus[] = ['pending', 'generating'];

/** The user_workflows and user_workflow_templates tables: the only code that touches them. */
@Injectable()
export class UserWorkflowsRepository {
  constructor(
    @InjectRepository(UserWorkflow) private readonly runs: Repository<UserWorkflow>,
    @InjectRepository(UserWorkflowStep) private readonly steps: Repository<UserWorkflowStep>,
  ) {}

  private runRepo(m?: EntityManager): Repository<UserWorkflow> {
    return m ? m.getRepository(UserWorkflow) : this.runs;
  }

  private stepRepo(m?: EntityManager): Repository<UserWorkflowStep> {
    return m ? m.getRepository(UserWorkflowStep) : this.steps;
  }

  /** The scope's runs, newest first, optionally only those whose name matches `name` (a LIKE pattern). */
  async page(
    scope: OwnerScope,
    name: string | null,
    page: Page,
  ): Promise<{ rows: UserWorkflow[]; total: number }> {
    const qb = whereOwned(this.runs.createQueryBuilder('uw'), scope, 'uw');
    if (name) qb.andWhere('uw.name ILIKE :name', { name });
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('uw.createdAt', 'DESC')
        .addOrderBy('uw.user_workflow_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  /** `lock` holds the row for the rest of `m`'s transaction. */
  findOwned(scope: OwnerScope, id: number, m?: EntityManager, lock = false): Promise<UserWorkflow | null> {
    const qb = whereOwned(this.runRepo(m).createQueryBuilder('uw'), scope, 'uw').andWhere(
      'uw.user_workflow_id = :id',
      { id },
    );
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** The steps of the given runs, in order. */
  stepsOf(runIds: number[], m?: EntityManager): Promise<UserWorkflowStep[]> {
    if (!runIds.length) return Promise.resolve([]);
    return this.stepRepo(m).find({
      where: { user_workflow_id: In(runIds) },
      order: { user_workflow_id: 'ASC', order: 'ASC' },
    });
  }

  /** The step of the caller's run (in the scope) that generates into `conversationId`. */
  async findOwnedStep(
    scope: OwnerScope,
    runId: number,
    conversationId: number,
  ): Promise<UserWorkflowStep | null> {
    return whereOwned(
      this.steps
        .createQueryBuilder('s')
        .innerJoin(UserWorkflow, 'uw', 'uw.user_workflow_id = s.user_workflow_id')
        .where('s.user_workflow_id = :runId AND s.conversation_id = :conversationId', {
          runId,
          conversationId,
        }),
      scope,
      'uw',
    ).getOne();
  }

  /** A step with its run's values, for generating it; null when it no longer exists. */
  async stepToRun(
    stepId: number,
  ): Promise<{ step: UserWorkflowStep; values: Record<string, string> } | null> {
    const step = await this.steps.findOne({ where: { user_workflow_template_id: stepId } });
    const run = step && (await this.runs.findOne({ where: { user_workflow_id: step.user_workflow_id } }));
    return step && run ? { step, values: run.values } : null;
  }

  /** The run and its steps (positions from 1, in the order given); answers their ids in that order. */
  async insert(
    m: EntityManager,
    run: NewUserWorkflow,
    steps: NewStep[],
  ): Promise<{ id: number; stepIds: number[] }> {
    const runs = this.runRepo(m);
    const saved = await runs.save(runs.create(run));
    const stepRepo = this.stepRepo(m);
    const stepIds: number[] = [];
    for (const [i, step] of steps.entries()) {
      const row = await stepRepo.save(
        stepRepo.create({ ...step, user_workflow_id: saved.user_workflow_id, order: i + 1 }),
      );
      stepIds.push(row.user_workflow_template_id);
    }
    return { id: saved.user_workflow_id, stepIds };
  }

  async update(m: EntityManager, id: number, changes: UserWorkflowChanges): Promise<void> {
    await this.runRepo(m)
      .createQueryBuilder()
      .update()
      .set({ ...changes, updatedAt: () => 'now()' })
      .where('user_workflow_id = :id', { id })
      .execute();
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await this.runRepo(m).delete({ user_workflow_id: id });
  }

  /** A finished step back to pending, in `m`; false when it is still waiting or generating. */
  async claimForRegeneration(m: EntityManager, stepId: number): Promise<boolean> {
    const result = await this.stepRepo(m)
      .createQueryBuilder()
      .update()
      .set({ status: 'pending', error: null, updatedAt: () => 'now()' })
      .where('user_workflow_template_id = :stepId AND status IN (:...finished)', {
        stepId,
        finished: ['done', 'failed'],
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** False when the step no longer exists. */
  async setStatus(stepId: number, status: StepStatus, error: string | null): Promise<boolean> {
    const result = await this.steps
      .createQueryBuilder()
      .update()
      .set({ status, error, updatedAt: () => 'now()' })
      .where('user_workflow_template_id = :stepId', { stepId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Touches the unfinished steps among `stepIds` (their lease). */
  async renew(stepIds: number[]): Promise<void> {
    if (!stepIds.length) return;
    await this.steps
      .createQueryBuilder()
      .update()
      .set({ updatedAt: () => 'now()' })
      .where('user_workflow_template_id IN (:...stepIds) AND status IN (:...unfinished)', {
        stepIds,
        unfinished: UNFINISHED,
      })
      .execute();
  }

  /**
   * Fails the unfinished steps untouched for `leaseSecs`, except those `held`; answers them with their run's user.
   */
  async failLapsed(
    error: string,
    leaseSecs: number,
    held: number[],
  ): Promise<
    {
      user_id: number;
      user_workflow_id: number;
      user_workflow_template_id: number;
      conversation_id: number;
    }[]
  > {
    const qb = this.steps
      .createQueryBuilder()
      .update()
      .set({ status: 'failed', error, updatedAt: () => 'now()' })
      .where('status IN (:...unfinished)', { unfinished: UNFINISHED })
      .andWhere('"updatedAt" < now() - make_interval(secs => :leaseSecs)', { leaseSecs });
    if (held.length) qb.andWhere('user_workflow_template_id NOT IN (:...held)', { held });
    const result = await qb
      .returning(['user_workflow_id', 'user_workflow_template_id', 'conversation_id'])
      .execute();
    const swept = result.raw as {
      user_workflow_id: number;
      user_workflow_template_id: number;
      conversation_id: number;
    }[];
    if (!swept.length) return [];
    const runs = await this.runs.find({
      where: { user_workflow_id: In([...new Set(swept.map((s) => s.user_workflow_id))]) },
      select: ['user_workflow_id', 'user_id'],
    });
    return swept.flatMap((step) => {
      const run = runs.find((r) => r.user_workflow_id === step.user_workflow_id);
      return run ? [{ ...step, user_id: run.user_id }] : [];
    });
  }
}
