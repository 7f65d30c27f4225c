import { mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pg from 'pg';
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

  it('reuses a signed-in session until a change to it commits, whichever client of its socket makes it', async () => {
    const signup = await request(app.url)
      .post('/api/auth/signup')
      .send({
        name: 'Cache',
        last_name: 'Dones',
        email: 'cache.dones@example.com',
        password: 'secret123',
        phone: '(555) 123-4568',
        signup_reason: 'Recommendation',
      })
      .expect(201);
    const auth = `Bearer ${signup.body.access_token}`;
    const userId = signup.body.user.user_id as number;
    const profile = () => request(app.url).get('/api/users').set('Authorization', auth);
    // The operator's own client on the socket, as psql would be.
    const operator = new pg.Client({
      connectionString: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(join(dataDir, 'pg-socket'))}`,
    });
    await operator.connect();
    try {
      await profile().expect(200);
      // Revoked with its notification held back (no triggers for this one transaction), the session still
      // answers: it is being reused, not read again.
      await operator.query('BEGIN');
      await operator.query(`SET LOCAL session_replication_role = replica`);
      await operator.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1`, [userId]);
      await operator.query('COMMIT');
      await profile().expect(200);
      // A change that notifies ends it at once, although the notification went to the operator's client.
      await operator.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1`, [userId]);
      await profile().expect(401);
    } finally {
      await operator.end();
    }
  });
});
