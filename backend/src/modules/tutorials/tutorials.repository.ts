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

  /**
   * Plays per tutorial in [from, to), with the tutorial's name and language (the analytics `videos` call). The
   * plays are grouped by tutorial and viewer first, then by tutorial, both by hashing: a count of distinct viewers
   * sorted every play of the range and took twice as long. Hand-written: the query builder has no subquery in FROM
   * with its parameters. A deleted customer's plays (no viewer) count as plays, not as a viewer.
   */
  async playCounts(range: { from: Date; to: Date }): Promise<TutorialPlayCount[]> {
    return this.plays.query(
      `SELECT v.tutorial_id, t.name, t.language, v.plays, v.viewers
         FROM (SELECT tutorial_id, sum(n)::int AS plays, count(user_id)::int AS viewers
                 FROM (SELECT tutorial_id, user_id, count(*) AS n FROM tutorial_plays
                        WHERE "createdAt" >= $1 AND "createdAt" < $2
                        GROUP BY tutorial_id, user_id) per_viewer
                GROUP BY tutorial_id) v
         JOIN tutorials t ON t.tutorial_id = v.tutorial_id
        ORDER BY v.plays DESC, v.tutorial_id ASC`,
      [range.from, range.to],
    );
  }
}
