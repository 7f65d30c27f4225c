/** Server state of the setup checklist: the checklist (query key under the organization scope) and its actions. */
import { api, notifyError, unwrap, useScopeKey, type ApiSchemas, type ScopeKey } from '@avatar-studio/shared';
import type { SetupItem } from '@avatar-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type SetupChecklist = ApiSchemas['SetupChecklistResponse'];
export type SetupItemEntry = ApiSchemas['SetupItemDto'];
export type SetupTestResult = ApiSchemas['SetupTestResponse'];

export const setupKeys = {
  checklist: (scope: ScopeKey) => ['admin', 'setup', 'checklist', scope] as const,
};

/** GET /api/setup/checklist (staff admins only: `enabled` is false for anyone else). */
export function useSetupChecklist(enabled = true) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: setupKeys.checklist(scope),
    queryFn: () => unwrap(api.GET('/api/setup/checklist')),
    enabled,
    // Settings change on other screens: coming back to the checklist always reads the live state.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** POST /api/setup/test/{item}; the checklist is read again afterwards (the item's state follows the result). */
export function useSetupTest() {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: ({ item, testId }: { item: SetupItem; testId: string }) =>
      unwrap(api.POST('/api/setup/test/{item}', { params: { path: { item } }, body: { test_id: testId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupKeys.checklist(scope) }),
    onError: notifyError,
  });
}

/** DELETE /api/setup/starter-content. */
export function useRemoveStarterContent(onDone: () => void) {
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/setup/starter-content')),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: setupKeys.checklist(scope) });
      onDone();
    },
    onError: notifyError,
  });
}
