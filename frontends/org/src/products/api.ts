/** Server state of the current organization's products (the products API in the organization's scope). */
import { api, notifyError, unwrap } from '@avatar-studio/shared';
import type { components } from '@avatar-studio/shared/api/schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type Product = components['schemas']['ProductDto'];
export type ProductInput = components['schemas']['ProductInputDto'];

/** Keys carry the organization: the client scopes every call with ?organization_id= of the current one. */
export const productKeys = {
  all: (organizationId: number) => ['organization-products', organizationId] as const,
  list: (organizationId: number, query: string) =>
    ['organization-products', organizationId, 'list', query] as const,
  one: (organizationId: number, id: number) => ['organization-products', organizationId, 'one', id] as const,
};

/** GET /api/products?organization_id= (an organization's Admin sees its products only). */
export function useOrganizationProducts(organizationId: number, query: string) {
  return useQuery({
    queryKey: productKeys.list(organizationId, query),
    queryFn: () =>
      unwrap(api.GET('/api/products', { params: { query: { limit: 200, ...(query ? { query } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/products/{product_id} */
export function useOrganizationProduct(organizationId: number, id: number | null) {
  return useQuery({
    queryKey: productKeys.one(organizationId, id ?? 0),
    queryFn: async () =>
      (await unwrap(api.GET('/api/products/{product_id}', { params: { path: { product_id: id ?? 0 } } })))
        .product,
    enabled: id !== null,
  });
}

/** POST /api/products (create) or PUT /api/products (change), in the organization's scope. */
export function useSaveProduct(organizationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: ProductInput }) =>
      (
        await unwrap(
          id === null
            ? api.POST('/api/products', { body: input })
            : api.PUT('/api/products', { body: { ...input, product_id: id } }),
        )
      ).product,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all(organizationId) }),
    onError: (error) => notifyError(error),
  });
}
