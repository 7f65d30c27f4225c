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

/** A document's content must stay below 65000 characters. */
export const MAX_DOCUMENT_CONTENT = 64_999;
export const DOCUMENT_TOO_LARGE_MESSAGE = 'The file length is too large, please remove text to save';
/** A topic or hashtag generation asks for at most this many ideas. */
export const MAX_IDEAS = 30;
