/** Server state of the invitee's side of organization invitations. */
import { ApiError, MEMBERSHIPS_QUERY_KEY, api, notifyError, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type MyInvitation = components['schemas']['MyInvitationView'];

/** Kept under the memberships key, so it survives an organization switch like the memberships do. */
export const INVITATIONS_QUERY_KEY = [...MEMBERSHIPS_QUERY_KEY, 'invitations'] as const;

/** GET /api/organization-invitations: the caller's pending invitations. */
export function useMyInvitations() {
  return useQuery({
    queryKey: INVITATIONS_QUERY_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/organization-invitations'))).invitations,
  });
}

type Answer =
  { kind: 'token'; token: string } | { kind: 'accept'; id: number } | { kind: 'decline'; id: number };

/** Accepts (by emailed token or by id) or declines; then the memberships and the list refresh. */
export function useAnswerInvitation(onDone: (answer: Answer) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (answer: Answer): Promise<number | null> => {
      if (answer.kind === 'token') {
        const res = await unwrap(
          api.POST('/api/organization-invitations/accept', { body: { token: answer.token } }),
        );
        return res.organization_id;
      }
      if (answer.kind === 'accept') {
        const res = await unwrap(
          api.POST('/api/organization-invitations/{id}/accept', { params: { path: { id: answer.id } } }),
        );
        return res.organization_id;
      }
      await unwrap(
        api.POST('/api/organization-invitations/{id}/decline', { params: { path: { id: answer.id } } }),
      );
      return null;
    },
    onSuccess: async (_organizationId, answer) => {
      await queryClient.invalidateQueries({ queryKey: MEMBERSHIPS_QUERY_KEY });
      onDone(answer);
    },
    onError: (error, answer) => {
      // A spent, foreign or expired emailed link is explained on the screen itself.
      if (answer.kind === 'token' && error instanceof ApiError && [404, 410].includes(error.status)) return;
      notifyError(error);
    },
  });
}
