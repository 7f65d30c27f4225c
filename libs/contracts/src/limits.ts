/** Limits the server enforces and the screens show before sending. */

/** A message may be at most this many estimated tokens. */
export const MAX_MESSAGE_TOKENS = 7500;
/** Enhance needs a text longer than this many characters (trimmed). */
export const ENHANCE_MIN_CHARS = 12;
/** A thread shows its latest messages this many at a time. */
export const THREAD_PAGE_SIZE = 10;
/** A workflow has at most this many steps. */
export const MAX_WORKFLOW_STEPS = 20;

/** The token estimate of a text: its length divided by 4, rounded. */
export function estimateTokens(text: string): number {
  return Math.round(text.length / 4);
}
