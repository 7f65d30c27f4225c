/**
 * The admin remote: exposed as 'admin/App' and mounted by the shell under "/admin".
 * Route paths here are relative to that mount point. See frontends/shared/src/remote.ts.
 */
import { NotFound, PageLoader, registerTranslations, type NavigationEntry } from '@avatar-studio/shared';
import { IconSettings, IconUserShield } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';

registerTranslations('admin', { en, es });

const StaffPage = lazy(() => import('./staff/StaffPage').then((m) => ({ default: m.StaffPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));

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
];

export default function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
        <Route path="staff" element={<StaffPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
