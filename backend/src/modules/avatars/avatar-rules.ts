export const AVATAR_NAME_REQUIRED = 'You must add a name to your avatar.';
export const INPUT_EMPTY = "The input can't be empty";
export const PREMIUM_FEATURE = 'This is a premium feature. Please, upgrade your account.';
export const MAX_AVATAR_NAME = 255;
export const MAX_AVATAR_DESCRIPTION = 2_000;
/** An avatar's context is its instruction: at most 7500 estimated tokens (length / 4), like a message. */
export const MAX_AVATAR_CONTEXT = 30_000;
/** An editable file holds at most this many characters, like a document. */
export const MAX_EDITABLE_FILE_CHARS = 65_000;
/** Knowledge files per avatar. */
export const MAX_FILES_PER_AVATAR = 50;
/** The kinds of file an avatar reads (typed by content): .docx, .pdf, .pptx, .txt. */
export const AVATAR_FILE_KINDS = ['docx', 'pdf', 'pptx', 'text'] as const;
/** The name of a user's default avatar (their Super Fetch assistant). */
export const DEFAULT_AVATAR_NAME = 'Super Fetch';
export const AVATAR_NOTHING_RATED = 'Rate some outputs of this avatar first.';
export const COMBINE_SAME_AVATAR = 'Choose another avatar to combine with.';

/**
 * A combined avatar's context: the selected avatar's, then the target's, then the target training's style guide,
 * kept to the context's bound.
 */
export function combinedContext(selected: string, target: string, styleGuide: string): string {
  const parts = [selected.trim(), target.trim()];
  if (styleGuide.trim()) parts.push(`Style guide:\n${styleGuide.trim()}`);
  return parts.filter(Boolean).join('\n\n').slice(0, MAX_AVATAR_CONTEXT);
}
