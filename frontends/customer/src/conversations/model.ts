/** Types and pure helpers of the chats screens. */
import type { ApiPaths, ApiSchemas } from '@avatar-studio/shared';

export type Conversation = ApiSchemas['ConversationDto'];
export type Message = ApiSchemas['MessageDto'];
export type ConversationSort = NonNullable<
  NonNullable<ApiPaths['/api/conversations']['get']['parameters']['query']>['sortBy']
>;

/** The model values the API takes ('Unset' = none chosen, stored as null). */
export type ConversationModel = NonNullable<ApiSchemas['CreateConversationBody']['model']>;

export const SORT_OPTIONS: readonly ConversationSort[] = [
  'createdAt_desc',
  'updatedAt_desc',
  'name_asc',
  'name_desc',
];
/** The models a conversation can use; 'Unset' stores null (the default model, gpt-4o-mini). */
export const MODEL_OPTIONS: readonly ConversationModel[] = ['gpt-4o-mini', 'grok-2-latest'];
export const UNSET_MODEL: ConversationModel = 'Unset';

/** The form's model as the API takes it: null for Unset (the default model). */
export function modelValue(model: string): ConversationModel | null {
  return model === UNSET_MODEL || !MODEL_OPTIONS.includes(model as ConversationModel)
    ? null
    : (model as ConversationModel);
}
/** The maximum estimated tokens of a message. */
export const MAX_TOKENS = 7500;
/** A conversation card shows up to 3 tags. */
export const CARD_TAGS = 3;

export const CONVERSATIONS_KEY = 'conversations';

/** The token estimate is the length divided by 4, rounded. */
export function estimateTokens(text: string): number {
  return Math.round(text.length / 4);
}

/** A message needs at least 1 character and no more than the maximum of estimated tokens. */
export function canSend(text: string): boolean {
  return text.trim().length > 0 && estimateTokens(text) <= MAX_TOKENS;
}

export function splitTags(tags: string | null | undefined): string[] {
  return (tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Messages merged without duplicates (the later copy wins) and sorted by creation time. */
export function mergeMessages(...lists: Message[][]): Message[] {
  const byId = new Map<number, Message>();
  for (const list of lists) for (const m of list) byId.set(m.message_id, m);
  return [...byId.values()].sort(
    (a, b) =>
      new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.message_id - b.message_id,
  );
}

/** Enhance needs more than 12 characters and no more than the maximum. */
export const ENHANCE_MIN_LENGTH = 12;
export function canEnhance(text: string): boolean {
  return text.trim().length > ENHANCE_MIN_LENGTH && estimateTokens(text) <= MAX_TOKENS;
}

/** The file types a conversation accepts. */
export const ATTACHMENT_EXTENSIONS = ['docx', 'pdf', 'pptx', 'txt', 'jpeg', 'jpg', 'png', 'webp'] as const;
export const ATTACHMENT_ACCEPT = ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`).join(',');
export function isAllowedAttachment(name: string): boolean {
  const dot = name.lastIndexOf('.');
  const ext = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return (ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext);
}

/** A file name is shown truncated at 30 characters. */
export const FILE_NAME_MAX = 30;
export function truncateFileName(name: string): string {
  return name.length > FILE_NAME_MAX ? `${name.slice(0, FILE_NAME_MAX)}…` : name;
}

/** A link the web search used for an answer. */
export type MessageSource = NonNullable<Message['sources']>[number];

/** The links shown under an answer: only http(s) ones, so a javascript: or data: URL never becomes a link. */
export function messageSources(message: Pick<Message, 'sources'>): MessageSource[] {
  return (message.sources ?? []).filter((source) => isWebUrl(source.url));
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
