/**
 * The template placeholder grammar and the messages of saving a template, word for word the same in the server's
 * checks and the template editor (which derives its fields from the same parser).
 */

export const MAX_LABEL_LENGTH = 254;

export const EMPTY = "The input can't be empty";
export const INCOMPLETE = 'Please complete all the required fields to save.';
export const REPEATED_FIELDS = "Content can't have repeated fields";
export const LABEL_TOO_LONG = `The input max length is ${MAX_LABEL_LENGTH} characters`;
export const SELECT_NEEDS_OPTION = 'Select type must have at least one option';

/**
 * A placeholder: `[name]`, or `[name[a/b/c]]` whose embedded options make it a select (used by workflow
 * templates). Options here are plain slash-separated, without the stored form's trailing slash.
 */
export const PLACEHOLDER = /\[([^[\]]+?)(?:\[([^[\]]*)\])?\]/g;

export interface Placeholder {
  name: string;
  /** Embedded options, or null for a plain placeholder. */
  options: string[] | null;
}

/** Every placeholder occurrence, in order, repeats included (names trimmed; blank brackets are not fields). */
export function placeholderOccurrences(content: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const match of content.matchAll(PLACEHOLDER)) {
    const name = match[1].trim();
    if (!name) continue;
    const options =
      match[2] === undefined
        ? null
        : match[2]
            .split('/')
            .map((o) => o.trim())
            .filter(Boolean);
    found.push({ name, options: options?.length ? options : null });
  }
  return found;
}

/** Placeholders in order of first appearance, deduplicated by name; the first occurrence's options win. */
export function parsePlaceholders(content: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const p of placeholderOccurrences(content)) if (!found.some((f) => f.name === p.name)) found.push(p);
  return found;
}
