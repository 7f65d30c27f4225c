/**
 * The org remote: exposed as 'org/App' and mounted by the shell under "/organization" and "/organizations".
 * Route paths here are relative to that mount point. Its menu entries and mounts are in manifest.ts. See frontends/shared/src/remote.ts.
 */
import { NotFound, registerTranslations } from '@avatar-studio/shared';
import { Route, Routes } from 'react-router-dom';
import { adminPanelRoutes } from './admin-panel/routes';
import { campaignsRoutes } from './campaigns/routes';
import { groupsRoutes } from './groups/routes';
import { productsRoutes } from './products/routes';
import { en, es } from './i18n';
import { organizationsRoutes } from './organizations/routes';

registerTranslations('org', { en, es });

export default function App() {
  return (
    <Routes>
      {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
      {/* Each group answers only under its own mount (/organizations/... or /organization/...). */}
      {organizationsRoutes}
      {adminPanelRoutes}
      {campaignsRoutes}
      {groupsRoutes}
      {productsRoutes}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
