import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { likePattern, type Page } from '../../common/http/pagination';
import { DiscountRedemption } from './discount-redemption.entity';
import { Discount } from './discount.entity';

export type DiscountFields = Omit<Discount, 'discount_id' | 'times_used' | 'createdAt' | 'updatedAt'>;

/** The discounts and discount_redemptions tables. */
@Injectable()
export class DiscountsRepository {
  constructor(
    @InjectRepository(Discount) private readonly discounts: Repository<Discount>,
    @InjectRepository(DiscountRedemption) private readonly redemptions: Repository<DiscountRedemption>,
  ) {}

  private repo(manager?: EntityManager): Repository<Discount> {
    return manager ? manager.getRepository(Discount) : this.discounts;
  }

  findById(discount_id: number, manager?: EntityManager): Promise<Discount | null> {
    return this.repo(manager).findOneBy({ discount_id });
  }

  /** The code as typed, whatever its case; `lock` holds the row until the transaction ends (redemptions). */
  findByCode(code: string, manager?: EntityManager, lock = false): Promise<Discount | null> {
    const qb = this.repo(manager).createQueryBuilder('d').where('lower(d.code) = lower(:code)', { code });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  async page(
    filter: { query?: string; organization_id?: number | null },
    page: Page,
  ): Promise<{ rows: Discount[]; total: number }> {
    const qb = this.discounts.createQueryBuilder('d');
    if (filter.organization_id === null) qb.andWhere('d.organization_id IS NULL');
    else if (filter.organization_id !== undefined)
      qb.andWhere('d.organization_id = :org', { org: filter.organization_id });
    if (filter.query?.trim())
      qb.andWhere('lower(d.code) LIKE :pattern', { pattern: likePattern(filter.query.trim().toLowerCase()) });
    const [rows, total] = await qb
      .orderBy('d.createdAt', 'DESC')
      .addOrderBy('d.discount_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  async insert(fields: DiscountFields, manager?: EntityManager): Promise<Discount> {
    const repo = this.repo(manager);
    return repo.save(repo.create(fields));
  }

  async update(discount_id: number, fields: Partial<DiscountFields>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ discount_id }, fields);
  }

  async delete(discount_id: number): Promise<void> {
    await this.discounts.delete({ discount_id });
  }

  countForUser(discount_id: number, user_id: number, manager?: EntityManager): Promise<number> {
    return (manager ? manager.getRepository(DiscountRedemption) : this.redemptions).countBy({
      discount_id,
      user_id,
    });
  }

  /** Records a use and counts it on the discount, in the caller's transaction. */
  async redeem(
    redemption: Omit<DiscountRedemption, 'redemption_id' | 'createdAt'>,
    manager: EntityManager,
  ): Promise<DiscountRedemption> {
    const repo = manager.getRepository(DiscountRedemption);
    const row = await repo.save(repo.create(redemption));
    await manager.getRepository(Discount).increment({ discount_id: redemption.discount_id }, 'times_used', 1);
    return row;
  }

  /** Gives a use back (the payment it was for failed). */
  async release(discount_id: number, purchase_id: number, manager: EntityManager): Promise<void> {
    const result = await manager.getRepository(DiscountRedemption).delete({ discount_id, purchase_id });
    if (result.affected)
      await manager
        .getRepository(Discount)
        .createQueryBuilder()
        .update()
        .set({ times_used: () => 'GREATEST(times_used - 1, 0)' })
        .where('discount_id = :discount_id', { discount_id })
        .execute();
  }
}
