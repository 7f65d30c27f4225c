import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from './env';

describe('loadEnv: sign-in settings', () => {
  const load = (extra: Record<string, string>) =>
    loadEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), 'env-auth-')), ...extra });

  it('trusts no proxy, keeps sessions 90 days at most and leaves two-factor optional by default', () => {
    const env = load({});
    expect(env.trustProxy).toBe(false);
    expect(env.sessionMaxDays).toBe(90);
    expect(env.staff2faRequired).toBe(false);
    expect(env.authAccountRateLimitPerMinute).toBe(10);
  });

  it('reads TRUST_PROXY as off, a number of proxies, or a list of addresses, subnets and names', () => {
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('refuses a TRUST_PROXY entry that is no address, subnet or known name, naming the variable', () => {
    expect(() => load({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(() => load({ TRUST_PROXY: '10.0.0.0/8/1' })).toThrow(/TRUST_PROXY/);
  });

  it('reads STAFF_2FA_REQUIRED and SESSION_MAX_DAYS, refusing bad values', () => {
    expect(load({ STAFF_2FA_REQUIRED: 'true' }).staff2faRequired).toBe(true);
    expect(() => load({ STAFF_2FA_REQUIRED: 'maybe' })).toThrow(/STAFF_2FA_REQUIRED/);
    expect(load({ SESSION_MAX_DAYS: '7' }).sessionMaxDays).toBe(7);
    expect(() => load({ SESSION_MAX_DAYS: '0' })).toThrow(/SESSION_MAX_DAYS/);
  });
});
