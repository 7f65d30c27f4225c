import { notifyError, useMessageStream, useRealtimeEvent } from '@avatar-studio/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useMessagePages } from '../api';
import { mergeMessages, type Message } from '../model';
import { isPendingAnswer, withStreams } from './answers';

/**
 * The messages of one conversation as the chat shows them: the loaded pages, the messages learned since
 * (sent, saved, edited, retried), and the answers streaming over the socket. On load, an answer still generating
 * shows the text saved so far and its stream resumes from there.
 */
export function useChatMessages(conversationId: number, source?: ReturnType<typeof useMessagePages>) {
  // Another screen's pages of the same messages (an avatar's thread) replace the conversation's own.
  const own = useMessagePages(source ? 0 : conversationId);
  const pages = source ?? own;
  /** Messages known since the pages loaded; they win over page copies. */
  const [live, setLive] = useState<Message[]>([]);
  /** Pending answers dropped after a generation error (the server discarded them). */
  const [dropped, setDropped] = useState<number[]>([]);

  const upsert = useCallback(
    (message: Message) =>
      setLive((prev) => [...prev.filter((m) => m.message_id !== message.message_id), message]),
    [],
  );
  const stream = useMessageStream(conversationId, {
    onEnd: (saved) => upsert(saved as Message),
  });

  const loaded = useMemo(() => pages.data?.pages.flatMap((p) => p.messages) ?? [], [pages.data]);
  const { messages, generating } = useMemo(
    () =>
      withStreams(
        mergeMessages(loaded, live).filter((m) => !dropped.includes(m.message_id)),
        stream.streams,
      ),
    [loaded, live, dropped, stream.streams],
  );

  // A loaded answer still generating (e.g. after a reload) shows its saved text and asks for the rest.
  const { resume } = stream;
  useEffect(() => {
    for (const m of loaded) if (isPendingAnswer(m)) resume(m.message_id, m.partial_content ?? '');
  }, [loaded, resume]);

  /** The send answered: the question and its answer join the list, unless the socket already brought newer. */
  const addExchange = (userMessage: Message, answer: Message) =>
    setLive((prev) => {
      const saved = prev.find((m) => m.message_id === answer.message_id && !isPendingAnswer(m));
      return [
        ...prev.filter((m) => m.message_id !== userMessage.message_id && m.message_id !== answer.message_id),
        userMessage,
        saved ?? answer,
      ];
    });

  /** A retried answer generates again as the same row. */
  const restartAnswer = (answer: Message) => {
    stream.restart(answer.message_id);
    upsert(answer);
  };

  // The error events name no message: every answer still pending here failed (the server discarded them).
  const failPending = (message: string, quiet: boolean) => {
    const failed = [...generating];
    if (failed.length === 0) return;
    if (!quiet) notifyError(message);
    stream.forget(failed);
    setDropped((prev) => [...prev, ...failed]);
  };

  const total = pages.data?.pages[0]?.total ?? 0;
  return {
    messages,
    generating,
    upsert,
    addExchange,
    restartAnswer,
    failPending,
    isPending: pages.isPending,
    hasOlder: pages.hasNextPage,
    loadingOlder: pages.isFetchingNextPage,
    loadOlder: () => {
      if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    },
    /** Every stored message of the conversation is loaded (the maximum the list can show). */
    allLoaded: !pages.isPending && !pages.hasNextPage && total > 0,
    total,
  };
}

/** Generation errors of the socket (they name no message). */
export function useGenerationErrors(onError: (message: string) => void) {
  useRealtimeEvent('openai-error', (payload) => onError(payload.message));
  useRealtimeEvent('error', (payload) => onError(payload.message));
}
