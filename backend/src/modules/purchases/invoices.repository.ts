import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository } from 'typeorm';
import { likePattern, type Page } from '../../common/http/pagination';
import { Invoice } from './invoice.entity';

export type InvoiceFields = Omit<Invoice, 'invoice_id' | 'createdAt' | 'updatedAt'>;

export interface InvoiceFilter {
  user_id?: number;
  /** Users found by name or email (their ids), or an invoice id, or words of the description. */
  query?: string;
  user_ids?: number[];
  status?: string;
}

/** The invoices table. */
@Injectable()
export class InvoicesRepository {
  constructor(@InjectRepository(Invoice) private readonly invoices: Repository<Invoice>) {}

  private repo(manager?: EntityManager): Repository<Invoice> {
    return manager ? manager.getRepository(Invoice) : this.invoices;
  }

  findById(invoice_id: number, manager?: EntityManager): Promise<Invoice | null> {
    return this.repo(manager).findOneBy({ invoice_id });
  }

  findByIdForUpdate(invoice_id: number, manager: EntityManager): Promise<Invoice | null> {
    return manager
      .getRepository(Invoice)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.invoice_id = :invoice_id', { invoice_id })
      .getOne();
  }

  findByStripeInvoiceId(stripe_invoice_id: string, manager?: EntityManager): Promise<Invoice | null> {
    return this.repo(manager).findOneBy({ stripe_invoice_id });
  }

  findByStripePaymentIntentId(
    stripe_payment_intent_id: string,
    manager?: EntityManager,
  ): Promise<Invoice | null> {
    return this.repo(manager).findOneBy({ stripe_payment_intent_id });
  }

  findByPayPalCaptureId(paypal_capture_id: string, manager?: EntityManager): Promise<Invoice | null> {
    return this.repo(manager).findOneBy({ paypal_capture_id });
  }

  /** A PayPal subscription's oldest renewal that failed and is not paid yet (PayPal's retry pays it). */
  findFailedRenewal(purchase_id: number, manager: EntityManager): Promise<Invoice | null> {
    return this.repo(manager)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where(`i.purchase_id = :purchase_id AND i.status = 'failed'`, { purchase_id })
      .andWhere('i.stripe_invoice_id IS NULL AND i.paypal_capture_id IS NULL')
      .orderBy('i.invoice_id', 'ASC')
      .getOne();
  }

  /**
   * Open invoices staff issued for a purchase (not renewals: no provider invoice, capture or period), locked:
   * paying the purchase pays them.
   */
  openIssuedFor(purchase_id: number, manager: EntityManager): Promise<Invoice[]> {
    return manager
      .getRepository(Invoice)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where(`i.purchase_id = :purchase_id AND i.status IN ('pending', 'failed')`, { purchase_id })
      .andWhere('i.stripe_invoice_id IS NULL AND i.paypal_capture_id IS NULL AND i.period_end IS NULL')
      .orderBy('i.invoice_id', 'ASC')
      .getMany();
  }

  /** Whether a PayPal renewal of the purchase was paid at or after `since` (it settled an earlier failure). */
  async paidRenewalSince(purchase_id: number, since: Date, manager: EntityManager): Promise<boolean> {
    return this.repo(manager)
      .createQueryBuilder('i')
      .where(`i.purchase_id = :purchase_id AND i.status = 'completed'`, { purchase_id })
      .andWhere('i.paypal_capture_id IS NOT NULL AND i.paid_at >= :since', { since })
      .getExists();
  }

  async page(filter: InvoiceFilter, page: Page): Promise<{ rows: Invoice[]; total: number }> {
    const qb = this.invoices.createQueryBuilder('i');
    if (filter.user_id !== undefined) qb.andWhere('i.user_id = :user_id', { user_id: filter.user_id });
    if (filter.status) qb.andWhere('i.status = :status', { status: filter.status });
    const text = filter.query?.trim();
    if (text) {
      qb.andWhere(
        new Brackets((w) => {
          w.where("lower(COALESCE(i.description, '')) LIKE :pattern", {
            pattern: likePattern(text.toLowerCase()),
          });
          if (/^\d{1,9}$/.test(text)) w.orWhere('i.invoice_id = :id', { id: Number(text) });
          if (filter.user_ids?.length)
            w.orWhere('i.user_id IN (:...user_ids)', { user_ids: filter.user_ids });
        }),
      );
    }
    const [rows, total] = await qb
      .orderBy('i.createdAt', 'DESC')
      .addOrderBy('i.invoice_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }

  /** The user's invoices lose their owner (kept for the books); answers how many. */
  async anonymiseOwner(user_id: number, manager: EntityManager): Promise<number> {
    const result = await manager.getRepository(Invoice).update({ user_id }, { user_id: null });
    return result.affected ?? 0;
  }

  async insert(fields: Partial<InvoiceFields>, manager?: EntityManager): Promise<Invoice> {
    const repo = this.repo(manager);
    return repo.save(repo.create(fields));
  }

  async update(invoice_id: number, fields: Partial<InvoiceFields>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ invoice_id }, fields);
  }

  /**
   * Cents each user paid in completed invoices of the organization's purchases (renewals) within [from, to),
   * less what was refunded of them; users who paid nothing are absent.
   */
  async paidInRange(
    userIds: number[],
    organizationId: number,
    from: Date,
    to: Date,
  ): Promise<Map<number, number>> {
    if (!userIds.length) return new Map();
    const rows = await this.invoices
      .createQueryBuilder('i')
      .select('i.user_id', 'user_id')
      .addSelect('SUM(i.amount - i.refunded_amount)::bigint', 'cents')
      .where('i.user_id IN (:...userIds)', { userIds: [...new Set(userIds)] })
      .andWhere("i.status = 'completed'")
      .andWhere('i.paid_at >= :from AND i.paid_at < :to', { from, to })
      .andWhere(
        'i.purchase_id IN (SELECT p.purchase_id FROM purchases p WHERE p.organization_id = :organizationId)',
        { organizationId },
      )
      .groupBy('i.user_id')
      .getRawMany<{ user_id: number; cents: string }>();
    return new Map(rows.map((r) => [r.user_id, Number(r.cents)]));
  }
}
