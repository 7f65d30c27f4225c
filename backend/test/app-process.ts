import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

export interface AppProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM, and resolves once it exited (its embedded database is then free for another process). */
  stop(): Promise<void>;
}

/**
 * The app as `npm start` runs it, in a child process (PGlite is loaded with a dynamic import, which Jest's module
 * sandbox cannot run), with only PATH, HOME, PORT and `env` in its environment; resolves once /api/health answers.
 */
export async function startAppProcess(
  env: Record<string, string>,
  startWithinMs = 200_000,
): Promise<AppProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: join(__dirname, '..'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + startWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, port, child, stop };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the app did not start within ${startWithinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
