import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ErrorCode } from '@avatar-studio/contracts';
import { DomainError } from '../../common/errors/domain-error';

/** Spec 001 §8: the text for any failure on the provider's side. */
export const AI_UNAVAILABLE_MESSAGE = 'Sorry, OpenAI is having problems with your request.';
export const AI_NOT_CONFIGURED_MESSAGE =
  'No AI provider is configured. An admin can add an OpenAI key in Admin → Settings → Advanced, or set OPENAI_API_KEY.';
export const AI_CANCELLED_MESSAGE = 'The generation was cancelled.';

export type AiErrorCode = Extract<
  ErrorCode,
  'openai_error' | 'ai_unavailable' | 'ai_not_configured' | 'ai_cancelled'
>;

/**
 * An AI failure as the rest of the app sees it. `providerMessage` is the provider's own words (kept out of
 * `details` so the HTTP body carries only the composed message) for the socket's differently-worded text.
 */
export class AiError extends DomainError {
  constructor(
    status: number,
    override readonly code: AiErrorCode,
    message: string,
    readonly providerMessage: string | null = null,
  ) {
    super(status, code, message);
  }
}

/**
 * No key anywhere. 409 rather than 503: the service is fine, the app's setup is not, and 503 would read as
 * "try again later" to clients and monitors. 412 is taken (it means "needs paid access").
 */
export const aiNotConfigured = () => new AiError(409, 'ai_not_configured', AI_NOT_CONFIGURED_MESSAGE);

/** The caller stopped the generation (user pressed stop, socket gone). Callers must not charge for it. */
export const aiCancelled = () => new AiError(400, 'ai_cancelled', AI_CANCELLED_MESSAGE);

/** The provider failed, timed out, could not be reached, or broke off the answer: 503, try again later. */
export const aiUnavailable = () => new AiError(503, 'ai_unavailable', AI_UNAVAILABLE_MESSAGE);

/** The provider's own message, without the SDK's "401 " status prefix. */
function providerText(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message.trim()) return body.message.trim();
  return err.message.replace(/^\d{3}\s+/, '').trim() || 'unknown error';
}

/**
 * The one mapping from whatever the SDK (or the network) threw to an AiError.
 * - The provider refused the request (4xx: bad key, unknown model, quota) → 400 'Open AI Error: {message}'
 *   (spec 002 §8), because only a change on our side (key, model, input) fixes it.
 * - An error event inside the stream that names a code → the same, since the provider said what was wrong.
 * - Provider 5xx, timeouts, unreachable host, dropped connection, anything unknown → 503 ai_unavailable.
 * A user abort is not mapped here: the SDK reports our own timeouts as aborts too, and only the stream knows
 * which signal fired.
 */
export function toAiError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  if (err instanceof APIUserAbortError || err instanceof APIConnectionError) return aiUnavailable();
  if (err instanceof APIError) {
    const status = err.status;
    const providerSaid =
      (status !== undefined && status >= 400 && status < 500) || (status === undefined && !!err.code);
    if (providerSaid) {
      const text = providerText(err);
      return new AiError(400, 'openai_error', `Open AI Error: ${text}`, text);
    }
  }
  return aiUnavailable();
}

/** Spec 002 §8: the socket channel words provider errors as 'OpenAi Error: {message}'; others stay generic. */
export function socketErrorMessage(err: unknown): string {
  const mapped = toAiError(err);
  if (mapped.code === 'openai_error' && mapped.providerMessage)
    return `OpenAi Error: ${mapped.providerMessage}`;
  return mapped.message;
}

export function isAiCancelled(err: unknown): boolean {
  return err instanceof AiError && err.code === 'ai_cancelled';
}
