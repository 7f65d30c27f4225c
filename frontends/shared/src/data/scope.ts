import { useOrganization } from '../organization/OrganizationProvider';

/** The organization a query's data belongs to: its id, or 'personal' outside any organization. */
export type ScopeKey = number | 'personal';

/**
 * The scope part of every organization-dependent query key. Keys carry it so that data fetched in one
 * organization is never shown in another: after a switch the key differs and the query loads again.
 */
export function useScopeKey(): ScopeKey {
  return useOrganization().current?.organization_id ?? 'personal';
}
