import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { Page } from '../../common/http/pagination';
import { AuditEvent } from './audit-event.entity';

export type NewAuditEvent = Omit<AuditEvent, 'audit_event_id' | 'createdAt'>;

export interface AuditFilter {
  actor_user_id?: number;
  target_user_id?: number;
  action?: string;
  from?: Date;
  to?: Date;
}

/** The audit_events table: inserts, and pages newest first. */
@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  /** Inserts through `manager` when given, so the record commits or rolls back with the action itself. */
  async insert(event: NewAuditEvent, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(AuditEvent) : this.events;
    await repo.insert(event as Parameters<typeof repo.insert>[0]);
  }

  async page(filter: AuditFilter, page: Page): Promise<{ rows: AuditEvent[]; total: number }> {
    const qb = this.events.createQueryBuilder('e');
    if (filter.actor_user_id) qb.andWhere('e.actor_user_id = :actor', { actor: filter.actor_user_id });
    if (filter.target_user_id) qb.andWhere('e.target_user_id = :target', { target: filter.target_user_id });
    if (filter.action) qb.andWhere('e.action = :action', { action: filter.action });
    if (filter.from) qb.andWhere('e."createdAt" >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('e."createdAt" < :to', { to: filter.to });
    const [rows, total] = await qb
      .orderBy('e.createdAt', 'DESC')
      .addOrderBy('e.audit_event_id', 'DESC')
      .skip(page.skip)
      .take(page.limit)
      .getManyAndCount();
    return { rows, total };
  }
}
