import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { type ErrorCode, isErrorCode } from '@avatar-studio/contracts';
import { isDatabaseUnavailable } from '../../database/resilient-pg';
import { DomainError } from './domain-error';

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code: ErrorCode;
  errors?: { field: string; message: string }[];
  [extra: string]: unknown;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const CODES: Record<number, ErrorCode> = {
  400: 'bad_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'too_large',
  415: 'unsupported_type',
  429: 'rate_limited',
};

/** Seconds a client is told to wait when the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The one place where errors become HTTP answers. Bad input is never a 500. */
export function toErrorBody(exception: unknown): ErrorBody {
  if (isDatabaseUnavailable(exception)) {
    return {
      statusCode: 503,
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      error: REASONS[503],
      code: 'database_unavailable',
    };
  }
  if (exception instanceof DomainError) {
    return {
      statusCode: exception.status,
      message: exception.message,
      error: REASONS[exception.status] ?? 'Error',
      code: exception.code,
      ...(exception.details ?? {}),
    };
  }
  if (exception instanceof ThrottlerException) {
    return {
      statusCode: 429,
      message: 'Too many requests, please try again in a minute.',
      error: REASONS[429],
      code: 'rate_limited',
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse() as
      string | { message?: unknown; code?: string; errors?: ErrorBody['errors'] };
    let message = typeof response === 'string' ? response : response.message;
    let errors: ErrorBody['errors'];
    if (typeof response === 'object' && Array.isArray(response.errors)) errors = response.errors;
    if (Array.isArray(message)) message = message.join(' ');
    if (status === 413) message = 'The file or request is too large.';
    return {
      statusCode: status,
      message: typeof message === 'string' && message ? message : exception.message,
      error: REASONS[status] ?? exception.name,
      code:
        typeof response === 'object' && isErrorCode(response.code)
          ? response.code
          : (CODES[status] ?? 'error'),
      ...(errors ? { errors } : {}),
    };
  }
  if (exception instanceof QueryFailedError) {
    const pgCode = (exception as QueryFailedError & { code?: string }).code;
    // Invalid text for a typed column (e.g. a non-numeric id) or a value out of range is the caller's fault.
    if (pgCode === '22P02' || pgCode === '22003' || pgCode === '22007' || pgCode === '22008') {
      return {
        statusCode: 400,
        message: 'A value in the request is not valid.',
        error: REASONS[400],
        code: 'bad_input',
      };
    }
    if (pgCode === '23505') {
      return {
        statusCode: 409,
        message: 'That already exists.',
        error: REASONS[409],
        code: 'already_exists',
      };
    }
  }
  const bodyParserError = exception as { type?: string; status?: number; expose?: boolean };
  if (bodyParserError?.type === 'entity.parse.failed') {
    return {
      statusCode: 400,
      message: 'The request body is not valid JSON.',
      error: REASONS[400],
      code: 'bad_json',
    };
  }
  if (bodyParserError?.type === 'entity.too.large') {
    return {
      statusCode: 413,
      message: 'The file or request is too large.',
      error: REASONS[413],
      code: 'too_large',
    };
  }
  // Any other body the parser refused (an unknown charset or Content-Encoding, a body that does not inflate, a
  // body cut short) is an http-errors 4xx marked `expose`: its own status, with a sentence of ours.
  const status = bodyParserError?.status;
  if (bodyParserError?.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return {
      statusCode: status,
      message:
        status === 415
          ? "The request body's charset or content encoding is not supported."
          : 'The request body could not be read.',
      error: REASONS[status] ?? 'Bad Request',
      code: CODES[status] ?? 'bad_input',
    };
  }
  return {
    statusCode: 500,
    message: 'Something went wrong on our side.',
    error: REASONS[500],
    code: 'internal_error',
  };
}

/** Seconds a client waits before retrying a generation refused by an instance that is shutting down. */
const DRAINING_RETRY_AFTER_SECONDS = 5;

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request & { id?: string }>();
    const body = toErrorBody(exception);
    if (body.code === 'server_draining') {
      this.logger.log(`${req.method} ${req.originalUrl} [${req.id ?? '-'}]: refused while draining (503)`);
    } else if (body.code === 'database_unavailable') {
      this.logger.warn(`${req.method} ${req.originalUrl} [${req.id ?? '-'}]: database unreachable (503)`);
    } else if (body.statusCode >= 500) {
      this.logger.error(
        `${req.method} ${req.originalUrl} [${req.id ?? '-'}]`,
        (exception as Error)?.stack ?? String(exception),
      );
    }
    if (res.headersSent) return;
    if (body.code === 'database_unavailable')
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    else if (exception instanceof DomainError && exception.retryAfterSeconds)
      res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    // A draining instance is about to go; another one (or this one restarted) takes the retry.
    else if (body.code === 'server_draining')
      res.setHeader('Retry-After', String(DRAINING_RETRY_AFTER_SECONDS));
    res.status(body.statusCode || HttpStatus.INTERNAL_SERVER_ERROR).json(body);
  }
}
