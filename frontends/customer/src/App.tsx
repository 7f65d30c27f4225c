/**
 * The customer remote: exposed as 'customer/App' and mounted by the shell under "/" (everything the admin and org remotes do not own).
 * Route paths here are relative to that mount point. See frontends/shared/src/remote.ts.
 */
import { NotFound, registerTranslations, type NavigationEntry } from '@avatar-studio/shared';
import { Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';

registerTranslations('customer', { en, es });

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
