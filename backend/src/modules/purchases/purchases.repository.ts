import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import type { PurchaseStoredStatus } from '@avatar-studio/contracts';
import type { Page } from '../../common/http/pagination';
import { Invoice } from './invoice.entity';
import { Purchase } from './purchase.entity';

export type PurchaseFields = Omit<Purchase, 'purchase_id' | 'createdAt' | 'updatedAt'>;

/** Statuses that hold a place against a product's limits: bought, being paid, or cancelled but still running. */
export const HOLDING_STATUSES: PurchaseStoredStatus[] = [
  'active',
  'completed',
  'pending',
  'processing',
  'cancelled',
];

export interface AdminPurchaseFilter {
  /** A purchase id, or users found by name or email (their ids). */
  purchase_id?: number;
  user_ids?: number[];
  from?: Date;
  to?: Date;
  statuses?: readonly string[];
  type?: 'purchases' | 'invoices';
  product_id?: number;
  /** Only this customer's purchases (the back office's customer screen). */
  user_id?: number;
}

/** Provider references a payment or a webhook looks a purchase up by. */
export type PurchaseReference =
  | 'stripe_payment_intent_id'
  | 'stripe_subscription_id'
  | 'paypal_order_id'
  | 'paypal_subscription_id'
  | 'payment_processor_id';

/** The purchases table. */
@Injectable()
export class PurchasesRepository {
  constructor(@InjectRepository(Purchase) private readonly purchases: Repository<Purchase>) {}

  private repo(manager?: EntityManager): Repository<Purchase> {
    return manager ? manager.getRepository(Purchase) : this.purchases;
  }

  findById(purchase_id: number, manager?: EntityManager): Promise<Purchase | null> {
    return this.repo(manager).findOneBy({ purchase_id });
  }

  /** Locks the purchase until the transaction ends, so two status changes of it run one after the other. */
  findByIdForUpdate(purchase_id: number, manager: EntityManager): Promise<Purchase | null> {
    return manager
      .getRepository(Purchase)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.purchase_id = :purchase_id', { purchase_id })
      .getOne();
  }

  findByReference(
    column: PurchaseReference,
    value: string,
    manager?: EntityManager,
    lock = false,
  ): Promise<Purchase | null> {
    const qb = this.repo(manager).createQueryBuilder('p').where(`p.${column} = :value`, { value });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Purchases holding a place of the product, overall or of one user (see HOLDING_STATUSES). */
  countHolding(product_id: number, user_id: number | null, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({
      product_id,
      status: In(HOLDING_STATUSES),
      ...(user_id === null ? {} : { user_id }),
    });
  }

  async pageOwn(user_id: number, page: Page): Promise<{ rows: Purchase[]; total: number }> {
    const [rows, total] = await this.purchases.findAndCount({
      where: { user_id },
      order: { createdAt: 'DESC', purchase_id: 'DESC' },
      skip: page.skip,
      take: page.limit,
    });
    return { rows, total };
  }

  async pageAdmin(filter: AdminPurchaseFilter, page: Page): Promise<{ rows: Purchase[]; total: number }> {
    const qb = this.purchases.createQueryBuilder('p');
    if (filter.purchase_id !== undefined || filter.user_ids !== undefined)
      qb.andWhere(
        new Brackets((w) => {
          if (filter.purchase_id !== undefined)
            w.orWhere('p.purchase_id = :purchase_id', { purchase_id: filter.purchase_id });
          if (filter.user_ids?.length)
            w.orWhere('p.user_id IN (:...user_ids)', { user_ids: filter.user_ids });
          if (filter.purchase_id === undefined && !filter.user_ids?.length) w.where('false');
        }),
      );
    if (filter.from) qb.andWhere('p."createdAt" >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('p."createdAt" < :to', { to: filter.to });
    if (filter.statuses) qb.andWhere('p.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.product_id !== undefined)
      qb.andWhere('p.product_id = :product_id', { product_id: filter.product_id });
    if (filter.user_id !== undefined) qb.andWhere('p.user_id = :user_id', { user_id: filter.user_id });
    if (filter.type) {
      // A purchase that paid an invoice is an invoice payment; every other one is a purchase.
      const paysInvoice = qb
        .subQuery()
        .select('1')
        .from(Invoice, 'i')
        .where('i.purchase_id = p.purchase_id')
        .getQuery();
      qb.andWhere(filter.type === 'invoices' ? `EXISTS ${paysInvoice}` : `NOT EXISTS ${paysInvoice}`);
    }
    const [rows, total] = await qb
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.purchase_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  /** Purchases that give access now: for a user's own checks (e.g. one running subscription). */
  findByUserAndProduct(user_id: number, product_id: number, manager?: EntityManager): Promise<Purchase[]> {
    return this.repo(manager).find({
      where: { user_id, product_id },
      order: { purchase_id: 'DESC' },
      take: 100,
    });
  }

  /**
   * Whether the user has a subscription a provider still charges: active, paid through Stripe or PayPal, with a
   * subscription id, and not set to stop at the end of its period.
   */
  async hasRenewing(user_id: number, manager?: EntityManager): Promise<boolean> {
    return this.repo(manager)
      .createQueryBuilder('p')
      .where('p.user_id = :user_id', { user_id })
      .andWhere(`p.status = 'active' AND p.cancel_at_period_end = false`)
      .andWhere(`p.provider IN ('stripe', 'paypal')`)
      .andWhere('COALESCE(p.stripe_subscription_id, p.paypal_subscription_id, p.subscription_id) IS NOT NULL')
      .getExists();
  }

  /** The user's purchases lose their owner (kept for the books); answers how many. */
  async anonymiseOwner(user_id: number, manager: EntityManager): Promise<number> {
    const result = await manager.getRepository(Purchase).update({ user_id }, { user_id: null });
    return result.affected ?? 0;
  }

  async insert(fields: Partial<PurchaseFields>, manager?: EntityManager): Promise<Purchase> {
    const repo = this.repo(manager);
    return repo.save(repo.create(fields));
  }

  async update(purchase_id: number, fields: Partial<PurchaseFields>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ purchase_id }, fields);
  }

  /**
   * Cents each user paid for the organization's purchases within [from, to) (by payment time), less what was
   * refunded of them; users who paid nothing are absent.
   */
  async paidInRange(
    userIds: number[],
    organizationId: number,
    from: Date,
    to: Date,
  ): Promise<Map<number, number>> {
    if (!userIds.length) return new Map();
    const rows = await this.repo()
      .createQueryBuilder('p')
      .select('p.user_id', 'user_id')
      .addSelect('SUM(p.amount - p.refunded_amount)::bigint', 'cents')
      .where('p.user_id IN (:...userIds)', { userIds: [...new Set(userIds)] })
      .andWhere('p.organization_id = :organizationId', { organizationId })
      .andWhere('p.paid_at >= :from AND p.paid_at < :to', { from, to })
      .groupBy('p.user_id')
      .getRawMany<{ user_id: number; cents: string }>();
    return new Map(rows.map((r) => [r.user_id, Number(r.cents)]));
  }
}
