import { mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AppProcess, startAppProcess } from './app-process';

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

/**
 * The embedded database has no password, so no other local user may reach it: it listens on a unix socket that
 * only the data folder's owner can open, and on no TCP port. Run as `npm start` runs it, in a child process
 * (PGlite is loaded with a dynamic import, which Jest's module sandbox cannot run).
 */
describe('The embedded database', () => {
  jest.setTimeout(240_000);
  const dataDir = join(mkdtempSync(join(tmpdir(), 'avatar-studio-pgsock-')), 'data');
  let app: AppProcess;

  beforeAll(async () => {
    app = await startAppProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  });
  afterAll(() => app?.stop());

  it('listens on an owner-only unix socket in DATA_DIR and on no TCP port but the app’s', async () => {
    const folder = statSync(join(dataDir, 'pg-socket'));
    expect(folder.mode & 0o777).toBe(0o700);
    const socket = statSync(join(dataDir, 'pg-socket', '.s.PGSQL.5432'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o077).toBe(0);
    expect(listeningPorts(app.child.pid!)).toEqual([app.port]);
    // And the app works on it.
    await request(app.url)
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
