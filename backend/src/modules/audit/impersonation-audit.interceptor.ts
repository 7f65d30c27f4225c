import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, tap } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/auth/principal';
import { AuditService } from './audit.service';

/** Methods that only read: a staff admin looking around a customer's account is not recorded call by call. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * In a customer's account opened by a staff admin, every change is recorded as the admin's, on behalf of the
 * customer (the audit service names both), whether it succeeded or not.
 */
@Injectable()
export class ImpersonationAuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: AuditService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const principal = req.principal;
    if (!principal?.impersonator || READ_METHODS.has(req.method)) return next.handle();
    const route = ((req.route as { path?: string } | undefined)?.path ?? req.path).slice(0, 200);
    let recorded = false;
    const record = (status: number) => {
      // A streamed answer emits many times; the action is one.
      if (recorded) return;
      recorded = true;
      void this.audit
        .record('customer.impersonation_action', {
          target_user_id: principal.user_id,
          details: { method: req.method, route, status },
        })
        .catch(() => undefined);
    };
    return next.handle().pipe(
      tap({
        next: () => record(context.switchToHttp().getResponse<Response>().statusCode),
        error: (err: unknown) => {
          const e = err as { status?: unknown; getStatus?: () => number };
          record(
            typeof e.getStatus === 'function' ? e.getStatus() : typeof e.status === 'number' ? e.status : 500,
          );
        },
      }),
    );
  }
}
