import { AppProviders, registerTranslations } from '@avatar-studio/shared';
import { BrowserRouter } from 'react-router-dom';
import { en, es } from './i18n';
import type { RemoteLoader } from './remotes/RemotesProvider';
import { ShellRoutes } from './routes';

registerTranslations('shell', { en, es });

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
