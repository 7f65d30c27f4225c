import { AppProviders } from '@avatar-studio/shared';
import { BrowserRouter } from 'react-router-dom';
import type { RemoteSource } from './remotes/RemotesProvider';
import { ShellRoutes } from './routes';

/** The host: providers once for every remote, then the routes. */
export function App({ remotes }: { remotes: RemoteSource }) {
  return (
    <BrowserRouter>
      <AppProviders>
        <ShellRoutes remotes={remotes} />
      </AppProviders>
    </BrowserRouter>
  );
}
