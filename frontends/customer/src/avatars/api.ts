/**
 * Server state of the avatar screens: query keys (each under the organization scope), one hook per query and one
 * per mutation. Avatar calls answer 412 with the premium sentence, shown as it is.
 */
import {
  api,
  multipart,
  notifyError,
  unwrap,
  useGeneratingMutation,
  useScopeKey,
  type ApiSchemas,
  type ScopeKey,
} from '@avatar-studio/shared';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { retryServerErrors } from '../conversations/api';
import type { Message } from '../conversations/model';
import { fetchWithUploadProgress } from './upload-progress';

export type Avatar = ApiSchemas['AvatarDto'];
export type AvatarFile = ApiSchemas['AvatarFileDto'];

const AVATARS_KEY = 'avatars';

export const avatarKeys = {
  all: (scope: ScopeKey) => [AVATARS_KEY, scope] as const,
  list: (scope: ScopeKey, community: boolean, query: string) =>
    [AVATARS_KEY, scope, 'list', { community, query }] as const,
  one: (scope: ScopeKey, id: number) => [AVATARS_KEY, scope, 'one', id] as const,
  thread: (scope: ScopeKey, id: number) => [AVATARS_KEY, scope, 'thread', id] as const,
};

/** GET /api/avatars (mine) or /api/avatars/public/all (community), searched by free text. */
export function useAvatarList(community: boolean, query: string, enabled = true) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: avatarKeys.list(scope, community, query),
    queryFn: () => {
      const params = { query: query ? { query } : {} };
      return unwrap(
        community ? api.GET('/api/avatars/public/all', { params }) : api.GET('/api/avatars', { params }),
      );
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** One avatar with its files; polled while a file is being indexed, so its state shows as it changes. */
export function useAvatar(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: avatarKeys.one(scope, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/avatars/{avatar_id}', { params: { path: { avatar_id: id } } }))).avatar,
    enabled: Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
    refetchInterval: (query) =>
      query.state.data?.avatar_files.some((f) => f.index_state === 'pending' || f.index_state === 'indexing')
        ? 1500
        : false,
  });
}

function useAvatarMutation<V, R>(
  call: (variables: V) => Promise<R>,
  onDone?: (result: R, variables: V) => void,
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: call,
    onSuccess: (result, variables) => {
      void queryClient.invalidateQueries({ queryKey: avatarKeys.all(scope) });
      onDone?.(result, variables);
    },
    onError: (error) => notifyError(error),
  });
}

export function useCreateAvatar(onCreated: (avatar: Avatar) => void) {
  return useAvatarMutation(
    async (body: { name: string; description?: string }) =>
      (await unwrap(api.POST('/api/avatars', { body }))).avatar,
    onCreated,
  );
}

export function useDeleteAvatar(onDeleted: () => void) {
  return useAvatarMutation(
    (id: number) => unwrap(api.DELETE('/api/avatars/{avatar_id}', { params: { path: { avatar_id: id } } })),
    onDeleted,
  );
}

/** PUT /api/avatars/add-context/{id}: the context (and name). */
export function useSaveContext(id: number, onSaved: () => void) {
  return useAvatarMutation(
    async (body: { context: string; name?: string }) =>
      (
        await unwrap(
          api.PUT('/api/avatars/add-context/{avatar_id}', { params: { path: { avatar_id: id } }, body }),
        )
      ).avatar,
    onSaved,
  );
}

/** POST /api/avatars/add-file/{id}/{assistant_id} (multipart), reporting upload progress (0..1). */
export function useUploadFile(avatar: Avatar, onProgress: (fraction: number) => void) {
  return useAvatarMutation(
    async (file: File) =>
      (
        await unwrap(
          api.POST('/api/avatars/add-file/{avatar_id}/{assistant_id}', {
            params: { path: { avatar_id: avatar.avatar_id, assistant_id: avatar.assistant_id } },
            ...multipart({ file }),
            fetch: fetchWithUploadProgress(onProgress),
          }),
        )
      ).file,
  );
}

export function useAddEditableFile(avatar: Avatar, onAdded: () => void) {
  return useAvatarMutation(
    async (body: { name: string; content: string }) =>
      (
        await unwrap(
          api.POST('/api/avatars/add-editable-file/{avatar_id}/{assistant_id}', {
            params: { path: { avatar_id: avatar.avatar_id, assistant_id: avatar.assistant_id } },
            body,
          }),
        )
      ).file,
    onAdded,
  );
}

export function useSaveEditableFile(onSaved: () => void) {
  return useAvatarMutation(
    async ({ id, content, name }: { id: number; content: string; name?: string }) =>
      (
        await unwrap(
          api.PUT('/api/avatars/editable-file/{file_id}', {
            params: { path: { file_id: id } },
            body: { content, ...(name ? { name } : {}) },
          }),
        )
      ).file,
    onSaved,
  );
}

export function useDeleteFile(avatar: Avatar) {
  return useAvatarMutation((file: AvatarFile) =>
    unwrap(
      api.DELETE('/api/avatars/file/{file_id}/{openai_file_id}/{assistant_id}', {
        params: {
          path: {
            file_id: file.avatar_file_id,
            openai_file_id: file.openai_file_id,
            assistant_id: avatar.assistant_id,
          },
        },
      }),
    ),
  );
}

/** The caller's thread with the avatar by page (10 per page), page 1 the newest. */
export function useThreadPages(avatarId: number) {
  const scope = useScopeKey();
  return useInfiniteQuery({
    queryKey: avatarKeys.thread(scope, avatarId),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/messages/thread/{avatar_id}/{page}', {
          params: { path: { avatar_id: avatarId, page: pageParam } },
        }),
      ),
    initialPageParam: 1,
    getNextPageParam: (last, all) =>
      all.reduce((n, p) => n + p.messages.length, 0) < last.total && last.messages.length > 0
        ? last.page + 1
        : undefined,
  });
}

/** POST /api/messages with avatar_id (no conversation: the caller's thread), streamed. */
export function useSendToAvatar(
  avatarId: number,
  onSent: (sent: { user_message: Message; message: Message }, content: string) => void,
) {
  return useGeneratingMutation({
    mutationFn: async (content: string) =>
      (await unwrap(api.POST('/api/messages', { body: { content, avatar_id: avatarId, stream: true } }))) as {
        user_message: Message;
        message: Message;
      },
    onSuccess: (sent, content) => onSent(sent, content),
  });
}

/** POST /api/messages/share: the message becomes an editable text file of the avatar. */
export function useShareToAvatar(onShared: () => void) {
  return useAvatarMutation(
    ({ message_id, avatar_id }: { message_id: number; avatar_id: number }) =>
      unwrap(api.POST('/api/messages/share', { body: { message_id, avatar_id } })),
    onShared,
  );
}

/** Apply a template with an avatar: the rendered template goes to the caller's thread with it. */
export function useApplyWithAvatar(avatarId: number, onSent: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: (body: { template_id: number; values: Record<string, string> }) =>
      unwrap(api.POST('/api/messages', { body: { ...body, avatar_id: avatarId, stream: true } })),
    onSuccess: () => {
      // The thread shown beside the form reloads with the new exchange; its answer's stream is picked up there.
      void queryClient.invalidateQueries({ queryKey: avatarKeys.thread(scope, avatarId) });
      onSent();
    },
  });
}
