/**
 * The admin remote: exposed as 'admin/App' and mounted by the shell under "/admin".
 * Route paths here are relative to that mount point. See frontends/shared/src/remote.ts.
 */
import { NotFound, registerTranslations, type NavigationEntry } from '@avatar-studio/shared';
import { Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';

registerTranslations('admin', { en, es });

/** Menu entries the shell shows for this remote (filtered by flag and permission). */
export const navigation: NavigationEntry[] = [];

export default function App() {
  return (
    <Routes>
      {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
