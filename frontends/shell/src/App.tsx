import { AppProviders } from '@avatar-studio/shared';
import { BrowserRouter } from 'react-router-dom';
import type { RemoteLoader } from './remotes/RemotesProvider';
import { ShellRoutes } from './routes';

/** The host: providers once for every remote, then the routes. */
export function App({ loader }: { loader: RemoteLoader }) {
  return (
    <BrowserRouter>
      <AppProviders>
        <ShellRoutes loader={loader} />
      </AppProviders>
    </BrowserRouter>
  );
}
