/** Document content of 65000 characters or more is refused with this sentence. */
export const MAX_DOCUMENT_CONTENT = 64_999;
export const DOCUMENT_TOO_LARGE = 'The file length is too large, please remove text to save';
/** A document's name is required. */
export const DOCUMENT_NAME_REQUIRED = "The value can't be empty";
export const MAX_DOCUMENT_NAME = 255;
/** Tags: trimmed, deduplicated, each at most this long, at most this many. */
export const MAX_DOCUMENT_TAG = 50;
export const MAX_DOCUMENT_TAGS = 20;
/** The editor's JSON of a document, serialized, at most this many characters (images are links, not data). */
export const MAX_DOCUMENT_BLOCKS_CHARS = 1_000_000;
export const DOCUMENT_SORTS = ['updatedAt_desc', 'createdAt_desc', 'name_asc', 'name_desc'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];
export const DOCUMENT_CHANGED =
  'This document was changed in another tab or window since you opened it. Reload it to get the latest version, then make your changes again.';
/** Super Fetch assistants do not answer into documents. */
export const SUPER_FETCH_AVATAR_REFUSED =
  'Super Fetch assistants cannot write into documents; choose another avatar.';
export const DOCUMENT_SAVED = 'Document saved.';
export const DOCUMENT_DELETED = 'Document deleted.';

/** Comma text or list -> trimmed, deduplicated tags, or which limit it breaks. */
export function readTags(input: string | string[] | null | undefined): string[] | 'too_long' | 'too_many' {
  if (input == null) return [];
  const parts = Array.isArray(input) ? input : input.split(',');
  const tags: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (!tag || tags.includes(tag)) continue;
    if (tag.length > MAX_DOCUMENT_TAG) return 'too_long';
    tags.push(tag);
  }
  return tags.length > MAX_DOCUMENT_TAGS ? 'too_many' : tags;
}
