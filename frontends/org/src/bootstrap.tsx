// Standalone development page (npm run dev -w frontends/org); the shell does not load this file.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StandaloneRemote } from '@avatar-studio/shared';
import { createRoot } from 'react-dom/client';
import App from './App';

createRoot(document.getElementById('root')!).render(
  <StandaloneRemote name="org" App={App} mounts={['/organization/*', '/organizations/*']} />,
);
