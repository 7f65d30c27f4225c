import { badInput } from '../../common/errors/domain-error';
import {
  EMPTY,
  INCOMPLETE,
  LABEL_TOO_LONG,
  MAX_LABEL_LENGTH,
  REPEATED_FIELDS,
  SELECT_NEEDS_OPTION,
  parsePlaceholders,
  replacePlaceholders,
} from './template-grammar';

export {
  EMPTY,
  INCOMPLETE,
  LABEL_TOO_LONG,
  MAX_LABEL_LENGTH,
  REPEATED_FIELDS,
  SELECT_NEEDS_OPTION,
  parsePlaceholders,
} from './template-grammar';
export type { Placeholder } from './template-grammar';

export const FIELD_TYPES = ['text', 'number', 'select'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const LANGUAGES = ['en', 'es'] as const;
export type TemplateLanguage = (typeof LANGUAGES)[number];
export const SORTS = ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc'] as const;
export type TemplateSort = (typeof SORTS)[number];

export const MAX_NAME_LENGTH = 200;
export const MAX_TYPE_LENGTH = 100;
export const MAX_TAG_LENGTH = 100;
export const MAX_TAGS = 20;
export const MAX_FIELDS = 100;

/** ORDER BY per sort, as query builder terms; the id breaks ties so that paging never repeats or skips a row. */
export const ORDER_BY: Record<TemplateSort, [string, 'ASC' | 'DESC'][]> = {
  createdAt_desc: [
    ['t.createdAt', 'DESC'],
    ['t.template_id', 'DESC'],
  ],
  updatedAt_desc: [
    ['t.updatedAt', 'DESC'],
    ['t.template_id', 'DESC'],
  ],
  name_asc: [
    ['lower(t.name)', 'ASC'],
    ['t.template_id', 'ASC'],
  ],
  name_desc: [
    ['lower(t.name)', 'DESC'],
    ['t.template_id', 'DESC'],
  ],
};

/** A field as the API shows it: options as a list, `value` the default (the first option of a select). */
export interface TemplateField {
  name: string;
  label: string;
  type: FieldType;
  options: string[];
  order: number;
  value: string;
}

/** A field as stored in templates.fields: options in the spec's slash-joined form ("a/b/c/"). */
export interface StoredField {
  name: string;
  label: string;
  type: FieldType;
  options: string;
  order: number;
}

/** A field setting sent by the client; everything but the name is optional. */
export interface FieldInput {
  name: string;
  label?: string;
  type?: FieldType;
  options?: string[] | string;
  order?: number;
}

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Writing rule: every option followed by "/" ("a/b/c/"), the stored form. Reading rule: split on
 * "/" and drop the last piece, the one after the final slash, as a trailing separator. So "a/b/c/" reads as
 * [a, b, c] and a legacy "a/b" without the trailing slash reads as [a]. Options therefore cannot contain "/".
 */
export function joinOptions(options: string[]): string {
  return options.map((o) => `${o}/`).join('');
}

export function splitOptions(stored: string | null | undefined): string[] {
  if (!stored) return [];
  return stored.split('/').slice(0, -1);
}

export function readField(stored: StoredField): TemplateField {
  const options = stored.type === 'select' ? splitOptions(stored.options) : [];
  return {
    name: stored.name,
    label: stored.label,
    type: stored.type,
    options,
    order: stored.order,
    value: options[0] ?? '',
  };
}

/** Placeholder names in order of first appearance: "[a] [b] [a]" gives [a, b]. Blank brackets are not fields. */
export function placeholders(content: string): string[] {
  return parsePlaceholders(content).map((p) => p.name);
}

/** The names among `names` whose value is missing or blank: applying a template needs every value. */
export function missingValues(names: string[], values: Record<string, unknown>): string[] {
  return names.filter((name) => typeof values[name] !== 'string' || !(values[name] as string).trim());
}

/** The prompt with every placeholder (either form) replaced by its value; unknown names are left as written. */
export function renderTemplate(content: string, values: Record<string, string>): string {
  return replacePlaceholders(content, (match) => {
    const value = values[match.rawName.trim()];
    return typeof value === 'string' ? value.trim() : content.slice(match.start, match.end);
  });
}

/**
 * The template's fields: one per placeholder in the content (the content is the source of truth, so settings for
 * names no longer in it are dropped), with the settings given for that name, else the previous ones, else a
 * text field labelled with its name. Sorted by the given order (placeholder position when none; a given order wins
 * a tie), renumbered 1..n.
 * `given` is the request's list, checked here; `previous` is what was stored (already valid).
 */
export function deriveFields(
  content: string,
  given: FieldInput[] | undefined,
  previous: StoredField[] = [],
  errors: FieldError[] = [],
): StoredField[] {
  const byName = new Map<string, { input: FieldInput; index: number }>();
  given?.forEach((input, index) => {
    const name = input.name.trim();
    if (byName.has(name)) {
      if (!errors.some((e) => e.message === REPEATED_FIELDS))
        errors.push({ field: 'content', message: REPEATED_FIELDS });
    } else byName.set(name, { input, index });
  });
  const found = parsePlaceholders(content);
  const names = found.map((p) => p.name);
  if (names.length > MAX_FIELDS)
    errors.push({ field: 'content', message: `A template can have at most ${MAX_FIELDS} fields.` });
  const fields = names.map((name, position) => {
    const entry = byName.get(name);
    if (!entry) {
      const old = previous.find((f) => f.name === name);
      const embedded = found[position].options;
      return {
        field: old ?? (embedded ? selectField(name, embedded) : textField(name)),
        sortKey: position + 1,
      };
    }
    const { input, index } = entry;
    const at = `fields.${index}`;
    const label = input.label === undefined ? name : input.label.trim();
    if (!label) errors.push({ field: `${at}.label`, message: EMPTY });
    else if (label.length > MAX_LABEL_LENGTH) errors.push({ field: `${at}.label`, message: LABEL_TOO_LONG });
    const type = input.type ?? 'text';
    let options: string[] = [];
    if (type === 'select') {
      options = (typeof input.options === 'string' ? splitOptions(input.options) : (input.options ?? [])).map(
        (o) => o.trim(),
      );
      if (options.length === 0) errors.push({ field: `${at}.options`, message: SELECT_NEEDS_OPTION });
      options.forEach((o, i) => {
        if (!o) errors.push({ field: `${at}.options.${i}`, message: EMPTY });
        else if (o.includes('/'))
          errors.push({ field: `${at}.options.${i}`, message: 'An option cannot contain "/".' });
      });
    }
    return {
      field: { name, label, type, options: joinOptions(options), order: 0 },
      sortKey: input.order ?? position + 1,
      explicit: input.order !== undefined,
    };
  });
  // On a tie, a field whose order was given claims the place before one that only has its position.
  return fields
    .map((f, position) => ({ explicit: false, ...f, position }))
    .sort(
      (a, b) => a.sortKey - b.sortKey || Number(b.explicit) - Number(a.explicit) || a.position - b.position,
    )
    .map(({ field }, i) => ({ ...field, order: i + 1 }));
}

function textField(name: string): StoredField {
  return { name, label: name, type: 'text', options: '', order: 0 };
}

function selectField(name: string, options: string[]): StoredField {
  return { name, label: name, type: 'select', options: joinOptions(options), order: 0 };
}

/** The required texts: each missing one is its own error; a name over the column size is refused too. */
export function checkRequired(
  values: { name?: string | null; description?: string | null; content?: string | null },
  errors: FieldError[],
): void {
  for (const key of ['name', 'description', 'content'] as const) {
    if (!values[key]?.trim()) errors.push({ field: key, message: EMPTY });
  }
  if ((values.name?.trim().length ?? 0) > MAX_NAME_LENGTH)
    errors.push({ field: 'name', message: `The input max length is ${MAX_NAME_LENGTH} characters` });
}

/**
 * One 400 for every problem, so the form can mark each field. The message is the spec's alert when a required
 * text is missing, else the first problem's own sentence.
 */
export function throwIfInvalid(errors: FieldError[]): void {
  if (!errors.length) return;
  const missing = errors.some(
    (e) => ['name', 'description', 'content'].includes(e.field) && e.message === EMPTY,
  );
  throw badInput(missing ? INCOMPLETE : errors[0].message, 'validation_failed', { errors });
}

/** Comma string or list → trimmed, deduplicated tags (same reading as conversation tags). */
export function normalizeTags(input: string | string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const pieces = (Array.isArray(input) ? input.join(',') : input).split(',').map((t) => t.trim());
  const tags: string[] = [];
  for (const tag of pieces) {
    if (!tag || tags.includes(tag)) continue;
    if (tag.length > MAX_TAG_LENGTH)
      throw badInput(`Each tag must be ${MAX_TAG_LENGTH} characters or fewer.`, 'invalid_tags');
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS) throw badInput(`A template can have at most ${MAX_TAGS} tags.`, 'invalid_tags');
  return tags;
}
