import { useOrganization } from './organization/OrganizationProvider';
import { can, type Permission } from './permissions-core';
import { useSession } from './session/SessionProvider';

export * from './permissions-core';

/** Whether the signed-in user may do `permission`, from their staff role and their role in the current organization. */
export function useCan(permission: Permission): boolean {
  const { staffRole } = useSession();
  const { current } = useOrganization();
  return can({ staffRole, orgRole: current?.role ?? null }, permission);
}
