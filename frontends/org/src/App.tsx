/**
 * The org remote: exposed as 'org/App' and mounted by the shell under "/organization" and "/organizations".
 * Route paths here are relative to that mount point. See frontends/shared/src/remote.ts.
 */
import { NotFound, registerTranslations, type NavigationEntry } from '@avatar-studio/shared';
import { IconBuildingCommunity, IconBuildingSkyscraper, IconMail, IconUsers } from '@tabler/icons-react';
import { Route, Routes } from 'react-router-dom';
import { adminPanelRoutes } from './admin-panel/routes';
import { en, es } from './i18n';
import { organizationsRoutes } from './organizations/routes';

registerTranslations('org', { en, es });

/** Menu entries the shell shows for this remote (filtered by flag and permission). */
export const navigation: NavigationEntry[] = [
  {
    labelKey: 'org:nav.organizations',
    path: '/organizations',
    menu: 'organization',
    icon: IconBuildingCommunity,
  },
  {
    labelKey: 'org:nav.invitations',
    path: '/organizations/invitations',
    menu: 'organization',
    icon: IconMail,
  },
  {
    labelKey: 'org:nav.adminPanel',
    path: '/organization/admin-panel',
    menu: 'organization',
    permission: 'organization.adminPanel',
    requiresOrganization: true,
    icon: IconUsers,
  },
  // The spec's admin/organizations (staff): served by this remote at /organizations/all.
  {
    labelKey: 'org:nav.allOrganizations',
    path: '/organizations/all',
    menu: 'admin',
    permission: 'organization.listAll',
    icon: IconBuildingSkyscraper,
  },
];

export default function App() {
  return (
    <Routes>
      {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
      {/* Each group answers only under its own mount (/organizations/... or /organization/...). */}
      {organizationsRoutes}
      {adminPanelRoutes}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
