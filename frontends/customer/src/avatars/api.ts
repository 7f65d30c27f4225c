/**
 * Server state of the avatar screens: query keys (each under the organization scope), one hook per query and one
 * per mutation. Avatar calls answer 412 with the premium sentence, shown as it is.
 */
import {
  api,
  ApiError,
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

/**
 * POST /api/avatars/user-message/document-request (multipart): a message with a document, answered in the thread
 * like any message to the avatar (streamed).
 */
export function useSendDocumentToAvatar(
  avatarId: number,
  onSent: (sent: { user_message: Message; message: Message }, input: { message: string; file: File }) => void,
) {
  return useGeneratingMutation({
    mutationFn: async ({ message, file }: { message: string; file: File }) =>
      (await unwrap(
        api.POST('/api/avatars/user-message/document-request', {
          ...multipart({ file, avatar_id: String(avatarId), message }),
        }),
      )) as { user_message: Message; message: Message },
    onSuccess: (sent, input) => onSent(sent, input),
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

// ---------------------------------------------------------------- trainings and outputs

export type Training = ApiSchemas['TrainingDto'];
export type TrainingPage = ApiSchemas['TrainingPageResponse'];
export type Output = ApiSchemas['OutputDto'];

export const trainingKeys = {
  all: (scope: ScopeKey) => [AVATARS_KEY, scope, 'trainings'] as const,
  ofAvatar: (scope: ScopeKey, avatarId: number) => [AVATARS_KEY, scope, 'trainings', avatarId] as const,
  outputs: (scope: ScopeKey, avatarId: number, query: string) =>
    [AVATARS_KEY, scope, 'outputs', avatarId, { query }] as const,
};

/** A call refused for lack of access (412) leads to /sorry; other failures are shown. */
export function isNoAccess(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

/** GET /api/trainings?avatar_id: the avatar's trainings (and whether the scope's own AI key pays for runs). */
export function useTrainings(avatarId: number, enabled = true) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: trainingKeys.ofAvatar(scope, avatarId),
    queryFn: () => unwrap(api.GET('/api/trainings', { params: { query: { avatar_id: avatarId } } })),
    enabled,
    retry: retryServerErrors,
  });
}

function useTrainingMutation<V, R>(
  avatarId: number,
  call: (variables: V) => Promise<R>,
  handlers: { onDone?: (result: R, variables: V) => void; onNoAccess: () => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: call,
    onSuccess: (result, variables) => {
      void queryClient.invalidateQueries({ queryKey: trainingKeys.ofAvatar(scope, avatarId) });
      void queryClient.invalidateQueries({ queryKey: avatarKeys.one(scope, avatarId) });
      handlers.onDone?.(result, variables);
    },
    onError: (error) => (isNoAccess(error) ? handlers.onNoAccess() : notifyError(error)),
  });
}

/** Uploads the dataset (POST /api/files, with progress) and creates the training with its file_id. */
export function useCreateTraining(
  avatarId: number,
  onProgress: (fraction: number) => void,
  handlers: { onDone: () => void; onNoAccess: () => void },
) {
  return useTrainingMutation(
    avatarId,
    async ({ name, file }: { name: string; file: File }) => {
      const stored = await unwrap(
        api.POST('/api/files', { ...multipart({ file }), fetch: fetchWithUploadProgress(onProgress) }),
      );
      const file_id = stored.file.file_id;
      return (await unwrap(api.POST('/api/trainings', { body: { name, avatar_id: avatarId, file_id } })))
        .training;
    },
    handlers,
  );
}

export type TrainingAction = 'execute' | 'sync' | 'refine';

/** POST /api/trainings/execute | sync | refine {training_id}. */
export function useTrainingAction(
  avatarId: number,
  handlers: { onDone: (action: TrainingAction) => void; onNoAccess: () => void },
) {
  return useTrainingMutation(
    avatarId,
    async ({ action, training_id }: { action: TrainingAction; training_id: number }) => {
      const body = { training_id };
      const call =
        action === 'execute'
          ? api.POST('/api/trainings/execute', { body })
          : action === 'sync'
            ? api.POST('/api/trainings/sync', { body })
            : api.POST('/api/trainings/refine', { body });
      return (await unwrap(call)).training;
    },
    { onDone: (_r, v) => handlers.onDone(v.action), onNoAccess: handlers.onNoAccess },
  );
}

export function useDeleteTraining(
  avatarId: number,
  handlers: { onDone: () => void; onNoAccess: () => void },
) {
  return useTrainingMutation(
    avatarId,
    (training_id: number) =>
      unwrap(api.DELETE('/api/trainings/{training_id}', { params: { path: { training_id } } })),
    handlers,
  );
}

/** GET /api/outputs/avatar/{id}?query: the caller's outputs of the avatar, newest first. */
export function useOutputs(avatarId: number, query: string) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: trainingKeys.outputs(scope, avatarId, query),
    queryFn: () =>
      unwrap(
        api.GET('/api/outputs/avatar/{avatar_id}', {
          params: { path: { avatar_id: avatarId }, query: query ? { query } : {} },
        }),
      ),
    placeholderData: keepPreviousData,
    retry: retryServerErrors,
  });
}

function useOutputMutation<V, R>(
  avatarId: number,
  call: (variables: V) => Promise<R>,
  handlers: { onDone?: (result: R) => void; onNoAccess: () => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: [AVATARS_KEY, scope, 'outputs', avatarId] });
      handlers.onDone?.(result);
    },
    onError: (error) => (isNoAccess(error) ? handlers.onNoAccess() : notifyError(error)),
  });
}

/** POST /api/outputs/generate: the text then arrives on the `output` event. */
export function useGenerateOutput(avatarId: number, handlers: { onNoAccess: () => void }) {
  return useOutputMutation(
    avatarId,
    async (body: { prompt: string; training_id?: number }) =>
      (await unwrap(api.POST('/api/outputs/generate', { body: { avatar_id: avatarId, ...body } }))).output,
    handlers,
  );
}

export function useRateOutput(avatarId: number, handlers: { onDone: () => void; onNoAccess: () => void }) {
  return useOutputMutation(
    avatarId,
    async (body: { output_id: number; rating: 'up' | 'down'; note?: string }) =>
      (await unwrap(api.POST('/api/outputs/rate', { body }))).output,
    handlers,
  );
}

export function useSaveOutput(avatarId: number, handlers: { onDone: () => void; onNoAccess: () => void }) {
  return useOutputMutation(
    avatarId,
    async (body: { output_id: number; content: string }) =>
      (await unwrap(api.PUT('/api/outputs', { body }))).output,
    handlers,
  );
}

export function useDeleteOutput(avatarId: number, handlers: { onDone: () => void; onNoAccess: () => void }) {
  return useOutputMutation(
    avatarId,
    (output_id: number) =>
      unwrap(api.DELETE('/api/outputs/{output_id}', { params: { path: { output_id } } })),
    handlers,
  );
}

/** POST /api/avatars/refine {avatar_id}: the avatar's context rewritten from its rated outputs (reloaded after). */
export function useRefineAvatar(avatarId: number, handlers: { onDone: () => void; onNoAccess: () => void }) {
  return useTrainingMutation(
    avatarId,
    async () => (await unwrap(api.POST('/api/avatars/refine', { body: { avatar_id: avatarId } }))).avatar,
    { onDone: handlers.onDone, onNoAccess: handlers.onNoAccess },
  );
}

export interface CombineInput {
  target_avatar_id: number;
  target_training_id: number;
  name: string;
}

/** POST /api/avatars/combine: a new avatar from this one and another (with a training of the other's). */
export function useCombineAvatars(
  selectedAvatarId: number,
  handlers: { onDone: (made: Avatar) => void; onNoAccess: () => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: async (input: CombineInput) =>
      (
        await unwrap(
          api.POST('/api/avatars/combine', { body: { selected_avatar_id: selectedAvatarId, ...input } }),
        )
      ).avatar,
    onSuccess: (made) => {
      void queryClient.invalidateQueries({ queryKey: avatarKeys.all(scope) });
      handlers.onDone(made);
    },
    onError: (error) => (isNoAccess(error) ? handlers.onNoAccess() : notifyError(error)),
  });
}
