import type { DetectedType } from '../files/file-type';

/** The refusal for a file type a conversation does not accept (it names the accepted ones). */
export const ACCEPTED_FILE_MESSAGE =
  'This file type can not be attached. Attach a docx, pdf, pptx or txt document, or a jpeg, jpg, png or webp image.';
const IMAGE_MIMES = ['image/jpeg', 'image/png', 'image/webp'];

/** OpenAI refuses images above 20 MB. */
export const MAX_ATTACHED_IMAGE_BYTES = 20 * 1024 * 1024;
/** Kept of a document's text; far more than ever fits in the context, so only absurd files are cut. */
export const MAX_STORED_TEXT_CHARS = 1_000_000;
/** How much of an attached document goes to the model, in estimated tokens (length / 4, as for messages). */
export const ATTACHMENT_TOKEN_BUDGET = 6_000;
export const TRUNCATED_NOTE =
  '[The text was cut here: the rest of the file does not fit in the conversation.]';

export function isAttachable(type: DetectedType): boolean {
  if (type.kind === 'image') return IMAGE_MIMES.includes(type.mime);
  return type.kind === 'docx' || type.kind === 'pdf' || type.kind === 'pptx' || type.kind === 'text';
}

/** Room kept in the attachment budget for the wrapping the prompt builder puts around the text. */
const WRAPPING_CHARS = 300;

/**
 * What of an attached document's text goes to the model: the whole text when it fits ATTACHMENT_TOKEN_BUDGET
 * (with room for its wrapping), else cut at a line or word break when one is near, with a note saying so.
 */
export function attachmentExcerpt(text: string): string {
  const maxChars = ATTACHMENT_TOKEN_BUDGET * 4 - WRAPPING_CHARS;
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - TRUNCATED_NOTE.length - 2);
  let cut = text.slice(0, room);
  const breakAt = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  if (breakAt > room * 0.9) cut = cut.slice(0, breakAt);
  return `${cut.trimEnd()}\n\n${TRUNCATED_NOTE}`;
}

/** A conversation's attachment as the prompt builder receives it (it decides how the model sees it). */
export type PromptAttachment =
  | { kind: 'text'; name: string; text: string }
  | { kind: 'image'; name: string; dataUrl: string }
  /** An image the chosen model cannot see. */
  | { kind: 'unseen_image'; name: string };
