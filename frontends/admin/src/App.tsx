/**
 * The admin remote: exposed as 'admin/App' and mounted by the shell under "/admin".
 * Route paths here are relative to that mount point. See frontends/shared/src/remote.ts.
 */
import { NotFound, PageLoader, registerTranslations, type NavigationEntry } from '@avatar-studio/shared';
import { IconRoute, IconSettings, IconUserShield } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';

registerTranslations('admin', { en, es });

const StaffPage = lazy(() => import('./staff/StaffPage').then((m) => ({ default: m.StaffPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const WorkflowsAdminPage = lazy(() =>
  import('./workflows/WorkflowsAdminPage').then((m) => ({ default: m.WorkflowsAdminPage })),
);
const WorkflowFormPage = lazy(() =>
  import('./workflows/WorkflowFormPage').then((m) => ({ default: m.WorkflowFormPage })),
);

/** Menu entries the shell shows for this remote (filtered by flag and permission). */
export const navigation: NavigationEntry[] = [
  {
    labelKey: 'admin:staff.nav',
    path: '/admin/staff',
    menu: 'admin',
    permission: 'staff.manage',
    icon: IconUserShield,
  },
  {
    labelKey: 'admin:settings.nav',
    path: '/admin/settings',
    menu: 'admin',
    permission: 'appconfig.edit',
    icon: IconSettings,
  },
  {
    labelKey: 'admin:workflows.nav',
    path: '/admin/workflows',
    menu: 'admin',
    // Workflows are authored by staff admins and managers.
    permission: 'backoffice.view',
    icon: IconRoute,
  },
];

export default function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
        <Route path="staff" element={<StaffPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="workflows" element={<WorkflowsAdminPage />} />
        <Route path="workflows/:workflow_id" element={<WorkflowFormPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
