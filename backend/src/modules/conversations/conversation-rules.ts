import { badInput } from '../../common/errors/domain-error';

export const CONVERSATION_MODELS = ['gpt-4o-mini', 'grok-2-latest'] as const;
/** The client's "no model chosen" value; stored as null, which means the default model. */
export const UNSET_MODEL = 'Unset';
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;
export const MAX_NAME_LENGTH = 200;

export const SORTS = ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc'] as const;
export type ConversationSort = (typeof SORTS)[number];

/** ORDER BY per sort, as query builder terms; the id breaks ties so that paging never repeats or skips a row. */
export const ORDER_BY: Record<ConversationSort, [string, 'ASC' | 'DESC'][]> = {
  createdAt_desc: [
    ['c.createdAt', 'DESC'],
    ['c.conversation_id', 'DESC'],
  ],
  updatedAt_desc: [
    ['c.updatedAt', 'DESC'],
    ['c.conversation_id', 'DESC'],
  ],
  name_asc: [
    ['lower(c.name)', 'ASC'],
    ['c.conversation_id', 'ASC'],
  ],
  name_desc: [
    ['lower(c.name)', 'DESC'],
    ['c.conversation_id', 'DESC'],
  ],
};

/**
 * Tags arrive as the comma string the user typed or as an array; both are split on commas (a comma commits a tag
 * in the UI, so an array item holding one is two tags), trimmed, emptied pieces dropped (a trailing comma is
 * normal typing) and repeats removed, keeping the first spelling.
 */
export function normalizeTags(input: string | string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const pieces = (Array.isArray(input) ? input.join(',') : input).split(',').map((t) => t.trim());
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of pieces) {
    if (!tag || seen.has(tag)) continue;
    if (tag.length > MAX_TAG_LENGTH)
      throw badInput(`Each tag must be ${MAX_TAG_LENGTH} characters or fewer.`, 'invalid_tags');
    seen.add(tag);
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS)
    throw badInput(`A conversation can have at most ${MAX_TAGS} tags.`, 'invalid_tags');
  return tags;
}

/** undefined = leave as is; null or 'Unset' = the default model (stored as null). */
export function normalizeModel(model: string | null | undefined): string | null | undefined {
  if (model === undefined) return undefined;
  return model === null || model === UNSET_MODEL ? null : model;
}
