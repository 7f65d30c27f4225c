/** Server state of the organization screens: query keys, queries and the file upload. */
import { MEMBERSHIPS_QUERY_KEY, api, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

export type OrganizationView = components['schemas']['OrganizationView'];
export type MyOrganization = components['schemas']['MyOrganization'];
export type AdminOrganization = components['schemas']['AdminOrganization'];
export type OrganizationFields = Omit<components['schemas']['CreateOrganizationBody'], 'name'> & {
  name: string;
};

/**
 * Keys under ['organizations', 'mine', ...] survive an organization switch (the shared OrganizationProvider
 * keeps them), and invalidating MEMBERSHIPS_QUERY_KEY refreshes the shell's organization menu too.
 */
export const organizationKeys = {
  mine: MEMBERSHIPS_QUERY_KEY,
  mineSearch: (query: string) => [...MEMBERSHIPS_QUERY_KEY, 'search', query] as const,
  all: (query: string, page: number) => ['organizations', 'all', query, page] as const,
  one: (id: number) => ['organizations', 'one', id] as const,
};

/** GET /api/organizations?query=: the caller's organizations with their role in each. */
export function useMyOrganizations(query: string) {
  return useQuery({
    queryKey: organizationKeys.mineSearch(query),
    queryFn: async () =>
      (await unwrap(api.GET('/api/organizations', { params: { query: query ? { query } : {} } })))
        .organizations,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/organizations/admin/all?query=&page= (staff). */
export function useAllOrganizations(query: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: organizationKeys.all(query, page),
    queryFn: () =>
      unwrap(
        api.GET('/api/organizations/admin/all', { params: { query: { page, ...(query ? { query } : {}) } } }),
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/organizations/{id}: one organization with its settings, secrets masked. */
export function useOrganizationSettings(id: number | null) {
  return useQuery({
    queryKey: organizationKeys.one(id ?? 0),
    queryFn: async () =>
      (await unwrap(api.GET('/api/organizations/{id}', { params: { path: { id: id ?? 0 } } }))).organization,
    enabled: id !== null,
    staleTime: 0,
  });
}

/** POST /api/files (multipart field `file`) → the stored file's src. */
export async function uploadFile(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const result = await unwrap(
    api.POST('/api/files', {
      // openapi-fetch sends FormData as it is (the browser writes the multipart boundary).
      body: form as unknown as { file?: string },
      bodySerializer: (body) => body as unknown as FormData,
    }),
  );
  return result.file.src;
}
