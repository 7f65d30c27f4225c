/** How the chat shows answers while they stream, after they end and after they are cut short. */
import type { AnswerStream } from '@avatar-studio/shared';
import type { Message } from '../model';

/** An answer still being produced: the server stores no content until it ends. */
export function isPendingAnswer(message: Message): boolean {
  return message.role === 'assistant' && message.content === null && message.status !== 'interrupted';
}

export interface ChatMessages {
  /** The messages as shown: a streaming answer carries the text so far (null before the first chunk). */
  messages: Message[];
  /** Answers being generated now. */
  generating: ReadonlySet<number>;
}

/**
 * The stored messages with what the socket delivered laid over them. The socket is newer than a stored copy
 * while that copy is still pending; a chunk for an answer stored as interrupted means it is generating again.
 */
export function withStreams(
  stored: readonly Message[],
  streams: ReadonlyMap<number, AnswerStream>,
): ChatMessages {
  const generating = new Set<number>();
  const messages = stored.map((message) => {
    if (message.role !== 'assistant') return message;
    const stream = streams.get(message.message_id);
    const pending = isPendingAnswer(message);
    if (stream?.status === 'streaming' && (pending || message.status === 'interrupted')) {
      generating.add(message.message_id);
      return {
        ...message,
        content: stream.text || null,
        status: 'generating' as const,
        interrupted_reason: null,
      };
    }
    if (stream?.status === 'interrupted' && pending) {
      return {
        ...message,
        content: stream.text,
        status: 'interrupted' as const,
        interrupted_reason: stream.reason,
      };
    }
    if (stream?.status === 'complete' && pending) {
      return { ...message, content: stream.text, status: 'complete' as const };
    }
    if (pending) {
      generating.add(message.message_id);
      return { ...message, content: message.partial_content || null };
    }
    return message;
  });
  return { messages, generating };
}
