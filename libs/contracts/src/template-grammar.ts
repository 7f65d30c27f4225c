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
 * templates). Options here are plain slash-separated, without the stored form's trailing slash. Formally, the
 * leftmost non-overlapping matches of /\[([^[\]]+)(?:\[([^[\]]*)\])?\]/g, found by a scanner that reads each
 * character at most twice (a backtracking regex is not needed, and user content can be megabytes long).
 */
export interface Placeholder {
  name: string;
  /** Embedded options, or null for a plain placeholder. */
  options: string[] | null;
}

/** One placeholder as written: `content.slice(start, end)`, its raw name and raw options (null: none). */
export interface PlaceholderMatch {
  start: number;
  end: number;
  rawName: string;
  rawOptions: string | null;
}

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]

/** The index of the first `[` or `]` at or after `from`, or the length when there is none. */
function nextBracket(content: string, from: number): number {
  for (let i = from; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === OPEN || c === CLOSE) return i;
  }
  return content.length;
}

/** Every placeholder as written, in order; linear in the content's length. */
export function scanPlaceholders(content: string): PlaceholderMatch[] {
  const found: PlaceholderMatch[] = [];
  let at = content.indexOf('[');
  while (at >= 0) {
    // The name runs to the next bracket and cannot be empty.
    const nameEnd = nextBracket(content, at + 1);
    if (nameEnd === content.length) break;
    if (nameEnd > at + 1) {
      const rawName = content.slice(at + 1, nameEnd);
      if (content.charCodeAt(nameEnd) === CLOSE) {
        found.push({ start: at, end: nameEnd + 1, rawName, rawOptions: null });
        at = content.indexOf('[', nameEnd + 1);
        continue;
      }
      // `[name[` : options run to the next bracket, which must be `]`, followed by a second `]`.
      const optionsEnd = nextBracket(content, nameEnd + 1);
      if (content.charCodeAt(optionsEnd) === CLOSE && content.charCodeAt(optionsEnd + 1) === CLOSE) {
        const rawOptions = content.slice(nameEnd + 1, optionsEnd);
        found.push({ start: at, end: optionsEnd + 2, rawName, rawOptions });
        at = content.indexOf('[', optionsEnd + 2);
        continue;
      }
    }
    // No placeholder starts here; none can start before the bracket that ended the name.
    at = content.indexOf('[', nameEnd);
  }
  return found;
}

/** Every placeholder occurrence, in order, repeats included (names trimmed; blank brackets are not fields). */
export function placeholderOccurrences(content: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const match of scanPlaceholders(content)) {
    const name = match.rawName.trim();
    if (!name) continue;
    const options =
      match.rawOptions === null
        ? null
        : match.rawOptions
            .split('/')
            .map((o) => o.trim())
            .filter(Boolean);
    found.push({ name, options: options?.length ? options : null });
  }
  return found;
}

/** Placeholders in order of first appearance, deduplicated by name; the first occurrence's options win. */
export function parsePlaceholders(content: string): Placeholder[] {
  const byName = new Map<string, Placeholder>();
  for (const p of placeholderOccurrences(content)) if (!byName.has(p.name)) byName.set(p.name, p);
  return [...byName.values()];
}

/** `content` with each placeholder (either form) replaced by `replace`'s answer for it, in one pass. */
export function replacePlaceholders(content: string, replace: (match: PlaceholderMatch) => string): string {
  const parts: string[] = [];
  let kept = 0;
  for (const match of scanPlaceholders(content)) {
    parts.push(content.slice(kept, match.start), replace(match));
    kept = match.end;
  }
  parts.push(content.slice(kept));
  return parts.join('');
}
