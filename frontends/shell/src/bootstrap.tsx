import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadRemoteModule } from './remotes/federation';

createRoot(document.getElementById('root')!).render(<App loader={loadRemoteModule} />);
