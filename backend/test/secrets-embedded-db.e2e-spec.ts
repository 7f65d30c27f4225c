import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';

/**
 * The embedded database has no password, so no other local user may reach it: it listens on a unix socket that
 * only the data folder's owner can open, and on no TCP port. Run as `npm start` runs it, in a child process
 * (PGlite is loaded with a dynamic import, which Jest's module sandbox cannot run).
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** The TCP ports a process listens on: its socket inodes matched against the kernel's listening sockets. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Columns: sl, local_address, rem_address, st (0A = LISTEN), ..., inode (10th).
      if (cols.length > 9 && cols[3] === '0A' && inodes.has(cols[9])) {
        ports.push(parseInt(cols[1].split(':')[1], 16));
      }
    }
  }
  return ports;
}

describe('The embedded database', () => {
  jest.setTimeout(240_000);
  const dataDir = join(mkdtempSync(join(tmpdir(), 'avatar-studio-pgsock-')), 'data');
  let child: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
      const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 800) throw new Error('the app did not start within 200 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('listens on an owner-only unix socket in DATA_DIR and on no TCP port but the app’s', async () => {
    const folder = statSync(join(dataDir, 'pg-socket'));
    expect(folder.mode & 0o777).toBe(0o700);
    const socket = statSync(join(dataDir, 'pg-socket', '.s.PGSQL.5432'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o077).toBe(0);
    expect(listeningPorts(child.pid!)).toEqual([port]);
    // And the app works on it.
    await request(`http://127.0.0.1:${port}`)
      .post('/api/auth/signup')
      .send({
        name: 'Sock',
        last_name: 'Et',
        email: 'sock.et@example.com',
        password: 'secret123',
        phone: '(555) 123-4567',
        signup_reason: 'Recommendation',
      })
      .expect(201);
  });
});
