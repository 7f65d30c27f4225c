import {
  CallHandler,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, Observable, throwError } from 'rxjs';
import { RateLimitStore } from '../../common/auth/rate-limit.store';
import { sha256 } from '../../common/crypto/secret-box';
import { DomainError } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';

const WINDOW_MS = 60_000;

/** A 429 whose body and Retry-After header say how many seconds to wait. */
export function tooManyRequests(
  message: string,
  retryAfterSeconds: number,
  code: 'rate_limited' | 'login_locked',
) {
  return new DomainError(429, code, message, { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) });
}

/**
 * Rate limits of the auth routes, per client address and, when the body names an email, per account, counted
 * in Redis when there is one. The address is express's `req.ip`, so TRUST_PROXY decides whether a proxy's
 * X-Forwarded-For is believed.
 */
@Injectable()
export class AuthRateLimitGuard implements CanActivate {
  constructor(
    private readonly store: RateLimitStore,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    // Guards run before interceptors, so this guard sets its own Retry-After.
    const refuse = (message: string, resetMs: number) => {
      const err = tooManyRequests(message, resetMs / 1000, 'rate_limited');
      setRetryAfter(res, err);
      return err;
    };
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const byAddress = await this.store.hit(`auth:ip:${address}`, WINDOW_MS);
    if (byAddress.count > this.env.authRateLimitPerMinute) {
      throw refuse('Too many requests from your network, please try again in a minute.', byAddress.resetMs);
    }
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (typeof email === 'string' && email.trim() !== '') {
      const account = sha256(email.trim().toLowerCase());
      const byAccount = await this.store.hit(`auth:account:${account}`, WINDOW_MS);
      if (byAccount.count > this.env.authAccountRateLimitPerMinute) {
        throw refuse('Too many attempts for this account, please try again in a minute.', byAccount.resetMs);
      }
    }
    return true;
  }
}

/** Puts a 429's wait into the Retry-After header (the error filter writes only the body). */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((err: unknown) => throwError(() => withHeader(context, err))));
  }
}

function withHeader(context: ExecutionContext, err: unknown): unknown {
  const retry = err instanceof DomainError ? err.details?.retry_after : undefined;
  if (typeof retry === 'number')
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retry));
  return err;
}

export function setRetryAfter(res: Response, err: unknown): void {
  const retry = err instanceof DomainError ? err.details?.retry_after : undefined;
  if (typeof retry === 'number') res.setHeader('Retry-After', String(retry));
}
