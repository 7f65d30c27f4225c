import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { federatedRemotes } from './remotes/federation';

createRoot(document.getElementById('root')!).render(<App remotes={federatedRemotes} />);
