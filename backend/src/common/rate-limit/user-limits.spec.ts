import { loadEnv } from '../../config/env';
import { UserLimits } from './user-limits';

describe('UserLimits without Redis (counted in this process)', () => {
  const env = loadEnv({
    APP_SECRET: 'x'.repeat(32),
    DATA_DIR: '/tmp',
    UPLOAD_RATE_LIMIT_PER_MINUTE: '2',
    HEAVY_TASKS_PER_USER: '2',
  });
  const limits = new UserLimits(env);

  it('refuses the third upload of a minute with 429 and the seconds left, per user', async () => {
    await limits.hit('upload', 1);
    await limits.hit('upload', 1);
    const refused = await limits.hit('upload', 1).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    await expect(limits.hit('upload', 2)).resolves.toBeUndefined();
    await expect(limits.hit('export', 1)).resolves.toBeUndefined();
  });

  it('holds at most HEAVY_TASKS_PER_USER slots at once and gives them back', async () => {
    const first = await limits.acquire(7);
    const second = await limits.acquire(7);
    await expect(limits.acquire(7)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 5 });
    await expect(limits.acquire(8)).resolves.toEqual(expect.any(Function));
    await first();
    await (
      await limits.acquire(7)
    )();
    await second();
  });
});
