import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { freePort } from './app-process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';

/**
 * The embedded database as `npm start` runs it (no DATABASE_URL, no REDIS_URL), in child processes: PGlite is
 * loaded with a dynamic import, which Jest's module sandbox cannot run.
 */
const BACKEND = join(__dirname, '..');
const run = promisify(execFile);

function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

async function startApp(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: BACKEND,
    env: childEnv(dataDir, { PORT: String(port) }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the app did not start within 60 s');
}

async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** `npm run backup` / `npm run restore`, as the CLI they run; resolves with its exit code and output. */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', '@swc-node/register', 'src/cli/backup.ts', ...args],
      { cwd: BACKEND, env: childEnv(dataDir) },
    );
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const account = {
  name: 'Backup',
  last_name: 'Person',
  email: 'backup.person@example.com',
  password: 'secret123',
  phone: '(555) 123-4567',
  signup_reason: 'Recommendation',
};

describe('npm run backup / npm run restore (embedded database)', () => {
  jest.setTimeout(240_000);
  const work = mkdtempSync(join(tmpdir(), 'avatar-studio-backup-'));
  const dataDir = join(work, 'data');
  const liveBackup = join(work, 'backup-live');

  it('backs up while the app runs; the backup restored into a fresh data folder signs the same user in', async () => {
    const { url, child } = await startApp(dataDir);
    try {
      await request(url).post('/api/auth/signup').send(account).expect(201);
      mkdirSync(join(dataDir, 'files', 'u1'), { recursive: true });
      writeFileSync(join(dataDir, 'files', 'u1', 'note.txt'), 'kept');

      const backup = await cli(dataDir, 'backup', liveBackup);
      expect(backup).toMatchObject({ code: 0, output: expect.stringContaining('while the app was running') });
      // The app goes on serving after the snapshot.
      await request(url)
        .post('/api/auth/login')
        .send({ email: account.email, password: account.password })
        .expect(200);
    } finally {
      await stopApp(child);
    }
    expect(JSON.parse(readFileSync(join(liveBackup, 'manifest.json'), 'utf8'))).toMatchObject({
      format: 1,
      app_running: true,
      files: 1,
      app_secret: true,
    });

    const restoredDir = join(work, 'restored');
    expect(await cli(restoredDir, 'restore', liveBackup)).toMatchObject({ code: 0 });
    expect(readFileSync(join(restoredDir, 'files', 'u1', 'note.txt'), 'utf8')).toBe('kept');
    expect(readFileSync(join(restoredDir, 'app-secret'), 'utf8')).toBe(
      readFileSync(join(dataDir, 'app-secret'), 'utf8'),
    );
    const restored = await startApp(restoredDir);
    try {
      const res = await request(restored.url)
        .post('/api/auth/login')
        .send({ email: account.email, password: account.password })
        .expect(200);
      expect(res.body.user).toMatchObject({ email: account.email, name: 'Backup' });
    } finally {
      await stopApp(restored.child);
    }
  });

  it('backs up a stopped app by opening its database directly', async () => {
    expect(existsSync(join(dataDir, 'control.sock'))).toBe(false);
    const result = await cli(dataDir, 'backup', join(work, 'backup-stopped'));
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'backup-stopped', 'manifest.json'), 'utf8'))).toMatchObject({
      app_running: false,
      files: 1,
    });
  });

  it('refuses to restore over a data folder that holds a database, and leaves it as it was', async () => {
    const before = readFileSync(join(dataDir, 'app-secret'), 'utf8');
    const result = await cli(dataDir, 'restore', liveBackup);
    expect(result).toMatchObject({ code: 1, output: expect.stringContaining('already holds data') });
    expect(readFileSync(join(dataDir, 'app-secret'), 'utf8')).toBe(before);
  });

  it('refuses a folder that is not a backup, a non-empty destination, and PostgreSQL', async () => {
    expect(await cli(join(work, 'elsewhere'), 'restore', work)).toMatchObject({
      code: 1,
      output: expect.stringContaining('not a backup'),
    });
    expect(await cli(dataDir, 'backup', liveBackup)).toMatchObject({
      code: 1,
      output: expect.stringContaining('not empty'),
    });
    const postgres = await run(
      process.execPath,
      ['-r', '@swc-node/register', 'src/cli/backup.ts', 'backup'],
      {
        cwd: BACKEND,
        env: childEnv(dataDir, { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }),
      },
    ).then(
      () => 'exited 0',
      (err: { stderr: string }) => err.stderr,
    );
    expect(postgres).toContain('pg_dump');
  });
});
