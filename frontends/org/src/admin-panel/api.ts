/** Server state of the organization's user administration. */
import { api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ORG_NS } from '../i18n';

export type MemberRow = components['schemas']['OrganizationUserRow'];
export type Membership = components['schemas']['UserOrganizationView'];
export type UserTypeId = components['schemas']['UserTypeView']['user_type_id'];

export interface MembersFilter {
  query: string;
  start_date: string;
  end_date: string;
  page: number;
}

/** Everything here starts with ['organization-users', organizationId] so one invalidation refreshes it all. */
export const memberKeys = {
  all: (organizationId: number) => ['organization-users', organizationId] as const,
  list: (organizationId: number, filter: MembersFilter) =>
    ['organization-users', organizationId, 'list', filter] as const,
  one: (organizationId: number, id: number) => ['organization-users', organizationId, 'one', id] as const,
};

/** GET /api/organizations/{id}/users?query=&start_date=&end_date=&page= */
export function useMembers(organizationId: number, filter: MembersFilter, enabled = true) {
  return useQuery({
    queryKey: memberKeys.list(organizationId, filter),
    queryFn: () =>
      unwrap(
        api.GET('/api/organizations/{id}/users', {
          params: {
            path: { id: organizationId },
            query: {
              start_date: filter.start_date,
              end_date: filter.end_date,
              page: filter.page,
              ...(filter.query ? { query: filter.query } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/user-organizations/{id} */
export function useMembership(organizationId: number, id: number | null) {
  return useQuery({
    queryKey: memberKeys.one(organizationId, id ?? 0),
    queryFn: async () =>
      (await unwrap(api.GET('/api/user-organizations/{id}', { params: { path: { id: id ?? 0 } } })))
        .user_organization,
    enabled: id !== null,
  });
}

/** DELETE /api/user-organizations/{id}, then 'User deleted from {organization}'. */
export function useRemoveMember(
  organization: { organization_id: number; name: string },
  onDone?: () => void,
) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel.remove' });
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userOrganizationId: number) =>
      unwrap(api.DELETE('/api/user-organizations/{id}', { params: { path: { id: userOrganizationId } } })),
    onSuccess: async () => {
      notifySuccess(t('done', { organization: organization.name }));
      onDone?.();
      await queryClient.invalidateQueries({ queryKey: memberKeys.all(organization.organization_id) });
    },
    onError: (error) => notifyError(error),
  });
}
