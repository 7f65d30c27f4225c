import { startServer } from './server';

export default async function globalSetup(): Promise<void> {
  const { child } = await startServer();
  // Keep the server alive for the whole run; teardown stops it by pid.
  child.unref();
}
