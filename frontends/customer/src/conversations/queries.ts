import { ApiError, api, unwrap } from '@avatar-studio/shared';
import { useQuery } from '@tanstack/react-query';
import { CONVERSATIONS_KEY } from './model';

export const conversationKey = (id: number) => [CONVERSATIONS_KEY, 'one', id] as const;
export const messagesKey = (id: number) => [CONVERSATIONS_KEY, 'messages', id] as const;

/** One conversation (shared cache of the page header and the chat). 4xx answers are not retried. */
export function useConversation(id: number) {
  return useQuery({
    queryKey: conversationKey(id),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/conversations/conversation/{conversation_id}', {
            params: { path: { conversation_id: id } },
          }),
        )
      ).conversation,
    enabled: Number.isInteger(id) && id > 0,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 3,
  });
}
