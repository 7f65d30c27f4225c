/**
 * The real-time event map (DESIGN §4, spec 002 §7), typed once. It lives with the backend (whose build
 * only compiles backend/src) and frontends/shared re-exports it by relative path, like permissions.ts; so
 * keep it free of imports: only types, the event names and one pure helper.
 */

/** A loosely typed payload: the feature that first emits the event defines its fields. */
export interface FeaturePayload {
  [key: string]: unknown;
}

export interface MessageStreamPayload {
  conversation_id: number | string;
  message_id: number | string;
  /** The text added since the previous event (several tokens batched together). */
  content: string;
}

export interface MessageStreamEndPayload {
  conversation_id: number | string;
  /** The stored message row, written once at the end of the stream. */
  message: FeaturePayload;
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
 * A workflow step's status changed (`message`, spec 001 §2 user workflows). A type alias rather than an interface
 * so that it stays assignable to `Record<string, unknown>` for readers that narrow it themselves.
 */
export type WorkflowStepPayload = {
  user_workflow_id: number;
  user_workflow_template_id: number;
  conversation_id: number;
  status: 'pending' | 'generating' | 'done' | 'failed';
};

export interface RealtimeErrorPayload {
  statusCode: number;
  message: string;
}

export interface OpenAiErrorPayload {
  message: string;
}

/** Server → client events with their payloads. */
export interface ServerToClientEvents {
  output: (payload: FeaturePayload) => void;
  message: (payload: WorkflowStepPayload) => void;
  message_stream: (payload: MessageStreamPayload) => void;
  message_stream_end: (payload: MessageStreamEndPayload) => void;
  message_stream_enhance: (payload: MessageStreamEnhancePayload) => void;
  message_stream_enhance_end: (payload: MessageStreamEnhanceEndPayload) => void;
  thread_messages: (payload: FeaturePayload) => void;
  super_fetch_outputs: (payload: FeaturePayload) => void;
  document_output: (payload: FeaturePayload) => void;
  document_avatar: (payload: FeaturePayload) => void;
  error: (payload: RealtimeErrorPayload) => void;
  'openai-error': (payload: OpenAiErrorPayload) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** The answer to join_room. */
export type JoinRoomAck = { ok: true } | { ok: false; error: 'forbidden' };

/** Client → server events. The room is sent as a string (`user-{user_id}`) or as `{ room }`. */
export interface ClientToServerEvents {
  join_room: (room: string | { room: string }, ack?: (answer: JoinRoomAck) => void) => void;
}

export const SERVER_EVENTS = [
  'output',
  'message',
  'message_stream',
  'message_stream_end',
  'message_stream_enhance',
  'message_stream_enhance_end',
  'thread_messages',
  'super_fetch_outputs',
  'document_output',
  'document_avatar',
  'error',
  'openai-error',
] as const satisfies readonly ServerEventName[];

export const CLIENT_EVENTS = ['join_room'] as const;

/** The one room a user's sockets are in; the server joins it on connection. */
export function userRoom(user_id: number): string {
  return `user-${user_id}`;
}
