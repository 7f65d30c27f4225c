import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { selectColumns } from '../../common/database/select-columns';
import { likePattern, type Page } from '../../common/http/pagination';
import { builtRead, type StatementRead } from '../../database/unit-of-work';
import { Product } from './product.entity';

type ProductName = Pick<Product, 'product_id' | 'name'>;

export type ProductFields = Omit<Product, 'product_id' | 'createdAt' | 'updatedAt'>;

export const PRODUCT_SORTS = ['product_id', 'name', 'word_amount', 'price', 'createdAt'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductFilter {
  query?: string;
  /** undefined: every scope; null: platform products only; a number: that organization's. */
  organization_id?: number | null;
  available?: boolean;
}

/** The products table. */
@Injectable()
export class ProductsRepository {
  constructor(@InjectRepository(Product) private readonly products: Repository<Product>) {}

  private repo(manager?: EntityManager): Repository<Product> {
    return manager ? manager.getRepository(Product) : this.products;
  }

  findById(product_id: number, manager?: EntityManager): Promise<Product | null> {
    return this.repo(manager).findOneBy({ product_id });
  }

  /**
   * Reads the product and locks its row until the transaction ends: purchases of one product are then counted
   * and created one after another, so a user_limit is never exceeded by concurrent buyers.
   */
  findByIdForUpdate(product_id: number, manager: EntityManager): Promise<Product | null> {
    return manager
      .getRepository(Product)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.product_id = :product_id', { product_id })
      .getOne();
  }

  async page(
    filter: ProductFilter,
    sort: { by: ProductSort; direction: 'ASC' | 'DESC' },
    page: Page,
  ): Promise<{ rows: Product[]; total: number }> {
    const qb = this.products.createQueryBuilder('p');
    if (filter.organization_id === null) qb.andWhere('p.organization_id IS NULL');
    else if (filter.organization_id !== undefined)
      qb.andWhere('p.organization_id = :org', { org: filter.organization_id });
    if (filter.available !== undefined)
      qb.andWhere('p.available = :available', { available: filter.available });
    if (filter.query?.trim()) {
      const pattern = likePattern(filter.query.trim().toLowerCase());
      qb.andWhere(
        `(lower(p.name) LIKE :pattern OR lower(COALESCE(p.product_sku, '')) LIKE :pattern OR CAST(p.product_id AS text) = :exact)`,
        { pattern, exact: filter.query.trim() },
      );
    }
    const [rows, total] = await qb
      .orderBy(`p.${sort.by}`, sort.direction, sort.direction === 'ASC' ? 'NULLS FIRST' : 'NULLS LAST')
      .addOrderBy('p.product_id', sort.direction)
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  /** What may be bought in one scope: available products of the organization, or platform products (null). */
  available(organization_id: number | null, limit: number): Promise<Product[]> {
    const qb = this.products.createQueryBuilder('p').where('p.available = true');
    if (organization_id === null) qb.andWhere('p.organization_id IS NULL');
    else qb.andWhere('p.organization_id = :org', { org: organization_id });
    return qb.orderBy('p.price', 'ASC').addOrderBy('p.product_id', 'ASC').take(limit).getMany();
  }

  async namesByIds(ids: number[]): Promise<ProductName[]> {
    if (!ids.length) return [];
    return this.namesByIdsQuery(ids).getRawMany<ProductName>();
  }

  /** namesByIds as a read to send with others. */
  namesByIdsRead(ids: number[]): StatementRead<ProductName[]> {
    return builtRead(this.namesByIdsQuery(ids), (rows: ProductName[]) => rows);
  }

  private namesByIdsQuery(ids: number[]) {
    return selectColumns(this.products.createQueryBuilder('p'), ['product_id', 'name']).where(
      'p.product_id = ANY(:ids)',
      { ids: [...new Set(ids)] },
    );
  }

  async insert(fields: ProductFields, manager?: EntityManager): Promise<Product> {
    const repo = this.repo(manager);
    return repo.save(repo.create(fields));
  }

  async update(product_id: number, fields: Partial<ProductFields>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ product_id }, fields);
  }
}
