/** Server state of campaigns: lists, one campaign, its resources and who it is given to. */
import { api, multipart, notifyError, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import type {
  CampaignResourceList,
  CampaignResourceType,
  CampaignSort,
} from '@avatar-studio/contracts/campaigns';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type Campaign = components['schemas']['CampaignDto'];
export type CampaignDetail = components['schemas']['CampaignDetailDto'];
export type CampaignResourceItem = components['schemas']['CampaignResourceItem'];

/** Everything starts with ['campaigns', organizationId] so one invalidation refreshes the organization's campaigns. */
export const campaignKeys = {
  all: (organizationId: number) => ['campaigns', organizationId] as const,
  list: (organizationId: number, query: string, sortBy: CampaignSort) =>
    ['campaigns', organizationId, 'list', query, sortBy] as const,
  one: (organizationId: number, id: number) => ['campaigns', organizationId, 'one', id] as const,
  resources: (organizationId: number, id: number, list: CampaignResourceList, query: string) =>
    ['campaigns', organizationId, 'resources', id, list, query] as const,
  candidates: (organizationId: number, list: CampaignResourceList, query: string) =>
    ['campaigns', organizationId, 'candidates', list, query] as const,
};

/** GET /api/campaigns/organization/{id}?query=&sortBy= */
export function useCampaigns(organizationId: number, query: string, sortBy: CampaignSort) {
  return useQuery({
    queryKey: campaignKeys.list(organizationId, query, sortBy),
    queryFn: () =>
      unwrap(
        api.GET('/api/campaigns/organization/{id}', {
          params: {
            path: { id: organizationId },
            query: { sortBy, limit: 200, ...(query ? { query } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/campaigns/{id} */
export function useCampaign(organizationId: number, id: number) {
  return useQuery({
    queryKey: campaignKeys.one(organizationId, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/campaigns/{id}', { params: { path: { id } } }))).campaign,
  });
}

/** GET /api/campaigns/{id}/resources?resources=&query= */
export function useCampaignResources(
  organizationId: number,
  id: number,
  list: CampaignResourceList,
  query: string,
) {
  return useQuery({
    queryKey: campaignKeys.resources(organizationId, id, list, query),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/campaigns/{id}/resources', {
            params: { path: { id }, query: { resources: list, ...(query ? { query } : {}) } },
          }),
        )
      ).resources,
    placeholderData: keepPreviousData,
  });
}

/** The caller's documents, or the templates they can read, in the organization (what can be added). */
export function useResourceCandidates(organizationId: number, list: CampaignResourceList, query: string) {
  return useQuery({
    queryKey: campaignKeys.candidates(organizationId, list, query),
    queryFn: async (): Promise<{ id: number; name: string }[]> => {
      const params = { query: { limit: 50, ...(query ? { query } : {}) } };
      if (list === 'documents') {
        const page = await unwrap(api.GET('/api/documents', { params }));
        return page.documents.map((d) => ({ id: d.document_id, name: d.name }));
      }
      const page = await unwrap(api.GET('/api/templates', { params }));
      return page.templates.map((t) => ({ id: t.template_id, name: t.name }));
    },
    placeholderData: keepPreviousData,
  });
}

export interface CampaignForm {
  name: string;
  description: string;
  thumbnail: File | null;
  removeThumbnail: boolean;
}

/** POST /api/campaigns or PUT /api/campaigns (multipart, with the thumbnail file). */
export function useSaveCampaign(organizationId: number, campaignId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: CampaignForm) => {
      const fields = { name: form.name, description: form.description, thumbnail: form.thumbnail };
      const result =
        campaignId === null
          ? await unwrap(
              api.POST('/api/campaigns', {
                ...multipart({ ...fields, organization_id: String(organizationId) }),
              }),
            )
          : await unwrap(
              api.PUT('/api/campaigns', {
                ...multipart({
                  ...fields,
                  campaign_id: String(campaignId),
                  remove_thumbnail: form.removeThumbnail && !form.thumbnail ? '' : null,
                }),
              }),
            );
      return result.campaign;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all(organizationId) }),
    onError: (error) => notifyError(error),
  });
}

/** DELETE /api/campaigns/campaign/{id} */
export function useDeleteCampaign(organizationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/campaigns/campaign/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all(organizationId) }),
    onError: (error) => notifyError(error),
  });
}

/** POST /api/campaigns/campaign-resource and DELETE /api/campaigns/campaign-resource/{type}/{resource_id}/{campaign_id} */
export function useCampaignResourceChanges(organizationId: number, campaignId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: campaignKeys.all(organizationId) });
  const add = useMutation({
    mutationFn: (link: { resource_id: number; type: CampaignResourceType }) =>
      unwrap(api.POST('/api/campaigns/campaign-resource', { body: { ...link, campaign_id: campaignId } })),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const remove = useMutation({
    mutationFn: (link: { resource_id: number; type: CampaignResourceType }) =>
      unwrap(
        api.DELETE('/api/campaigns/campaign-resource/{type}/{resource_id}/{campaign_id}', {
          params: { path: { ...link, campaign_id: campaignId } },
        }),
      ),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  return { add, remove };
}

export type Grantee = { user_id: number } | { group_id: number };

/** POST /api/campaigns/give-access/{campaign_id} and /revoke-access/{campaign_id} */
export function useCampaignAccess(organizationId: number, campaignId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: campaignKeys.all(organizationId) });
  const path = { params: { path: { campaign_id: campaignId } } };
  const give = useMutation({
    mutationFn: (to: Grantee) =>
      unwrap(api.POST('/api/campaigns/give-access/{campaign_id}', { ...path, body: to })),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const revoke = useMutation({
    mutationFn: (from: Grantee) =>
      unwrap(api.POST('/api/campaigns/revoke-access/{campaign_id}', { ...path, body: from })),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  return { give, revoke };
}

/** The organization's members and groups, for giving a campaign (GET /api/organizations/{id}/users, /api/groups/organization/{id}). */
export function useGrantCandidates(organizationId: number) {
  const members = useQuery({
    queryKey: ['campaigns', organizationId, 'members'],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/organizations/{id}/users', {
            params: { path: { id: organizationId }, query: { limit: 200 } },
          }),
        )
      ).users,
  });
  const groups = useQuery({
    queryKey: ['campaigns', organizationId, 'groups'],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/groups/organization/{id}', {
            params: { path: { id: organizationId }, query: { limit: 200 } },
          }),
        )
      ).groups,
  });
  return { members, groups };
}
