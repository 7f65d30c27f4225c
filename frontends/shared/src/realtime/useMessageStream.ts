import { useCallback, useRef, useState } from 'react';
import type { MessageInterruptedPayload, StreamedMessage } from './events';
import { emitRealtime, useRealtimeConnect, useRealtimeEvent } from './socket';

/** What the socket has delivered for one answer of the watched conversation. */
export interface AnswerStream {
  /** The answer's text from its start, as far as it arrived without a gap. */
  text: string;
  /** 'streaming' until the server ends it ('complete') or reports it cut short ('interrupted'). */
  status: 'streaming' | 'complete' | 'interrupted';
  /** Why an interrupted answer stopped (the server's sentence). */
  reason: string | null;
}

export interface MessageStreamHandlers {
  /** The saved answer at the end of its stream. */
  onEnd?: (message: StreamedMessage) => void;
  /** An answer that ended without completing, with its text so far and the reason. */
  onInterrupted?: (payload: MessageInterruptedPayload) => void;
}

export interface MessageStreamControl {
  /** Answers of the conversation by message id, including ones the page has not learned of yet. */
  streams: ReadonlyMap<number, AnswerStream>;
  /**
   * Follows an answer known to be generating (a reload shows it with the text saved so far): keeps the longer of
   * that text and what already arrived, and asks the server for the rest.
   */
  resume: (messageId: number, textSoFar: string) => void;
  /** An ended answer generates again (a retry): its old text goes; chunks that already arrived stay. */
  restart: (messageId: number) => void;
  /** Forgets answers (all when no ids are given), e.g. after the server discarded them. */
  forget: (messageIds?: readonly number[]) => void;
}

/**
 * A chunk applied to the text shown: a chunk starting at `offset` extends the text when it starts within it (the
 * overlap is skipped); one starting beyond it is a gap, which leaves the text as it is.
 */
export function applyChunk(text: string, offset: number, content: string): { text: string; gap: boolean } {
  if (offset > text.length) return { text, gap: true };
  const fresh = content.slice(text.length - offset);
  return { text: fresh ? text + fresh : text, gap: false };
}

/**
 * The one reader of streamed answers (chat and workflow screens). It keeps every delta of the conversation by
 * message id, so text that arrives before the request that started the answer has answered is not lost; applies
 * chunks by offset; asks for a resume on a gap and, for every answer still streaming, on each socket
 * (re)connect; and turns the end and interruption events into the answer's final state.
 */
export function useMessageStream(
  conversationId: number,
  handlers: MessageStreamHandlers = {},
): MessageStreamControl {
  const [streams, setStreams] = useState<ReadonlyMap<number, AnswerStream>>(() => new Map());
  // The latest map, read and written synchronously: several events may arrive before the next render.
  const latest = useRef(streams);
  /** Answers whose resume was asked at a text length, so a burst of chunks past a gap asks once. */
  const asked = useRef(new Map<number, number>());

  const update = useCallback((change: (draft: Map<number, AnswerStream>) => void) => {
    const next = new Map(latest.current);
    change(next);
    latest.current = next;
    setStreams(next);
  }, []);

  const askResume = useCallback((messageId: number, offset: number) => {
    if (asked.current.get(messageId) === offset) return;
    if (emitRealtime('stream_resume', { message_id: messageId, offset }))
      asked.current.set(messageId, offset);
  }, []);

  useRealtimeEvent('message_stream', (payload) => {
    if (Number(payload.conversation_id) !== conversationId) return;
    const messageId = Number(payload.message_id);
    const content = typeof payload.content === 'string' ? payload.content : '';
    const known = latest.current.get(messageId);
    // A chunk for an answer that had ended belongs to a new generation of it (a retry): it starts again from 0.
    const base = known?.status === 'streaming' ? known.text : '';
    // A server without offsets sends each chunk right after the previous one.
    const offset = typeof payload.offset === 'number' ? payload.offset : base.length;
    const applied = applyChunk(base, offset, content);
    if (applied.gap) askResume(messageId, base.length);
    if (known?.status === 'streaming' && applied.text === known.text) return;
    update((draft) => draft.set(messageId, { text: applied.text, status: 'streaming', reason: null }));
  });

  useRealtimeEvent('message_stream_end', (payload) => {
    if (Number(payload.conversation_id) !== conversationId) return;
    const saved = payload.message as StreamedMessage;
    asked.current.delete(saved.message_id);
    update((draft) =>
      draft.set(saved.message_id, { text: saved.content ?? '', status: 'complete', reason: null }),
    );
    handlers.onEnd?.(saved);
  });

  useRealtimeEvent('message_interrupted', (payload) => {
    if (Number(payload.conversation_id) !== conversationId) return;
    const messageId = Number(payload.message_id);
    asked.current.delete(messageId);
    update((draft) =>
      draft.set(messageId, { text: payload.content ?? '', status: 'interrupted', reason: payload.reason }),
    );
    handlers.onInterrupted?.(payload);
  });

  // A socket that was down missed deltas: every answer still streaming asks for the text from where it stands.
  useRealtimeConnect(() => {
    asked.current.clear();
    for (const [messageId, stream] of latest.current) {
      if (stream.status === 'streaming') askResume(messageId, stream.text.length);
    }
  });

  const resume = useCallback(
    (messageId: number, textSoFar: string) => {
      const known = latest.current.get(messageId);
      if (known && known.status !== 'streaming') return;
      const text = known && known.text.length >= textSoFar.length ? known.text : textSoFar;
      if (!known || known.text !== text) {
        update((draft) => draft.set(messageId, { text, status: 'streaming', reason: null }));
      }
      askResume(messageId, text.length);
    },
    [askResume, update],
  );

  const restart = useCallback(
    (messageId: number) => {
      if (latest.current.get(messageId)?.status === 'streaming') return;
      asked.current.delete(messageId);
      update((draft) => draft.set(messageId, { text: '', status: 'streaming', reason: null }));
    },
    [update],
  );

  const forget = useCallback(
    (messageIds?: readonly number[]) => {
      update((draft) => {
        for (const id of messageIds ?? [...draft.keys()]) {
          draft.delete(id);
          asked.current.delete(id);
        }
      });
    },
    [update],
  );

  return { streams, resume, restart, forget };
}
