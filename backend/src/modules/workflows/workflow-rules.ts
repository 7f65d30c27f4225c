import { badInput } from '../../common/errors/domain-error';
import { deriveFields, readField, type StoredField, type TemplateField } from '../templates/template-rules';

export const MAX_NAME_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 100_000;
export const MAX_STEPS = 20;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;

/** What a workflow's fields are read from: each step's prompt and the field settings saved on its template. */
export interface FieldSource {
  content: string;
  fields?: StoredField[] | null;
}

/**
 * The workflow's form: the placeholders of its templates, step by step, each name once (the first step that
 * uses a name decides its label, type and options; `[name[a/b/c]]` makes a select), numbered 1..n.
 */
export function workflowFields(steps: FieldSource[]): TemplateField[] {
  const fields: TemplateField[] = [];
  for (const step of steps) {
    for (const field of deriveFields(step.content, undefined, step.fields ?? []).map(readField)) {
      if (!fields.some((f) => f.name === field.name)) fields.push(field);
    }
  }
  return fields.map((field, i) => ({ ...field, order: i + 1 }));
}

/** Comma string or list → trimmed, deduplicated tags, at most 20 of at most 100 characters each. */
export function normalizeTags(input: string | string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const pieces = (Array.isArray(input) ? input.join(',') : input).split(',').map((t) => t.trim());
  const tags: string[] = [];
  for (const tag of pieces) {
    if (!tag || tags.includes(tag)) continue;
    if (tag.length > MAX_TAG_LENGTH)
      throw badInput(`Each tag must be ${MAX_TAG_LENGTH} characters or fewer.`, 'invalid_tags', {
        errors: [{ field: 'tags', message: `Each tag must be ${MAX_TAG_LENGTH} characters or fewer.` }],
      });
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS)
    throw badInput(`A workflow can have at most ${MAX_TAGS} tags.`, 'invalid_tags', {
      errors: [{ field: 'tags', message: `A workflow can have at most ${MAX_TAGS} tags.` }],
    });
  return tags;
}
