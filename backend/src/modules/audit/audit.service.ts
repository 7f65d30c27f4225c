import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditAction } from '@avatar-studio/contracts';
import { badInput } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { currentAuditActor, type AuditActor } from './audit-context';
import type { AuditEvent } from './audit-event.entity';
import {
  AUDIT_PAGE_DEFAULT,
  AuditEventsPageResponse,
  AuditEventsQuery,
  AuditEventView,
} from './dto/audit.dto';
import { AuditRepository } from './audit.repository';

/** What an audit record says beside who acted and from where. */
export interface AuditRecordInput {
  target_user_id?: number | null;
  target_type?: string | null;
  target_id?: string | number | null;
  organization_id?: number | null;
  details?: Record<string, unknown>;
}

/** Detail keys that could hold a secret are dropped, whatever the caller passes. */
const SECRET_KEY = /pass|secret|token|link|hash|api_?key|authorization|cookie/i;
const MAX_DETAILS_CHARS = 2000;
const MAX_STRING_CHARS = 200;
const MAX_ARRAY_ITEMS = 50;

/** Keeps details small and free of secrets: no secret-named keys, short strings, short arrays, no depth. */
export function sanitizeDetails(details: Record<string, unknown> = {}): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') return value.slice(0, MAX_STRING_CHARS);
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value))
      return value
        .filter((v) => typeof v !== 'object' || v === null)
        .slice(0, MAX_ARRAY_ITEMS)
        .map(clean);
    return undefined;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY.test(key)) continue;
    const v = clean(value);
    if (v !== undefined) out[key.slice(0, 40)] = v;
  }
  return JSON.stringify(out).length > MAX_DETAILS_CHARS ? { truncated: true } : out;
}

/**
 * The audit log of security-relevant staff actions. Callers record right where the action happens, inside its
 * transaction when it has one; the actor, address and user agent come from the request being served.
 */
@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(private readonly events: AuditRepository) {}

  async record(
    action: AuditAction,
    input: AuditRecordInput = {},
    manager?: EntityManager,
    actor: AuditActor = currentAuditActor(),
  ): Promise<void> {
    // In a customer's account opened by a staff admin, the admin acts, on behalf of the customer.
    const viewer = actor.principal?.impersonator ?? null;
    const details = viewer
      ? { ...input.details, on_behalf_of_user_id: actor.principal!.user_id }
      : input.details;
    await this.events.insert(
      {
        action,
        actor_user_id: viewer?.user_id ?? actor.principal?.user_id ?? null,
        actor_email: viewer?.email ?? actor.principal?.email ?? null,
        actor_staff_role: viewer ? 'admin' : (actor.principal?.staffRole ?? null),
        target_user_id: input.target_user_id ?? (viewer ? actor.principal!.user_id : null),
        target_type: input.target_type ?? null,
        target_id: input.target_id === undefined || input.target_id === null ? null : String(input.target_id),
        organization_id: input.organization_id ?? null,
        ip: actor.ip,
        user_agent: actor.user_agent,
        details: sanitizeDetails(details),
      },
      manager,
    );
    this.logger.debug(`${action} by user ${actor.principal?.user_id ?? '-'}`);
  }

  async list(query: AuditEventsQuery): Promise<AuditEventsPageResponse> {
    const from = query.from ? new Date(query.from) : undefined;
    const to = query.to ? new Date(query.to) : undefined;
    if (from && to && from > to) throw badInput('from must be on or before to.', 'invalid_date_range');
    const page = toPage(query, AUDIT_PAGE_DEFAULT);
    const { rows, total } = await this.events.page(
      {
        actor_user_id: query.actor_user_id,
        target_user_id: query.target_user_id,
        action: query.action,
        from,
        to,
      },
      page,
    );
    return { audit_events: rows.map(toView), total, page: page.page, limit: page.limit };
  }
}

function toView(e: AuditEvent): AuditEventView {
  return {
    audit_event_id: String(e.audit_event_id),
    action: e.action,
    actor_user_id: e.actor_user_id,
    actor_email: e.actor_email,
    actor_staff_role: e.actor_staff_role,
    target_user_id: e.target_user_id,
    target_type: e.target_type,
    target_id: e.target_id,
    organization_id: e.organization_id,
    ip: e.ip,
    user_agent: e.user_agent,
    details: e.details ?? {},
    createdAt: e.createdAt,
  };
}
