/**
 * The admin remote: exposed as 'admin/App' and mounted by the shell under "/admin".
 * Route paths here are relative to that mount point. Its menu entries and mounts are in manifest.ts. See frontends/shared/src/remote.ts.
 */
import { NotFound, PageLoader, registerTranslations } from '@avatar-studio/shared';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
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
const TutorialsAdminPage = lazy(() =>
  import('./tutorials/TutorialsAdminPage').then((m) => ({ default: m.TutorialsAdminPage })),
);

export default function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
        {/* /admin itself (a breadcrumb link) has no screen of its own: the back office every staff role sees. */}
        <Route index element={<Navigate to="/admin/workflows" replace />} />
        <Route path="staff" element={<StaffPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="workflows" element={<WorkflowsAdminPage />} />
        <Route path="workflows/:workflow_id" element={<WorkflowFormPage />} />
        <Route path="tutorials" element={<TutorialsAdminPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
