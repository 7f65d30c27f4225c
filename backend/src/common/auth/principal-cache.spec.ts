import type { ChannelListener, DatabaseNotifications } from '../../database/database-notifications';
import { PRINCIPAL_CACHE_MAX_AGE_MS, PrincipalCache } from './principal-cache';
import type { Principal } from './principal';

function setUp() {
  let listener: ChannelListener | null = null;
  const notifications = {
    listen: (_channel: string, l: ChannelListener) => {
      listener = l;
    },
  } as unknown as DatabaseNotifications;
  const cache = new PrincipalCache(notifications);
  cache.onApplicationBootstrap();
  return { cache, hear: () => listener! };
}

const principal = (user_id: number, session_id: string, impersonator?: number): Principal => ({
  user_id,
  email: `u${user_id}@example.com`,
  session_id,
  via: 'token',
  staffRole: null,
  org: null,
  ...(impersonator ? { impersonator: { user_id: impersonator, email: 'admin@example.com' } } : {}),
});

const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('PrincipalCache', () => {
  it('keeps nothing until it listens, and forgets everything when the connection is lost', () => {
    const { cache, hear } = setUp();
    cache.keep(cache.ticket(), principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    expect(cache.get(1, 's1')).toBeUndefined();

    hear().ready();
    cache.keep(cache.ticket(), principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    expect(cache.get(1, 's1')?.user_id).toBe(1);
    expect(cache.get(2, 's1')).toBeUndefined();

    hear().gap();
    expect(cache.get(1, 's1')).toBeUndefined();
    cache.keep(cache.ticket(), principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    expect(cache.get(1, 's1')).toBeUndefined();
  });

  it('forgets the sessions of a user the database names, and those viewed by that user', () => {
    const { cache, hear } = setUp();
    hear().ready();
    cache.keep(cache.ticket(), principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    cache.keep(cache.ticket(), principal(2, 's2', 9), { userIds: [2, 9], sessionExpiresAt: inAnHour() });
    cache.keep(cache.ticket(), principal(3, 's3'), { userIds: [3], sessionExpiresAt: inAnHour() });

    hear().message('9');
    expect(cache.get(2, 's2')).toBeUndefined();
    expect(cache.get(1, 's1')).toBeDefined();

    hear().message('1');
    expect(cache.get(1, 's1')).toBeUndefined();
    expect(cache.get(3, 's3')).toBeDefined();

    hear().message('not a number');
    expect(cache.get(3, 's3')).toBeUndefined();
  });

  it('does not keep a read that a change overlapped', () => {
    const { cache, hear } = setUp();
    hear().ready();
    const ticket = cache.ticket();
    hear().message('5');
    cache.keep(ticket, principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    expect(cache.get(1, 's1')).toBeUndefined();
  });

  it('never answers past the session end or the longest reuse', () => {
    const { cache, hear } = setUp();
    hear().ready();
    const now = Date.now();
    cache.keep(
      cache.ticket(),
      principal(1, 's1'),
      { userIds: [1], sessionExpiresAt: new Date(now + 1_000) },
      now,
    );
    expect(cache.get(1, 's1', now + 999)).toBeDefined();
    expect(cache.get(1, 's1', now + 1_000)).toBeUndefined();

    cache.keep(cache.ticket(), principal(2, 's2'), { userIds: [2], sessionExpiresAt: inAnHour() }, now);
    expect(cache.get(2, 's2', now + PRINCIPAL_CACHE_MAX_AGE_MS - 1)).toBeDefined();
    expect(cache.get(2, 's2', now + PRINCIPAL_CACHE_MAX_AGE_MS)).toBeUndefined();
  });

  it('forgets one session ended here, and hands out principals no one can change', () => {
    const { cache, hear } = setUp();
    hear().ready();
    cache.keep(cache.ticket(), principal(1, 's1'), { userIds: [1], sessionExpiresAt: inAnHour() });
    cache.keep(cache.ticket(), principal(1, 's2'), { userIds: [1], sessionExpiresAt: inAnHour() });
    expect(Object.isFrozen(cache.get(1, 's2'))).toBe(true);
    cache.forgetSession('s1');
    expect(cache.get(1, 's1')).toBeUndefined();
    expect(cache.get(1, 's2')).toBeDefined();
  });
});
