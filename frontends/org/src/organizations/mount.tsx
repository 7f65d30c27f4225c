import { NotFound, PageLoader } from '@avatar-studio/shared';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

/**
 * The shell mounts this remote at both /organization/* and /organizations/*, so relative routes would answer
 * under either prefix. A pathless parent route with this element lets its children answer only under the
 * mount named `segment` (e.g. "organizations"), and shows lazily loaded screens with a loader.
 */
export function UnderMount({ segment }: { segment: 'organization' | 'organizations' }) {
  const { pathname } = useLocation();
  // /organization alone (a breadcrumb link) has no screen of its own: it leads to the organizations list.
  if (pathname.replace(/\/+$/, '') === '/organization') return <Navigate to="/organizations" replace />;
  if (pathname.split('/')[1] !== segment) return <NotFound />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
