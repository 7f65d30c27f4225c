import type { OutputPayload, TrainingProgressPayload } from './trainings';

/**
 * The real-time event map, typed once for the server that emits and the screens that listen. Only events the
 * server really sends are declared; a feature adds its event here when it starts sending it.
 */

/**
 * A payload as the server may build it: wherever the client receives a string, the server may put a Date (it
 * crosses the socket as JSON, so a Date arrives as its ISO string).
 */
export type Outgoing<T> = T extends string
  ? string extends T
    ? string | Date
    : T
  : T extends readonly (infer U)[]
    ? Outgoing<U>[]
    : T extends object
      ? { [K in keyof T]: Outgoing<T[K]> }
      : T;

/** A web page an answer written with web search cites. */
export interface MessageSource {
  title: string;
  /** An http(s) link. */
  url: string;
}

/** A passage of an avatar's file that an answer was given (its citation, shown under the answer). */
export interface MessageCitation {
  avatar_file_id: number;
  /** The file's name. */
  file_name: string;
  /** The passage's text. */
  passage: string;
}

export const MESSAGE_STATUSES = ['generating', 'complete', 'interrupted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A stored message as the socket delivers it (the same fields as the API's MessageDto). */
export interface StreamedMessage {
  message_id: number;
  conversation_id: number;
  user_id: number;
  role: 'user' | 'assistant';
  content: string | null;
  finish_reason: string | null;
  favorite: boolean;
  user_message_id: number | null;
  message_type_id: number | null;
  model: string | null;
  words: number;
  sources: MessageSource[] | null;
  /** On an avatar's answer: the passages of its files it was given; null otherwise. */
  citations: MessageCitation[] | null;
  /**
   * 'generating' while the answer is produced (content null), 'complete' once saved, 'interrupted' when it ended
   * without completing (content then holds the text produced so far, '' when none). User messages are 'complete'.
   */
  status: MessageStatus;
  /** Why an interrupted answer stopped, as a sentence for people; null otherwise. */
  interrupted_reason: string | null;
  /** ISO date-time. */
  createdAt: string;
  /** ISO date-time. */
  updatedAt: string;
}

export interface MessageStreamPayload {
  conversation_id: number;
  message_id: number;
  /**
   * The index in the answer's full text where `content` starts. Apply a chunk only where it extends the text
   * shown (offset <= its length; skip the overlap); offset > its length is a gap: ask with `stream_resume`.
   */
  offset: number;
  /** The text added since the previous event (several tokens batched together). */
  content: string;
}

export interface MessageStreamEndPayload {
  conversation_id: number;
  /**
   * The stored message row, written once at the end of the stream. Its content is the whole answer: the stream's
   * last words may come only with this event (they go out on their own only when saving takes longer than a
   * stream event's interval), so a client shows this text, not what the chunks added up to.
   */
  message: StreamedMessage;
}

/**
 * An answer ended without completing (crash of the instance generating it, shutdown drain timeout, provider
 * failure after some text...). The stored row now has status 'interrupted' and this content.
 */
export interface MessageInterruptedPayload {
  conversation_id: number;
  message_id: number;
  /** The text produced so far; '' when none. */
  content: string;
  /** Why it stopped, as a sentence for people. */
  reason: string;
}

/** A piece of an improved prompt (POST /api/messages/enhance); nothing is stored as a message. */
export interface MessageStreamEnhancePayload {
  enhance_id: string;
  /** The text added since the previous event (several tokens batched together). */
  content: string;
}

export interface MessageStreamEnhanceEndPayload {
  enhance_id: string;
  /** The whole improved prompt. */
  content: string;
}

/**
 * A document generation's text (POST /api/documents/{id}/generate): pieces with the offset where each starts,
 * then one event with `done: true` whose content is the whole text. Nothing is stored: the editor inserts it.
 */
export interface DocumentOutputPayload {
  document_id: number;
  generation_id: string;
  content: string;
  offset: number;
  done: boolean;
}

/**
 * An avatar's answer for a document (POST /api/documents/avatar-output): pieces with the offset where each
 * starts, then one event with `done: true` whose content is the whole answer. Nothing is stored: the editor
 * inserts it.
 */
export interface DocumentAvatarPayload {
  document_id: number;
  avatar_id: number;
  generation_id: string;
  content: string;
  offset: number;
  done: boolean;
}

/**
 * One Super Fetch output's text (POST /api/super_fetch, /api/super_fetch/v2): pieces with the offset where each
 * starts, then one event with `done: true` whose content is the whole text and whose message_id is the saved
 * history entry. `index` numbers the outputs of one request from 0.
 */
export interface SuperFetchOutputsPayload {
  request_id: string;
  generation_id: string;
  index: number;
  assistant_id: string;
  content: string;
  offset: number;
  done: boolean;
  message_id: number | null;
}

/**
 * A topic or hashtag generation's text (POST /api/topics/generate, /api/hashtags/generate): pieces, then one
 * event with `done: true` carrying the saved history entry's id and the whole text.
 */
export interface IdeasOutputPayload {
  generation_id: string;
  kind: 'topics' | 'hashtags';
  content: string;
  offset: number;
  done: boolean;
  /** The saved history entry, on the `done` event. */
  idea_id: number | null;
}

/**
 * A workflow step's status changed (event `message`). A type alias rather than an interface
 * so that it stays assignable to `Record<string, unknown>` for readers that narrow it themselves.
 */
export type WorkflowStepPayload = {
  user_workflow_id: number;
  user_workflow_template_id: number;
  conversation_id: number;
  status: 'pending' | 'generating' | 'done' | 'failed';
};

/** New messages of the caller's thread with an avatar (the question and the saved answer). */
export interface ThreadMessagesPayload {
  avatar_id: number;
  conversation_id: number;
  messages: StreamedMessage[];
}

export interface RealtimeErrorPayload {
  statusCode: number;
  message: string;
}

export interface OpenAiErrorPayload {
  message: string;
}

/** A piece of the AI provider check's one-line answer, streamed to the staff admin who pressed Test. */
export interface SetupTestOutputPayload {
  /** The id the test request sent, so a screen shows only its own test's text. */
  test_id: string;
  delta: string;
}

/** Server → client events with their payloads. */
export interface ServerToClientEvents {
  message: (payload: WorkflowStepPayload) => void;
  message_stream: (payload: MessageStreamPayload) => void;
  message_stream_end: (payload: MessageStreamEndPayload) => void;
  message_interrupted: (payload: MessageInterruptedPayload) => void;
  message_stream_enhance: (payload: MessageStreamEnhancePayload) => void;
  message_stream_enhance_end: (payload: MessageStreamEnhanceEndPayload) => void;
  document_output: (payload: DocumentOutputPayload) => void;
  document_avatar: (payload: DocumentAvatarPayload) => void;
  /** Topics and hashtags stream on events of their own, so each feature's flag gates its own. */
  topics_output: (payload: IdeasOutputPayload) => void;
  hashtags_output: (payload: IdeasOutputPayload) => void;
  super_fetch_outputs: (payload: SuperFetchOutputsPayload) => void;
  thread_messages: (payload: ThreadMessagesPayload) => void;
  output: (payload: OutputPayload) => void;
  training_progress: (payload: TrainingProgressPayload) => void;
  setup_test_output: (payload: SetupTestOutputPayload) => void;
  error: (payload: RealtimeErrorPayload) => void;
  'openai-error': (payload: OpenAiErrorPayload) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** The answer to join_room. */
export type JoinRoomAck = { ok: true } | { ok: false; error: 'forbidden' };

/**
 * Asks for an answer's text from `offset` on: sent on socket (re)connect for every answer shown as generating,
 * and on a gap. The server answers on the user's room with `message_stream` (the text from `offset` to now, then
 * the live deltas continue), `message_stream_end` when the answer is complete, or `message_interrupted`. Only
 * the answer's owner gets anything back.
 */
export interface StreamResumePayload {
  message_id: number;
  offset: number;
}

/** Client → server events. The room is sent as a string (`user-{user_id}`) or as `{ room }`. */
export interface ClientToServerEvents {
  join_room: (room: string | { room: string }, ack?: (answer: JoinRoomAck) => void) => void;
  stream_resume: (payload: StreamResumePayload) => void;
}

export const SERVER_EVENTS = [
  'message',
  'message_stream',
  'message_stream_end',
  'message_interrupted',
  'message_stream_enhance',
  'message_stream_enhance_end',
  'document_output',
  'document_avatar',
  'topics_output',
  'hashtags_output',
  'super_fetch_outputs',
  'thread_messages',
  'output',
  'training_progress',
  'setup_test_output',
  'error',
  'openai-error',
] as const satisfies readonly ServerEventName[];

export const CLIENT_EVENTS = ['join_room', 'stream_resume'] as const;

/** The one room a user's sockets are in; the server joins it on connection. */
export function userRoom(user_id: number): string {
  return `user-${user_id}`;
}
