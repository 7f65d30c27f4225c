import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { Tutorial, TutorialPlay } from './tutorial.entity';

export interface TutorialPlayCount {
  tutorial_id: number;
  name: string;
  language: string;
  plays: number;
  /** Signed-in users who played it. */
  viewers: number;
}

export type TutorialValues = Pick<Tutorial, 'name' | 'thumbnail' | 'order' | 'src' | 'language'>;

/** The tutorials and tutorial_plays tables: the only code that reads or writes them. */
@Injectable()
export class TutorialsRepository {
  constructor(
    @InjectRepository(Tutorial) private readonly tutorials: Repository<Tutorial>,
    @InjectRepository(TutorialPlay) private readonly plays: Repository<TutorialPlay>,
  ) {}

  async page(
    filter: { language: string | null; name: string | null },
    page: Page,
  ): Promise<{ rows: Tutorial[]; total: number }> {
    const qb = this.tutorials.createQueryBuilder('t');
    if (filter.language) qb.andWhere('t.language = :language', { language: filter.language });
    if (filter.name) qb.andWhere('t.name ILIKE :name', { name: filter.name });
    const [rows, total] = await qb
      .orderBy('t.order', 'ASC')
      .addOrderBy('t.tutorial_id', 'ASC')
      .offset(page.skip)
      .limit(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  find(id: number): Promise<Tutorial | null> {
    return this.tutorials.findOneBy({ tutorial_id: id });
  }

  insert(values: TutorialValues): Promise<Tutorial> {
    return this.tutorials.save(this.tutorials.create(values));
  }

  async update(id: number, changes: Partial<TutorialValues>): Promise<Tutorial | null> {
    const row = await this.find(id);
    if (!row) return null;
    return this.tutorials.save(this.tutorials.merge(row, changes));
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.tutorials.delete({ tutorial_id: id })).affected ?? 0) > 0;
  }

  /** False when the tutorial does not exist. */
  async addPlay(tutorial_id: number, user_id: number): Promise<boolean> {
    const result = await this.plays
      .createQueryBuilder()
      .insert()
      .values({ tutorial_id, user_id })
      .execute()
      .catch((err: { code?: string }) => {
        // 23503: the tutorial was deleted (or never existed).
        if (err.code === '23503') return null;
        throw err;
      });
    return result !== null;
  }

  /** Plays per tutorial in [from, to), with the tutorial's name and language (the analytics `videos` call). */
  async playCounts(range: { from: Date; to: Date }): Promise<TutorialPlayCount[]> {
    const rows = await this.plays
      .createQueryBuilder('p')
      .innerJoin(Tutorial, 't', 't.tutorial_id = p.tutorial_id')
      .select('p.tutorial_id', 'tutorial_id')
      .addSelect('t.name', 'name')
      .addSelect('t.language', 'language')
      .addSelect('count(*)::int', 'plays')
      .addSelect('count(DISTINCT p.user_id)::int', 'viewers')
      .where('p."createdAt" >= :from AND p."createdAt" < :to', range)
      .groupBy('p.tutorial_id')
      .addGroupBy('t.name')
      .addGroupBy('t.language')
      .orderBy('plays', 'DESC')
      .addOrderBy('p.tutorial_id', 'ASC')
      .getRawMany<TutorialPlayCount>();
    return rows;
  }
}
