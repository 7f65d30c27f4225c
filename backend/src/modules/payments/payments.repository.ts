import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PaymentCustomer } from './payment-customer.entity';
import { PaymentEvent, PaymentEventStatus } from './payment-event.entity';
import { PaymentSource } from './payment-source.entity';

/** Most saved cards one user keeps at one account. */
export const MAX_PAYMENT_SOURCES = 20;

/** payment_events, payment_customers and payment_sources. */
@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectRepository(PaymentEvent) private readonly events: Repository<PaymentEvent>,
    @InjectRepository(PaymentCustomer) private readonly customers: Repository<PaymentCustomer>,
    @InjectRepository(PaymentSource) private readonly sources: Repository<PaymentSource>,
  ) {}

  /** Stores an event once; answers the stored row's id and whether this call stored it (false: a replay). */
  async storeEvent(
    event: Pick<
      PaymentEvent,
      'provider' | 'account' | 'event_id' | 'type' | 'payload' | 'provider_created_at'
    >,
  ): Promise<{ payment_event_id: string; fresh: boolean }> {
    const inserted = await this.events
      .createQueryBuilder()
      .insert()
      .values({ ...event, payload: event.payload as never })
      .orIgnore()
      .returning(['payment_event_id'])
      .execute();
    const row = inserted.raw[0] as { payment_event_id: string } | undefined;
    if (row) return { payment_event_id: String(row.payment_event_id), fresh: true };
    const existing = await this.events.findOneByOrFail({
      provider: event.provider,
      account: event.account,
      event_id: event.event_id,
    });
    return { payment_event_id: existing.payment_event_id, fresh: false };
  }

  /** The event, locked for this transaction so two workers never process it at once. */
  lockEvent(payment_event_id: string, manager: EntityManager): Promise<PaymentEvent | null> {
    return manager
      .getRepository(PaymentEvent)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where('e.payment_event_id = :id', { id: payment_event_id })
      .getOne();
  }

  async finishEvent(
    payment_event_id: string,
    status: PaymentEventStatus,
    error: string | null,
    manager?: EntityManager,
  ): Promise<void> {
    const repo = manager ? manager.getRepository(PaymentEvent) : this.events;
    await repo
      .createQueryBuilder()
      .update()
      .set({
        status,
        error: error?.slice(0, 1000) ?? null,
        processed_at: () => 'now()',
        attempts: () => 'attempts + 1',
      })
      .where('payment_event_id = :id', { id: payment_event_id })
      .execute();
  }

  /** Runs `work` in one transaction of the payments tables' connection (callers pass the manager on). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.events.manager.transaction(work);
  }

  countEvents(status: PaymentEventStatus): Promise<number> {
    return this.events.countBy({ status });
  }

  /** Events received since `since` whose processing failed for good, and when the newest was received. */
  async failedSince(since: Date): Promise<{ count: number; last: Date | null }> {
    const row = (await this.events
      .createQueryBuilder('e')
      .select('count(*)::int', 'count')
      .addSelect('max(e.received_at)', 'last')
      .where(`e.status = 'failed' AND e.received_at >= :since`, { since })
      .getRawOne<{ count: number; last: Date | null }>())!;
    return { count: row.count, last: row.last ? new Date(row.last) : null };
  }

  findCustomer(user_id: number, account: string): Promise<PaymentCustomer | null> {
    return this.customers.findOneBy({ user_id, account });
  }

  /** Keeps the first customer stored for (user, account) when two requests create one at once. */
  async saveCustomer(user_id: number, account: string, stripe_customer_id: string): Promise<PaymentCustomer> {
    await this.customers
      .createQueryBuilder()
      .insert()
      .values({ user_id, account, stripe_customer_id })
      .orIgnore()
      .execute();
    return this.customers.findOneByOrFail({ user_id, account });
  }

  listSources(user_id: number): Promise<PaymentSource[]> {
    return this.sources.find({
      where: { user_id },
      order: { createdAt: 'DESC', payment_source_id: 'DESC' },
      take: MAX_PAYMENT_SOURCES * 4,
    });
  }

  countSources(user_id: number, account: string): Promise<number> {
    return this.sources.countBy({ user_id, account });
  }

  findSource(user_id: number, payment_source_id: number): Promise<PaymentSource | null> {
    return this.sources.findOneBy({ user_id, payment_source_id });
  }

  async saveSource(fields: Omit<PaymentSource, 'payment_source_id' | 'createdAt'>): Promise<PaymentSource> {
    await this.sources.createQueryBuilder().insert().values(fields).orIgnore().execute();
    return this.sources.findOneByOrFail({ stripe_payment_method_id: fields.stripe_payment_method_id });
  }

  async deleteSource(payment_source_id: number): Promise<void> {
    await this.sources.delete({ payment_source_id });
  }
}
