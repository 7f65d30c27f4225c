/**
 * Server state of the workflow screens: query keys (each under the organization scope, so data of one
 * organization never shows in another), one hook per query and one per mutation.
 */
import {
  api,
  isNoAccess,
  unwrap,
  useGeneratingMutation,
  useRealtimeEvent,
  useScopeKey,
  type ScopeKey,
} from '@avatar-studio/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  USER_WORKFLOWS_KEY,
  WORKFLOWS_KEY,
  applyStepStatus,
  isBusy,
  readStepStatusEvent,
  retryServerErrors,
  type UserWorkflow,
} from './model';

export const workflowKeys = {
  list: (scope: ScopeKey, filter: { query: string; tag: string | null; page: number }) =>
    [WORKFLOWS_KEY, scope, 'list', filter] as const,
  one: (scope: ScopeKey, id: number) => [WORKFLOWS_KEY, scope, 'one', id] as const,
};

export const userWorkflowKeys = {
  list: (scope: ScopeKey, page?: number) =>
    page === undefined
      ? ([USER_WORKFLOWS_KEY, scope, 'list'] as const)
      : ([USER_WORKFLOWS_KEY, scope, 'list', { page }] as const),
  one: (scope: ScopeKey, id: number) => [USER_WORKFLOWS_KEY, scope, 'one', id] as const,
  messages: (scope: ScopeKey, conversationId: number) =>
    [USER_WORKFLOWS_KEY, scope, 'messages', conversationId] as const,
};

/** While a step is still pending or generating, re-read now and then in case a socket event was missed. */
const BUSY_REFRESH_MS = 10_000;

/** GET /api/workflows: a page of the catalogue, by search and tag. */
export function useWorkflowList(filter: { query: string; tag: string | null; page: number }) {
  const scope = useScopeKey();
  const { query, tag, page } = filter;
  return useQuery({
    queryKey: workflowKeys.list(scope, filter),
    queryFn: () =>
      unwrap(
        api.GET('/api/workflows', {
          params: { query: { page, ...(query ? { query } : {}), ...(tag ? { tag } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/workflows/{id} (null = none: the query waits). */
export function useWorkflow(id: number | null) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: workflowKeys.one(scope, id ?? 0),
    queryFn: async () =>
      (await unwrap(api.GET('/api/workflows/{workflow_id}', { params: { path: { workflow_id: id ?? 0 } } })))
        .workflow,
    enabled: id !== null && Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
  });
}

/** POST /api/user_workflows: starts a workflow with its field values (its steps then generate). */
export function useStartWorkflow(
  workflowId: number,
  handlers: { onStarted: (userWorkflow: UserWorkflow) => void; onNoAccess: () => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async (values: Record<string, string>) =>
      (await unwrap(api.POST('/api/user_workflows', { body: { workflow_id: workflowId, values } })))
        .user_workflow,
    onSuccess: (userWorkflow) => {
      queryClient.setQueryData(userWorkflowKeys.one(scope, userWorkflow.user_workflow_id), userWorkflow);
      void queryClient.invalidateQueries({ queryKey: userWorkflowKeys.list(scope) });
      handlers.onStarted(userWorkflow);
    },
    onError: (error) => {
      if (isNoAccess(error)) handlers.onNoAccess();
    },
  });
}

/** GET /api/user_workflows: a page of the caller's own workflows, newest first. */
export function useUserWorkflowList(page: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: userWorkflowKeys.list(scope, page),
    queryFn: () => unwrap(api.GET('/api/user_workflows', { params: { query: { page } } })),
    placeholderData: keepPreviousData,
  });
}

/** The user workflow query, kept live by the step status (`message`) and stream-end socket events. */
export function useUserWorkflow(id: number) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const valid = Number.isInteger(id) && id > 0;
  const key = userWorkflowKeys.one(scope, id);
  const query = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/user_workflows/{user_workflow_id}', {
            params: { path: { user_workflow_id: id } },
          }),
        )
      ).user_workflow,
    enabled: valid,
    retry: retryServerErrors,
    refetchInterval: (q) =>
      q.state.data?.user_workflow_templates.some((s) => isBusy(s.status)) ? BUSY_REFRESH_MS : false,
  });

  useRealtimeEvent('message', (payload) => {
    const event = readStepStatusEvent(payload);
    if (!event || event.user_workflow_id !== id) return;
    queryClient.setQueryData<UserWorkflow>(key, (old) => old && applyStepStatus(old, event));
    // The event carries no error text and no timestamps: read the saved row once the step has ended.
    if (!isBusy(event.status)) void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: userWorkflowKeys.list(scope) });
  });
  useRealtimeEvent('message_stream_end', (payload) => {
    const steps = query.data?.user_workflow_templates ?? [];
    if (steps.some((s) => s.conversation_id === Number(payload.conversation_id))) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  });
  return { query, valid };
}

/** PUT /api/user_workflows: the field values (the steps are not generated again by this). */
export function useSaveWorkflowValues(id: number, handlers: { onSaved: () => void; onNoAccess: () => void }) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async (values: Record<string, string>) =>
      (await unwrap(api.PUT('/api/user_workflows', { body: { user_workflow_id: id, values } })))
        .user_workflow,
    onSuccess: (saved) => {
      queryClient.setQueryData(userWorkflowKeys.one(scope, id), saved);
      handlers.onSaved();
    },
    onError: (error) => {
      if (isNoAccess(error)) handlers.onNoAccess();
    },
  });
}

/** DELETE /api/user_workflows/{id}. */
export function useDeleteUserWorkflow(
  id: number,
  handlers: { onDeleted: () => void; onFailed: (error: Error) => void },
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/user_workflows/{user_workflow_id}', {
          params: { path: { user_workflow_id: id } },
        }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: userWorkflowKeys.one(scope, id) });
      void queryClient.invalidateQueries({ queryKey: userWorkflowKeys.list(scope) });
      handlers.onDeleted();
    },
    onError: handlers.onFailed,
  });
}

/** The first page of messages of a step's conversation (its generated content). */
export function useStepMessages(conversationId: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: userWorkflowKeys.messages(scope, conversationId),
    queryFn: () =>
      unwrap(
        api.GET('/api/messages/conversation/{conversation_id}', {
          params: { path: { conversation_id: conversationId }, query: { page: 1 } },
        }),
      ),
    retry: retryServerErrors,
  });
}

/** POST /api/user_workflows/{id}/regenerate/{conversation_id}: the step generates again from scratch. */
export function useRegenerateStep(
  id: number,
  conversationId: number,
  onRegenerated: (saved: UserWorkflow) => void,
) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: async () =>
      (
        await unwrap(
          api.POST('/api/user_workflows/{user_workflow_id}/regenerate/{conversation_id}', {
            params: { path: { user_workflow_id: id, conversation_id: conversationId } },
          }),
        )
      ).user_workflow,
    onSuccess: (saved) => {
      queryClient.setQueryData(userWorkflowKeys.one(scope, id), saved);
      onRegenerated(saved);
      void queryClient.invalidateQueries({ queryKey: userWorkflowKeys.messages(scope, conversationId) });
    },
  });
}
