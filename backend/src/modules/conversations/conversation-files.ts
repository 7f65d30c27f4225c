import type { DetectedType } from '../files/file-type';

/** Spec 001 "Upload types": conversation files. */
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

/**
 * The system message that carries an attached document: its name and text, the text cut (at a line or word
 * break when one is near) so that the whole message stays within ATTACHMENT_TOKEN_BUDGET, with a note saying so.
 */
export function attachmentText(name: string, text: string): string {
  const head = `The user attached the file ${name}. Its text:\n`;
  const maxChars = ATTACHMENT_TOKEN_BUDGET * 4;
  if (head.length + text.length <= maxChars) return head + text;
  const room = Math.max(0, maxChars - head.length - TRUNCATED_NOTE.length - 2);
  let cut = text.slice(0, room);
  const breakAt = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  if (breakAt > room * 0.9) cut = cut.slice(0, breakAt);
  return `${head}${cut.trimEnd()}\n\n${TRUNCATED_NOTE}`;
}
