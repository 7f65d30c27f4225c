import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { catchError, Observable } from 'rxjs';

/** The sign-up call rejects these empty fields with Spanish texts; we give them to Spanish callers. */
export const SPANISH_EMPTY_FIELD_MESSAGES: Record<string, string> = {
  name: 'Ingresa tu nombre',
  email: 'Ingresa tu correo',
  phone: 'Ingresa tu telefono',
};

/** The caller's first listed language from Accept-Language is Spanish. */
export function prefersSpanish(acceptLanguage: string | undefined): boolean {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first === 'es' || first.startsWith('es-') || first.startsWith('es;');
}

type FieldError = { field: string; message: string };

/** Replaces the message of each empty name, email or phone with the Spanish one; other errors stay. */
export function localizeSignupErrors(errors: FieldError[], body: unknown): FieldError[] {
  const values = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return errors.map((e) => {
    const spanish = SPANISH_EMPTY_FIELD_MESSAGES[e.field];
    const value = values[e.field];
    const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    return spanish && empty ? { field: e.field, message: spanish } : e;
  });
}

/** Applies localizeSignupErrors to validation failures of the route it decorates, for Spanish callers. */
@Injectable()
export class SignupMessagesInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (!(err instanceof BadRequestException) || !prefersSpanish(req.headers['accept-language']))
          throw err;
        const response = err.getResponse() as { code?: string; errors?: FieldError[] };
        if (response.code !== 'validation_failed' || !Array.isArray(response.errors)) throw err;
        const errors = localizeSignupErrors(response.errors, req.body);
        throw new BadRequestException({ ...response, message: errors[0]?.message, errors });
      }),
    );
  }
}
