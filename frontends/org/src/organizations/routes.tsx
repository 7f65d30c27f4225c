import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { UnderMount } from './mount';

const OrganizationsList = lazy(() =>
  import('./OrganizationsList').then((m) => ({ default: m.OrganizationsList })),
);
const AllOrganizations = lazy(() =>
  import('./AllOrganizations').then((m) => ({ default: m.AllOrganizations })),
);
const Invitations = lazy(() =>
  import('../invitations/Invitations').then((m) => ({ default: m.Invitations })),
);
const OrganizationSettings = lazy(() =>
  import('./OrganizationSettings').then((m) => ({ default: m.OrganizationSettings })),
);

/**
 * Routes under the shell's /organizations/* mount. The spec's admin/organizations (all organizations, staff)
 * is served at /organizations/all, since /admin/* belongs to the admin remote.
 */
export const organizationsRoutes = (
  <Route element={<UnderMount segment="organizations" />}>
    <Route index element={<OrganizationsList />} />
    <Route path="all" element={<AllOrganizations />} />
    <Route path="invitations" element={<Invitations />} />
    <Route path="organization-settings" element={<OrganizationSettings />} />
    <Route path="organization-settings/:organization_id" element={<OrganizationSettings />} />
  </Route>
);
