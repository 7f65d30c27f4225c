/**
 * Server state of the conversation screens: query keys (each under the organization scope, so data of one
 * organization never shows in another), one hook per query and one per mutation.
 */
import {
  ApiError,
  api,
  multipart,
  notifyError,
  unwrap,
  useGeneratingMutation,
  useScopeKey,
  type ScopeKey,
} from '@avatar-studio/shared';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { fieldError } from './errors';
import {
  CONVERSATIONS_KEY,
  modelValue,
  type Conversation,
  type ConversationSort,
  type Message,
} from './model';

export interface ConversationListFilter {
  query: string;
  sortBy: ConversationSort;
  archived: boolean;
  tag?: string;
  page: number;
}

export const conversationKeys = {
  all: (scope: ScopeKey) => [CONVERSATIONS_KEY, scope] as const,
  list: (scope: ScopeKey, filter?: ConversationListFilter) =>
    filter
      ? ([CONVERSATIONS_KEY, scope, 'list', filter] as const)
      : ([CONVERSATIONS_KEY, scope, 'list'] as const),
  tags: (scope: ScopeKey, archived?: boolean) =>
    archived === undefined
      ? ([CONVERSATIONS_KEY, scope, 'tags'] as const)
      : ([CONVERSATIONS_KEY, scope, 'tags', { archived }] as const),
  one: (scope: ScopeKey, id: number) => [CONVERSATIONS_KEY, scope, 'one', id] as const,
  messages: (scope: ScopeKey, id: number) => [CONVERSATIONS_KEY, scope, 'messages', id] as const,
};

/** The models offered do not depend on the organization's data scope of a screen's lists. */
export const AI_MODELS_KEY = ['ai', 'models'] as const;

/** 4xx answers (missing, not yours, bad id) are final: no retries before showing "not found". */
export const retryServerErrors = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

/** GET /api/conversations: one page of the caller's conversations. */
export function useConversationList(filter: ConversationListFilter, enabled: boolean) {
  const scope = useScopeKey();
  const { query, sortBy, archived, tag, page } = filter;
  return useQuery({
    queryKey: conversationKeys.list(scope, filter),
    queryFn: () =>
      unwrap(
        api.GET('/api/conversations', {
          params: {
            query: {
              page,
              sortBy,
              archived: archived ? 'true' : 'false',
              ...(query ? { query } : {}),
              ...(tag ? { tags: tag } : {}),
            },
          },
        }),
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/conversations/tags: the tags of the caller's conversations with their counts. */
export function useConversationTags(archived: boolean, enabled: boolean) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: conversationKeys.tags(scope, archived),
    queryFn: () =>
      unwrap(
        api.GET('/api/conversations/tags', { params: { query: { archived: archived ? 'true' : 'false' } } }),
      ),
    enabled,
  });
}

/** One conversation (shared cache of the page header and the chat). 4xx answers are not retried. */
export function useConversation(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: conversationKeys.one(scope, id),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/conversations/conversation/{conversation_id}', {
            params: { path: { conversation_id: id } },
          }),
        )
      ).conversation,
    enabled: Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
  });
}

/** The conversation's messages by page, page 1 the newest; older pages follow while fewer than the total. */
export function useMessagePages(id: number) {
  const scope = useScopeKey();
  return useInfiniteQuery({
    queryKey: conversationKeys.messages(scope, id),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/messages/conversation/{conversation_id}', {
          params: { path: { conversation_id: id }, query: { page: pageParam } },
        }),
      ),
    initialPageParam: 1,
    enabled: Number.isInteger(id) && id > 0,
    getNextPageParam: (last, all) =>
      all.reduce((n, p) => n + p.messages.length, 0) < last.total && last.messages.length > 0
        ? last.page + 1
        : undefined,
  });
}

/** GET /api/ai/models: the models the configuration offers. */
export function useAiModels() {
  return useQuery({
    queryKey: AI_MODELS_KEY,
    queryFn: () => unwrap(api.GET('/api/ai/models')),
    staleTime: 5 * 60 * 1000,
  });
}

export interface ConversationFields {
  name: string;
  tags: string[];
  model: string;
}

/** POST /api/conversations (starting a conversation needs access like sending). */
export function useCreateConversation(handlers: {
  onCreated: (conversation: Conversation) => void;
  onNoAccess: () => void;
}) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async (values: ConversationFields) =>
      (
        await unwrap(
          api.POST('/api/conversations', {
            body: { name: values.name, tags: values.tags, model: modelValue(values.model) },
          }),
        )
      ).conversation,
    onSuccess: (conversation) => {
      void queryClient.invalidateQueries({ queryKey: conversationKeys.all(scope) });
      handlers.onCreated(conversation);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) handlers.onNoAccess();
    },
    // A name refused by the server shows under the field, not as an alert.
    showError: (error) => {
      if (!fieldError(error, 'name')) notifyError(error);
    },
  });
}

/** PUT /api/conversations: name, tags, model and the archived flag. */
export function useUpdateConversation(
  id: number,
  handlers: { onSaved: (saved: Conversation) => void; onNoAccess: () => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async (values: ConversationFields & { archived: boolean }) =>
      (
        await unwrap(
          api.PUT('/api/conversations', {
            body: {
              conversation_id: id,
              name: values.name,
              tags: values.tags,
              model: modelValue(values.model),
              archived: values.archived,
            },
          }),
        )
      ).conversation,
    onSuccess: (saved) => {
      queryClient.setQueryData(conversationKeys.one(scope, id), saved);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list(scope) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.tags(scope) });
      handlers.onSaved(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) handlers.onNoAccess();
    },
    showError: (error) => {
      if (!fieldError(error, 'name')) notifyError(error);
    },
  });
}

/** DELETE /api/conversations/{id} (irreversible). */
export function useDeleteConversation(id: number, handlers: { onDeleted: () => void; onFailed: () => void }) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/conversations/{conversation_id}', { params: { path: { conversation_id: id } } }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: conversationKeys.one(scope, id) });
      queryClient.removeQueries({ queryKey: conversationKeys.messages(scope, id) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.all(scope) });
      handlers.onDeleted();
    },
    onError: handlers.onFailed,
  });
}

export interface SendRequest {
  content: string;
  /** Sent only when it differs from the conversation's own model ('Unset' asks for the default). */
  model?: string;
  searchOnInternet?: boolean;
}

/** POST /api/messages with stream: the user's message and the pending answer, which then streams. */
export function useSendMessage(
  conversationId: number,
  onSent: (sent: { user_message: Message; message: Message }, content: string) => void,
  unexpectedAnswer: string,
) {
  return useGeneratingMutation({
    mutationFn: async ({ content, model, searchOnInternet }: SendRequest) => {
      const sent = await unwrap(
        api.POST('/api/messages', {
          body: {
            content,
            conversation_id: conversationId,
            stream: true,
            ...(model !== undefined ? { model } : {}),
            ...(searchOnInternet ? { searchOnInternet: true } : {}),
          },
        }),
      );
      // Only a request with `enhance: true` answers the other shape (EnhanceResponse); this one never does.
      if (!('message' in sent)) throw new Error(unexpectedAnswer);
      return sent;
    },
    onSuccess: (sent, { content }) => onSent(sent, content),
  });
}

/** POST /api/messages/{id}/retry: the caller's interrupted answer generates again (the same row). */
export function useRetryAnswer(onRetried: (message: Message) => void) {
  return useGeneratingMutation({
    mutationFn: async (messageId: number) =>
      (
        await unwrap(
          api.POST('/api/messages/{message_id}/retry', { params: { path: { message_id: messageId } } }),
        )
      ).message,
    onSuccess: onRetried,
  });
}

/** POST /api/messages/enhance with stream: the improved prompt arrives over the socket (or whole). */
export function useEnhanceRequest(handlers: {
  onStart: (content: string) => void;
  onAnswer: (answer: { enhance_id: string | number; content: string | null }) => void;
  onFailed: () => void;
}) {
  return useGeneratingMutation({
    mutationFn: ({ content, model }: { content: string; model?: string }) =>
      unwrap(
        api.POST('/api/messages/enhance', { body: { content, stream: true, ...(model ? { model } : {}) } }),
      ),
    onMutate: ({ content }) => handlers.onStart(content),
    onSuccess: handlers.onAnswer,
    onError: handlers.onFailed,
  });
}

/** PUT /api/messages: the favorite flag. */
export function useToggleMessageFavorite(onSaved: (message: Message) => void) {
  return useMutation({
    mutationFn: async (message: Message) =>
      (
        await unwrap(
          api.PUT('/api/messages', { body: { message_id: message.message_id, favorite: !message.favorite } }),
        )
      ).message,
    onSuccess: onSaved,
    onError: (error) => notifyError(error),
  });
}

/** PUT /api/messages: a message's text (the bubble stays in edit mode while this fails). */
export function useEditMessage(onSaved: (message: Message) => void) {
  return useGeneratingMutation({
    mutationFn: async ({ message, content }: { message: Message; content: string }) =>
      (await unwrap(api.PUT('/api/messages', { body: { message_id: message.message_id, content } }))).message,
    onSuccess: onSaved,
  });
}

export type ExportFormat = 'pdf' | 'word';

/** POST /api/messages/pdf or /word: the document as a blob. */
export function useExportMessage(onExported: (blob: Blob, format: ExportFormat) => void) {
  return useGeneratingMutation({
    mutationFn: async ({ message, format }: { message: Message; format: ExportFormat }) => {
      const body = { text: message.content ?? '' };
      const blob =
        format === 'pdf'
          ? await unwrap(api.POST('/api/messages/pdf', { body, parseAs: 'blob' }))
          : await unwrap(api.POST('/api/messages/word', { body, parseAs: 'blob' }));
      return blob;
    },
    onSuccess: (blob, { format }) => onExported(blob, format),
  });
}

/** POST /api/messages/share: the answer becomes a shared document. */
/** POST /api/messages/share: the message becomes an editable text file of one of the caller's avatars. */
export function useShareMessage(onShared: () => void) {
  return useGeneratingMutation({
    mutationFn: ({ message, avatarId }: { message: Message; avatarId: number }) =>
      unwrap(
        api.POST('/api/messages/share', { body: { message_id: message.message_id, avatar_id: avatarId } }),
      ),
    onSuccess: onShared,
  });
}

/** POST /api/conversations/file/{id} (multipart field `file`): the conversation's one file. */
export function useAttachFile(conversationId: number, onAttached: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async (file: File) =>
      (
        await unwrap(
          api.POST('/api/conversations/file/{conversation_id}', {
            params: { path: { conversation_id: conversationId } },
            ...multipart({ file }),
          }),
        )
      ).conversation,
    onSuccess: (saved) => {
      queryClient.setQueryData(conversationKeys.one(scope, conversationId), saved);
      onAttached();
    },
  });
}

/** DELETE /api/conversations/file/{id}. */
export function useDetachFile(conversationId: number, onDetached: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/conversations/file/{conversation_id}', {
          params: { path: { conversation_id: conversationId } },
        }),
      ),
    onSuccess: (answer) => {
      if (answer?.conversation)
        queryClient.setQueryData(conversationKeys.one(scope, conversationId), answer.conversation);
      else void queryClient.invalidateQueries({ queryKey: conversationKeys.one(scope, conversationId) });
      onDetached();
    },
  });
}
