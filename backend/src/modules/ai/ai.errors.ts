import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ErrorCode } from '@avatar-studio/contracts';
import { DomainError } from '../../common/errors/domain-error';

/** The text shown for any failure on the provider's side. */
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

/** Longest provider text passed on; their messages are one or two sentences. */
const MAX_PROVIDER_TEXT = 1_000;
export const REDACTED = '[redacted]';
/**
 * Key-like strings in provider texts, each a single character class run (linear): OpenAI and xAI keys
 * (`sk-...`, `sk-proj-...`, `xai-...`), keys shown masked (`sk-abc*****wxyz`, `xa***yz`), and long random tokens.
 */
const KEY_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|xai|rk|pk)[-_][A-Za-z0-9_*.-]{3,}/g,
  /[A-Za-z0-9_-]{0,12}\*{3,}[A-Za-z0-9_-]{0,12}/g,
  /[A-Za-z0-9_+/=-]{32,}/g,
];
/** A run this long shared with a known key is a piece of it. */
const KEY_PIECE = 8;

/**
 * Removes secrets from a text that came from outside (a provider's error message) before it reaches a user, a
 * socket or a log: every piece of `known` keys of KEY_PIECE characters or more, and anything that looks like a
 * key or a long token.
 */
export function redactSecrets(text: string, known: readonly (string | null | undefined)[] = []): string {
  let out = text.slice(0, MAX_PROVIDER_TEXT);
  const pieces = new Set<string>();
  for (const key of known) {
    if (!key || key.length < KEY_PIECE) continue;
    for (let i = 0; i + KEY_PIECE <= key.length; i++) pieces.add(key.slice(i, i + KEY_PIECE));
  }
  if (pieces.size) {
    // Mark every character covered by a piece of a known key, then replace each marked run once.
    const covered = new Uint8Array(out.length);
    for (let i = 0; i + KEY_PIECE <= out.length; i++) {
      if (pieces.has(out.slice(i, i + KEY_PIECE))) covered.fill(1, i, i + KEY_PIECE);
    }
    let result = '';
    for (let i = 0; i < out.length; i++) {
      if (!covered[i]) result += out[i];
      else if (i === 0 || !covered[i - 1]) result += REDACTED;
    }
    out = result;
  }
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** The provider's own message, without the SDK's "401 " status prefix, with key-like strings removed. */
function providerText(err: APIError, known: readonly (string | null | undefined)[]): string {
  const body = err.error as { message?: unknown } | undefined;
  const raw =
    body && typeof body.message === 'string' && body.message.trim()
      ? body.message.trim()
      : err.message.replace(/^\d{3}\s+/, '').trim() || 'unknown error';
  return redactSecrets(raw, known);
}

/**
 * The one mapping from whatever the SDK (or the network) threw to an AiError.
 * - The provider refused the request (4xx: bad key, unknown model, quota) → 400 'Open AI Error: {message}',
 *   because only a change on our side (key, model, input) fixes it.
 * - An error event inside the stream that names a code → the same, since the provider said what was wrong.
 * - Provider 5xx, timeouts, unreachable host, dropped connection, anything unknown → 503 ai_unavailable.
 * The provider's text is redacted (`knownKeys`, the keys the request could have used, and anything key-like).
 * A user abort is not mapped here: the SDK reports our own timeouts as aborts too, and only the stream knows
 * which signal fired.
 */
export function toAiError(err: unknown, knownKeys: readonly (string | null | undefined)[] = []): AiError {
  if (err instanceof AiError) return err;
  if (err instanceof APIUserAbortError || err instanceof APIConnectionError) return aiUnavailable();
  if (err instanceof APIError) {
    const status = err.status;
    const providerSaid =
      (status !== undefined && status >= 400 && status < 500) || (status === undefined && !!err.code);
    if (providerSaid) {
      const text = providerText(err, knownKeys);
      return new AiError(400, 'openai_error', `Open AI Error: ${text}`, text);
    }
  }
  return aiUnavailable();
}

/** The socket channel words provider errors as 'OpenAi Error: {message}'; others stay generic. */
export function socketErrorMessage(err: unknown): string {
  const mapped = toAiError(err);
  if (mapped.code === 'openai_error' && mapped.providerMessage)
    return `OpenAi Error: ${mapped.providerMessage}`;
  return mapped.message;
}

export function isAiCancelled(err: unknown): boolean {
  return err instanceof AiError && err.code === 'ai_cancelled';
}
