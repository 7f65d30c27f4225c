import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'env-'));

  it('applies the documented defaults', () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env.port).toBe(3000);
    expect(env.databaseUrl).toBeNull();
    expect(env.redisUrl).toBeNull();
    expect(env.role).toBe('all');
    expect(env.publicUrl).toBe('http://localhost:3000');
    expect(env.databasePoolSize).toBe(10);
    expect(env.databasePoolerMode).toBe('session');
    expect(loadEnv({ DATA_DIR: dir, DATABASE_POOLER_MODE: 'transaction' }).databasePoolerMode).toBe(
      'transaction',
    );
  });

  it('generates APP_SECRET once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).appSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'app-secret'), 'utf8')).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).appSecret).toBe(first);
  });

  it('rejects a malformed value with the variable named', () => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), PORT: 'abc' })).toThrow(EnvError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), ROLE: 'boss' })).toThrow(/ROLE/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), DATABASE_POOLER_MODE: 'statement' })).toThrow(
      /DATABASE_POOLER_MODE/,
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), APP_SECRET: 'short' })).toThrow(/APP_SECRET/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), OUTBOUND_ALLOW: '10.0.0.0/99' })).toThrow(/OUTBOUND_ALLOW/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), OUTBOUND_ALLOW: 'http://x' })).toThrow(/OUTBOUND_ALLOW/);
  });

  it('reads OUTBOUND_ALLOW as a list of hosts, addresses and ranges', () => {
    const env = loadEnv({ DATA_DIR: dataDir(), OUTBOUND_ALLOW: ' 127.0.0.1, localhost,10.0.0.0/8,[::1] ' });
    expect(env.outboundAllow).toEqual(['127.0.0.1', 'localhost', '10.0.0.0/8', '[::1]']);
    expect(loadEnv({ DATA_DIR: dataDir() }).outboundAllow).toEqual([]);
  });
});
