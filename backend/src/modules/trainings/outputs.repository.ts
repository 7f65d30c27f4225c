import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, LessThan, Not, Repository } from 'typeorm';
import { likePattern, Page } from '../../common/http/pagination';
import { Output } from './output.entity';

/** Whose outputs: their user's, in the scope they were written in. */
export interface OutputOwner {
  user_id: number;
  /** 0 = Personal. */
  organization_id: number;
}

/** The outputs table. */
@Injectable()
export class OutputsRepository {
  constructor(@InjectRepository(Output) private readonly outputs: Repository<Output>) {}

  findOwned(owner: OutputOwner, outputId: number): Promise<Output | null> {
    return this.outputs
      .createQueryBuilder('o')
      .where('o.output_id = :id', { id: outputId })
      .andWhere('o.user_id = :uid AND COALESCE(o.organization_id, 0) = :org', {
        uid: owner.user_id,
        org: owner.organization_id,
      })
      .getOne();
  }

  findById(outputId: number, m?: EntityManager): Promise<Output | null> {
    const repo = m ? m.getRepository(Output) : this.outputs;
    return repo.findOne({ where: { output_id: outputId } });
  }

  /** The owner's outputs of an avatar or of a training, newest first, filtered by text in prompt or content. */
  async page(
    owner: OutputOwner,
    of: { avatar_id: number } | { training_id: number },
    query: string | undefined,
    page: Page,
  ): Promise<{ rows: Output[]; total: number }> {
    const qb = this.outputs
      .createQueryBuilder('o')
      .where('o.user_id = :uid AND COALESCE(o.organization_id, 0) = :org', {
        uid: owner.user_id,
        org: owner.organization_id,
      });
    if ('avatar_id' in of) qb.andWhere('o.avatar_id = :avatar', { avatar: of.avatar_id });
    else qb.andWhere('o.training_id = :training', { training: of.training_id });
    const text = query?.trim();
    if (text)
      qb.andWhere(`(o.prompt ILIKE :q ESCAPE '\\' OR o.content ILIKE :q ESCAPE '\\')`, {
        q: likePattern(text),
      });
    const [rows, total] = await qb
      .orderBy('o.createdAt', 'DESC')
      .addOrderBy('o.output_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  /** The newest rated outputs of a training (every user's: the training learns from all who rate it). */
  rated(trainingId: number, limit: number): Promise<Output[]> {
    return this.outputs.find({
      where: { training_id: trainingId, rating: Not(IsNull()), status: 'complete' },
      order: { updatedAt: 'DESC' },
      take: limit,
    });
  }

  /** The newest rated outputs an avatar wrote (with or without a training: all of them show its voice). */
  ratedOfAvatar(avatarId: number, limit: number): Promise<Output[]> {
    return this.outputs.find({
      where: { avatar_id: avatarId, rating: Not(IsNull()), status: 'complete' },
      order: { updatedAt: 'DESC' },
      take: limit,
    });
  }

  insert(values: Partial<Output>): Promise<Output> {
    return this.outputs.save(this.outputs.create(values));
  }

  save(output: Output): Promise<Output> {
    return this.outputs.save(output);
  }

  /** Writes the generated text in `m`, when the output still exists; null otherwise. */
  async complete(m: EntityManager, outputId: number, content: string): Promise<Output | null> {
    const repo = m.getRepository(Output);
    const result = await repo.update(
      { output_id: outputId, status: 'generating' },
      { content, status: 'complete' },
    );
    if (!result.affected) return null;
    return repo.findOne({ where: { output_id: outputId } });
  }

  /** Ends an output that was not written to the end, with the text produced so far (none when absent). */
  async markFailed(outputId: number, partial: string | null = null): Promise<void> {
    await this.outputs.update(
      { output_id: outputId, status: 'generating' },
      { status: 'failed', content: partial || null },
    );
  }

  /** Renews a generating output's lease (its updatedAt) while it is written; false when it is gone. */
  async renew(outputId: number): Promise<boolean> {
    const result = await this.outputs.update(
      { output_id: outputId, status: 'generating' },
      { updatedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Ends as failed the generating outputs not renewed since `before` (their instance stopped), except those
   * this instance is writing (`held`); answers the ones ended.
   */
  async failLapsed(before: Date, held: number[]): Promise<Output[]> {
    const rows = await this.outputs.find({
      where: {
        status: 'generating',
        updatedAt: LessThan(before),
        ...(held.length ? { output_id: Not(In(held)) } : {}),
      },
      take: 500,
    });
    if (!rows.length) return [];
    await this.outputs.update(
      { output_id: In(rows.map((r) => r.output_id)), status: 'generating' },
      { status: 'failed' },
    );
    return rows;
  }

  async remove(outputId: number): Promise<void> {
    await this.outputs.delete({ output_id: outputId });
  }
}
