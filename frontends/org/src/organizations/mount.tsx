import { NotFound, PageLoader } from '@avatar-studio/shared';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';

/**
 * The shell mounts this remote at both /organization/* and /organizations/*, so relative routes would answer
 * under either prefix. A pathless parent route with this element lets its children answer only under the
 * mount named `segment` (e.g. "organizations"), and shows lazily loaded screens with a loader.
 */
export function UnderMount({ segment }: { segment: 'organization' | 'organizations' }) {
  const { pathname } = useLocation();
  if (pathname.split('/')[1] !== segment) return <NotFound />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
