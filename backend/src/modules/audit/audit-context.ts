import { Injectable, NestMiddleware } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest, Principal } from '../../common/auth/principal';

/** Who is acting and from where, as the audit log records it. */
export interface AuditActor {
  principal: Pick<Principal, 'user_id' | 'email' | 'staffRole' | 'impersonator'> | null;
  ip: string | null;
  user_agent: string | null;
}

type ContextRequest = Request & AuthenticatedRequest;

const storage = new AsyncLocalStorage<ContextRequest>();

/**
 * Keeps the current request reachable from services, so an audit record names the caller, their address and
 * user agent without every service signature carrying them. The principal is read when the record is made,
 * after the auth guard has set it.
 */
@Injectable()
export class AuditContextMiddleware implements NestMiddleware {
  use(req: ContextRequest, _res: Response, next: NextFunction): void {
    storage.run(req, next);
  }
}

/** The caller of the request being served, or an empty actor outside a request (jobs, start-up). */
export function currentAuditActor(): AuditActor {
  const req = storage.getStore();
  if (!req) return { principal: null, ip: null, user_agent: null };
  const ua = req.headers['user-agent'];
  return {
    principal: req.principal ?? null,
    ip: (req.ip ?? req.socket?.remoteAddress ?? null)?.slice(0, 64) ?? null,
    user_agent: typeof ua === 'string' && ua ? ua.slice(0, 300) : null,
  };
}

/** Runs `fn` as if serving `req` (for callers outside HTTP that act for someone, and for tests). */
export function runWithAuditRequest<T>(req: ContextRequest, fn: () => T): T {
  return storage.run(req, fn);
}
