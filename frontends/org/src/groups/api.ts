/** Server state of an organization's groups. */
import { api, notifyError, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type GroupRow = components['schemas']['GroupDto'];
export type GroupDetail = components['schemas']['GroupDetailDto'];

/** Everything starts with ['groups', organizationId] so one invalidation refreshes the organization's groups. */
export const groupKeys = {
  all: (organizationId: number) => ['groups', organizationId] as const,
  list: (organizationId: number, query: string) => ['groups', organizationId, 'list', query] as const,
  one: (organizationId: number, id: number) => ['groups', organizationId, 'one', id] as const,
  members: (organizationId: number) => ['groups', organizationId, 'members'] as const,
};

/** GET /api/groups/organization/{id}?query= */
export function useGroups(organizationId: number, query: string) {
  return useQuery({
    queryKey: groupKeys.list(organizationId, query),
    queryFn: () =>
      unwrap(
        api.GET('/api/groups/organization/{id}', {
          params: { path: { id: organizationId }, query: { limit: 200, ...(query ? { query } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/groups/{id} */
export function useGroup(organizationId: number, id: number) {
  return useQuery({
    queryKey: groupKeys.one(organizationId, id),
    queryFn: async () => (await unwrap(api.GET('/api/groups/{id}', { params: { path: { id } } }))).group,
  });
}

/** The organization's members, the candidates of the add-users modal (GET /api/organizations/{id}/users). */
export function useOrganizationMembers(organizationId: number, enabled: boolean) {
  return useQuery({
    queryKey: groupKeys.members(organizationId),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/organizations/{id}/users', {
            params: { path: { id: organizationId }, query: { limit: 200 } },
          }),
        )
      ).users,
    enabled,
  });
}

/** POST, PUT and DELETE /api/groups, and POST/DELETE /api/groups/users/{groupId}/{userId}. */
export function useGroupChanges(organizationId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: groupKeys.all(organizationId) });
  const options = { onSuccess: refresh, onError: (error: unknown) => notifyError(error) };
  const save = useMutation({
    mutationFn: async (group: { group_id: number | null; name: string }) =>
      (
        await unwrap(
          group.group_id === null
            ? api.POST('/api/groups', { body: { name: group.name, organization_id: organizationId } })
            : api.PUT('/api/groups', { body: { group_id: group.group_id, name: group.name } }),
        )
      ).group,
    ...options,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/groups/{id}', { params: { path: { id } } })),
    ...options,
  });
  const addUsers = useMutation({
    mutationFn: async ({ groupId, userIds }: { groupId: number; userIds: number[] }) => {
      for (const userId of userIds) {
        await unwrap(
          api.POST('/api/groups/users/{groupId}/{userId}', { params: { path: { groupId, userId } } }),
        );
      }
    },
    ...options,
  });
  const removeUser = useMutation({
    mutationFn: ({ groupId, userId }: { groupId: number; userId: number }) =>
      unwrap(api.DELETE('/api/groups/users/{groupId}/{userId}', { params: { path: { groupId, userId } } })),
    onSuccess: refresh,
    // Errors on group-user removal are only logged.
    onError: (error: unknown) => console.error(error),
  });
  return { save, remove, addUsers, removeUser };
}
