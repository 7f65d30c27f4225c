import { ApiError } from '@avatar-studio/shared';

/** The server's message for `field` of a 400 answer (its own sentence, e.g. 'Conversation name is required.'). */
export function fieldError(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const match = error.errors?.find((e) => e.field === field);
  if (match) return match.message;
  return error.hasServerMessage && error.errors === undefined ? error.message : null;
}

/** A 412 (paid access needed) on conversation and message actions closes the modal and goes to /sorry. */
export function isNoAccess(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}
