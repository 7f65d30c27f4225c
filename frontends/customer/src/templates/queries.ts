import { ApiError, api, unwrap, useGeneratingMutation, useScopeKey } from '@avatar-studio/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { conversationKeys } from '../conversations/api';
import { TEMPLATES_KEY } from './model';

export const templateKey = (id: number) => [TEMPLATES_KEY, 'one', id] as const;

const noRetryOn4xx = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

/** One template (4xx answers are not retried: a missing or hidden template is final). */
export function useTemplate(id: number) {
  return useQuery({
    queryKey: templateKey(id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/templates/{template_id}', { params: { path: { template_id: id } } })))
        .template,
    enabled: Number.isInteger(id) && id > 0,
    retry: noRetryOn4xx,
  });
}

export interface ApplyRequest {
  templateId: number;
  values: Record<string, string>;
}

/**
 * Applies a template in a conversation: the server fills the placeholders itself (the prompt may be hidden from
 * the user) and streams the answer over the real-time channel. The conversation's messages are reloaded so that
 * the chat shows the question and the pending answer. A 412 (no paid access) goes to /sorry (001 §8).
 */
export function useApplyTemplate(conversationId: number, onApplied?: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useGeneratingMutation({
    mutationFn: ({ templateId, values }: ApplyRequest) =>
      unwrap(
        api.POST('/api/messages', {
          body: { conversation_id: conversationId, template_id: templateId, values, stream: true },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: conversationKeys.messages(scope, conversationId) });
      onApplied?.();
    },
  });
}
