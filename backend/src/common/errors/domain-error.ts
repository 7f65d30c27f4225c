import type { ErrorCode } from '@avatar-studio/contracts';

/**
 * A rule of the product was broken. Services throw these; one filter turns them into HTTP answers
 * `{ statusCode, message, error, code }`. `code` (one of the contracts package's error codes) is stable for machines; `message` is for people.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Sent as `Retry-After` (seconds) with the answer. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badInput = (message: string, code: ErrorCode = 'bad_input', details?: Record<string, unknown>) =>
  new DomainError(400, code, message, details);
export const unauthorized = (message = 'You need to sign in.', code: ErrorCode = 'unauthorized') =>
  new DomainError(401, code, message);
export const forbidden = (
  message = 'You do not have permission to do that.',
  code: ErrorCode = 'forbidden',
) => new DomainError(403, code, message);
/** Missing or not yours: the caller cannot tell the two apart. */
export const notFound = (what: string, code: ErrorCode = 'not_found') =>
  new DomainError(404, code, `${what} not found.`);
export const conflict = (message: string, code: ErrorCode = 'conflict') =>
  new DomainError(409, code, message);
export const preconditionFailed = (message: string, code: ErrorCode = 'precondition_failed') =>
  new DomainError(412, code, message);
export const tooLarge = (message: string, code: ErrorCode = 'too_large') =>
  new DomainError(413, code, message);
export const unsupportedMedia = (message: string, code: ErrorCode = 'unsupported_type') =>
  new DomainError(415, code, message);
/** The caller went over one of their own limits; they may try again after `retryAfterSeconds`. */
export const tooManyRequests = (
  message: string,
  retryAfterSeconds: number,
  code: ErrorCode = 'rate_limited',
) => new DomainError(429, code, message, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
/** The server is at capacity for this kind of work (not the caller's fault); they may try again shortly. */
export const serverBusy = (message: string, retryAfterSeconds: number, code: ErrorCode = 'server_busy') =>
  new DomainError(503, code, message, undefined, Math.max(1, Math.ceil(retryAfterSeconds)));
