/**
 * Chat routes being built now (enhance, conversation file, PDF/Word export, share), typed against their agreed
 * contract until `npm run openapi` brings them into the generated schema. Generated paths win (the Omit), so
 * this file only fills what is missing and can go once every route below is generated.
 */
import type { Client } from 'openapi-fetch';
import { api, type ApiPaths, type Op, type Route } from '@avatar-studio/shared';
import type { Conversation } from './model';

/** A conversation's attached file (spec 001 §3 "file attachment"). */
export interface ConversationFile {
  file_id: number;
  name: string;
  type: string;
  size: number;
}

/** A link the web search used for an answer. */
export interface MessageSource {
  title: string;
  url: string;
}

type ConversationWithFile = Conversation & { file: ConversationFile | null };

interface PendingPaths {
  '/api/messages/enhance': Route<{
    post: Op<
      { enhance_id: string | number; content: string | null },
      { content: string; model?: string | null; stream: boolean },
      { organization_id?: string },
      never,
      200 | 201
    >;
  }>;
  '/api/conversations/file/{conversation_id}': Route<{
    post: Op<
      { conversation: ConversationWithFile },
      { file?: string },
      { organization_id?: string },
      { conversation_id: number },
      200 | 201
    >;
    delete: Op<
      { conversation: ConversationWithFile },
      never,
      { organization_id?: string },
      { conversation_id: number }
    >;
  }>;
  '/api/messages/pdf': Route<{ post: Op<Blob, { text: string }, { organization_id?: string }, never, 200 | 201> }>;
  '/api/messages/word': Route<{
    post: Op<Blob, { text: string }, { organization_id?: string }, never, 200 | 201>;
  }>;
  '/api/messages/share': Route<{
    post: Op<{ document: unknown }, { message_id: number }, { organization_id?: string }, never, 200 | 201>;
  }>;
}

/** The one API client, typed with the pending routes too. */
export const chatApi = api as unknown as Client<ApiPaths & Omit<PendingPaths, keyof ApiPaths>>;

/** The conversation's attached file, read defensively until the generated ConversationDto has it. */
export function conversationFile(conversation: Conversation | undefined): ConversationFile | null {
  const file = (conversation as { file?: ConversationFile | null } | undefined)?.file;
  return file && typeof file.name === 'string' ? file : null;
}

/** The links a web search used for an answer, read defensively until the generated MessageDto has them. */
export function messageSources(message: object): MessageSource[] {
  const sources = (message as { sources?: unknown }).sources;
  if (!Array.isArray(sources)) return [];
  return sources.filter(
    (s): s is MessageSource =>
      typeof s === 'object' && s !== null && isWebUrl((s as MessageSource).url),
  );
}

/** Only http(s) links are shown: a javascript: or data: URL from a search result must never become a link. */
function isWebUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
