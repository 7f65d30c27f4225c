import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, LessThan, Repository, SelectQueryBuilder } from 'typeorm';
import { likePattern, Page } from '../../common/http/pagination';
import { Training } from './training.entity';

/** Which trainings a caller sees: their own in the scope, the scope organization's, public ones; staff admins all. */
export interface TrainingViewer {
  user_id: number;
  /** 0 = Personal. */
  organization_id: number;
  admin: boolean;
}

/** The trainings table. */
@Injectable()
export class TrainingsRepository {
  constructor(@InjectRepository(Training) private readonly trainings: Repository<Training>) {}

  private mine(qb: SelectQueryBuilder<Training>, viewer: TrainingViewer, andPublic: boolean) {
    return qb.andWhere(
      new Brackets((w) => {
        w.where('(t.user_id = :uid AND COALESCE(t.organization_id, 0) = :org)', {
          uid: viewer.user_id,
          org: viewer.organization_id,
        });
        if (viewer.organization_id) w.orWhere('t.organization_id = :org', { org: viewer.organization_id });
        if (andPublic) w.orWhere('t.public');
      }),
    );
  }

  findVisible(viewer: TrainingViewer, trainingId: number): Promise<Training | null> {
    const qb = this.trainings.createQueryBuilder('t').where('t.training_id = :id', { id: trainingId });
    return (viewer.admin ? qb : this.mine(qb, viewer, true)).getOne();
  }

  findById(trainingId: number, m?: EntityManager): Promise<Training | null> {
    const repo = m ? m.getRepository(Training) : this.trainings;
    return repo.findOne({ where: { training_id: trainingId } });
  }

  /** The caller's trainings in the scope and the organization's (of one avatar when given), newest first. */
  listMine(
    viewer: TrainingViewer,
    filter: { query?: string; avatar_id?: number },
    page: Page,
  ): Promise<{ rows: Training[]; total: number }> {
    return this.page(this.mine(this.trainings.createQueryBuilder('t'), viewer, false), filter, page);
  }

  listPublic(filter: { query?: string }, page: Page): Promise<{ rows: Training[]; total: number }> {
    return this.page(this.trainings.createQueryBuilder('t').where('t.public'), filter, page);
  }

  private async page(
    qb: SelectQueryBuilder<Training>,
    filter: { query?: string; avatar_id?: number },
    page: Page,
  ): Promise<{ rows: Training[]; total: number }> {
    const text = filter.query?.trim();
    if (text) qb.andWhere(`t.name ILIKE :q ESCAPE '\\'`, { q: likePattern(text) });
    if (filter.avatar_id) qb.andWhere('t.avatar_id = :avatar', { avatar: filter.avatar_id });
    const [rows, total] = await qb
      .orderBy('t.createdAt', 'DESC')
      .addOrderBy('t.training_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  insert(values: Partial<Training>): Promise<Training> {
    return this.trainings.save(this.trainings.create(values));
  }

  save(training: Training): Promise<Training> {
    return this.trainings.save(training);
  }

  async update(trainingId: number, values: Partial<Training>, m?: EntityManager): Promise<void> {
    const repo = m ? m.getRepository(Training) : this.trainings;
    await repo.update({ training_id: trainingId }, values);
  }

  /**
   * Starts a run when none is running: the row's state moves to queued in one statement, so two requests cannot
   * both start one. False when it was already queued or running.
   */
  async claimRun(trainingId: number, values: Partial<Training>): Promise<boolean> {
    const result = await this.trainings
      .createQueryBuilder()
      .update()
      .set(values)
      .where('training_id = :id', { id: trainingId })
      .andWhere(`state NOT IN ('queued', 'running')`)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** The run's row, locked in `m`, when it is still the run `runId` (a newer run or a deletion ends an older job). */
  async lockRun(m: EntityManager, trainingId: number, runId: string): Promise<Training | null> {
    const row = await m
      .getRepository(Training)
      .findOne({ where: { training_id: trainingId }, lock: { mode: 'pessimistic_write' } });
    return row && row.checkpoint?.run_id === runId ? row : null;
  }

  /** Runs started before `before` and still queued or running: past their time, or lost with their worker. */
  overdue(before: Date): Promise<Training[]> {
    return this.trainings.find({
      where: { state: In(['queued', 'running']), started_at: LessThan(before) },
      take: 100,
    });
  }

  async remove(trainingId: number): Promise<void> {
    await this.trainings.delete({ training_id: trainingId });
  }
}
