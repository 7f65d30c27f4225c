import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedRequest } from '../auth/principal';
import { UserLimits, type UserLimitKind } from './user-limits';

const USER_LIMIT = 'user-limit';

interface LimitRule {
  kind: UserLimitKind;
  /** Only requests carrying a file (multipart) are counted: the route also takes plain JSON edits. */
  multipartOnly?: boolean;
}

/**
 * Checked before the request body is read (guards run before the upload interceptor): one `kind` counted per
 * user and minute, and one of the user's slots for heavy work held until the answer is sent.
 */
@Injectable()
export class UserLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: UserLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<LimitRule | undefined>(USER_LIMIT, context.getHandler());
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest & Request>();
    const userId = req.principal?.user_id;
    if (!rule || userId === undefined) return true;
    if (rule.multipartOnly && !req.is('multipart/form-data')) return true;
    await this.limits.hit(rule.kind, userId);
    const release = await this.limits.acquire(userId);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      void release();
    };
    const res = http.getResponse<Response>();
    res.once('finish', done);
    res.once('close', done);
    return true;
  }
}

/** Per-user rate limit (`kind` a minute) and concurrency cap on a route doing heavy work. */
export function UserLimit(kind: UserLimitKind, options: { multipartOnly?: boolean } = {}) {
  return applyDecorators(
    SetMetadata(USER_LIMIT, { kind, ...options } satisfies LimitRule),
    UseGuards(UserLimitGuard),
    ApiTooManyRequestsResponse({
      description: `Too many ${kind}s in a minute, or too many uploads and exports at once (Retry-After)`,
    }),
  );
}
