import { renderWithProviders } from '@avatar-studio/shared/testing';
import { useLocation } from 'react-router-dom';
import type { RemoteSource } from '../remotes/RemotesProvider';
import { ShellRoutes } from '../routes';

/** One customer remote that mounts at '/' and shows "customer home". */
export const customerOnly: RemoteSource = {
  manifest: async () => ({
    remotes: { customer: { entry: '/remotes/customer/remoteEntry.js', mounts: ['/'], navigation: [] } },
  }),
  load: async () => ({ default: () => <p>customer home</p> }),
};

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

/** The shell's routes at `route`, with the current path in the test id "where". */
export function renderShell(route: string, options: Parameters<typeof renderWithProviders>[1] = {}) {
  return renderWithProviders(
    <>
      <ShellRoutes remotes={customerOnly} />
      <Where />
    </>,
    { route, ...options },
  );
}
