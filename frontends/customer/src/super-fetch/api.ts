/**
 * Server state of the Super Fetch screen: the caller's Super Fetch assistants, the history with one assistant
 * (query keys under the organization scope), and the generating, reset and stop calls.
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
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type SuperFetchRequest = ApiSchemas['SuperFetchGenerateBody'];
export type SuperFetchHistoryMessage = ApiSchemas['SuperFetchMessageDto'];
export type SuperFetchStarted = ApiSchemas['SuperFetchGenerateResponse'];

export const superFetchKeys = {
  assistants: (scope: ScopeKey) => ['super-fetch', scope, 'assistants'] as const,
  history: (scope: ScopeKey, assistantId: string) => ['super-fetch', scope, 'history', assistantId] as const,
};

/** GET /api/avatars/super-fetch: the caller's Super Fetch assistants in the scope. */
export function useSuperFetchAssistants() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: superFetchKeys.assistants(scope),
    queryFn: async () => (await unwrap(api.GET('/api/avatars/super-fetch'))).avatars,
  });
}

/** POST /api/avatars with super_fetch_assistant: the caller's first Super Fetch assistant. */
export function useCreateSuperFetchAssistant(name: string) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    noAccess: 'premium',
    mutationFn: async () =>
      (await unwrap(api.POST('/api/avatars', { body: { name, super_fetch_assistant: true } }))).avatar,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: superFetchKeys.assistants(scope) }),
  });
}

/** GET /api/super_fetch/messages/{assistant_id}: the latest history, oldest first. */
export function useSuperFetchHistory(assistantId: string | null) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: superFetchKeys.history(scope, assistantId ?? ''),
    enabled: !!assistantId,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/super_fetch/messages/{assistant_id}', {
            params: { path: { assistant_id: assistantId ?? '' } },
          }),
        )
      ).messages,
  });
}

/** POST /api/files: the attached file, whose id the generation names. */
async function uploadAttachment(file: File): Promise<number> {
  return (await unwrap(api.POST('/api/files', { ...multipart({ file }) }))).file.file_id;
}

/** Files already uploaded this visit: a regeneration with the same file does not send it again. */
const uploaded = new WeakMap<File, number>();

export interface GenerateVariables {
  body: Omit<SuperFetchRequest, 'file_id'>;
  file: File | null;
}

/**
 * POST /api/super_fetch/v2 (after uploading the attached file once): the outputs then stream as
 * `super_fetch_outputs`; a 412 goes to /sorry.
 */
export function useGenerateSuperFetch(onStarted: (started: SuperFetchStarted) => void) {
  return useGeneratingMutation({
    mutationFn: async ({ body, file }: GenerateVariables) => {
      let file_id: number | undefined;
      if (file) {
        file_id = uploaded.get(file) ?? (await uploadAttachment(file));
        uploaded.set(file, file_id);
      }
      return unwrap(api.POST('/api/super_fetch/v2', { body: { ...body, ...(file_id ? { file_id } : {}) } }));
    },
    onSuccess: onStarted,
  });
}

/** DELETE /api/super_fetch/messages/{assistant_id}: forgets the history and what the assistant learned. */
export function useResetSuperFetch(onReset: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (assistantId: string) =>
      unwrap(
        api.DELETE('/api/super_fetch/messages/{assistant_id}', {
          params: { path: { assistant_id: assistantId } },
        }),
      ),
    onSuccess: (_answer, assistantId) => {
      void queryClient.invalidateQueries({ queryKey: superFetchKeys.history(scope, assistantId) });
      onReset();
    },
    onError: notifyError,
  });
}

/** DELETE /api/super_fetch/generations/{id}: stops one running output. */
export function stopSuperFetchOutput(generationId: string): Promise<unknown> {
  return unwrap(
    api.DELETE('/api/super_fetch/generations/{generation_id}', {
      params: { path: { generation_id: generationId } },
    }),
  );
}
