import { randomBytes } from 'node:crypto';
import { UserLimits } from '../src/common/rate-limit/user-limits';
import { startTestApp, TestApp } from './harness';

describe('Hardening: per-user limits on uploads and exports, and capped list pages', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      UPLOAD_RATE_LIMIT_PER_MINUTE: '3',
      EXPORT_RATE_LIMIT_PER_MINUTE: '2',
      HEAVY_TASKS_PER_USER: '1',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (auth: string, name = 'a.txt') =>
    t.http().post('/api/files').set('Authorization', auth).attach('file', Buffer.from('hello'), name);

  it('answers 429 with Retry-After and a clear message past the uploads of a minute, for that user only', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 3; i++) await upload(user.auth).expect(201);
    const refused = await upload(user.auth).expect(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(refused.body.message).toMatch(
      /^Too many uploads in a minute \(at most 3\)\. Please try again in \d+ seconds\.$/,
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // JSON-created text files are uploads too; a rename without a file is not.
    await t
      .http()
      .post('/api/files')
      .set('Authorization', user.auth)
      .send({ name: 'b.txt', content: 'x' })
      .expect(429);
    const other = await t.createUser();
    await upload(other.auth).expect(201);
  });

  it('answers 429 past the exports of a minute', async () => {
    const user = await t.createUser();
    const exportPdf = () =>
      t.http().post('/api/messages/pdf').set('Authorization', user.auth).send({ text: '# Hi' });
    await exportPdf().expect(200);
    await t
      .http()
      .post('/api/messages/word')
      .set('Authorization', user.auth)
      .send({ text: '# Hi' })
      .expect(200);
    const refused = await exportPdf().expect(429);
    expect(refused.body.message).toMatch(/^Too many exports in a minute \(at most 2\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('answers 429 while the user already has as many uploads or exports running as allowed, and frees the slot after', async () => {
    const user = await t.createUser();
    const release = await t.app.get(UserLimits).acquire(user.user_id);
    const refused = await t
      .http()
      .post('/api/messages/word')
      .set('Authorization', user.auth)
      .send({ text: 'x' })
      .expect(429);
    expect(refused.body.message).toBe(
      'You already have 1 uploads or exports in progress. Please wait for one to finish and try again.',
    );
    expect(refused.headers['retry-after']).toBe('5');
    await release();
    await t.http().post('/api/messages/word').set('Authorization', user.auth).send({ text: 'x' }).expect(200);
    // The request's own slot was given back when it answered.
    await t.http().post('/api/messages/word').set('Authorization', user.auth).send({ text: 'x' }).expect(429); // 3rd export this minute
    await upload(user.auth).expect(201);
  });

  it('refuses a list limit above 200 with 400 on every paged list, and accepts 200', async () => {
    const user = await t.createUser();
    const lists = [
      '/api/files',
      '/api/documents',
      '/api/conversations',
      '/api/templates',
      '/api/workflows',
      '/api/user_workflows',
      '/api/words/ledger',
      '/api/messages',
    ];
    for (const path of lists) {
      const refused = await t.http().get(`${path}?limit=201`).set('Authorization', user.auth);
      expect({ path, status: refused.status, message: refused.body.message }).toEqual({
        path,
        status: 400,
        message: 'limit must be 200 or less.',
      });
      const ok = await t.http().get(`${path}?limit=200`).set('Authorization', user.auth);
      expect({ path, status: ok.status, limit: ok.body.limit }).toEqual({ path, status: 200, limit: 200 });
    }
  });

  // Last: starting other apps in this process leaves `t`'s sessions unusable.
  it('holds the limits across instances sharing Redis', async () => {
    const prefix = `test-shared-${randomBytes(4).toString('hex')}`;
    // The same secret as `t`: the signing key is made once per process.
    const shared = { REDIS_PREFIX: prefix, APP_SECRET: t.env.appSecret };
    const a = await startTestApp({
      ...shared,
      UPLOAD_RATE_LIMIT_PER_MINUTE: '2',
      HEAVY_TASKS_PER_USER: '1',
    });
    const b = await startTestApp({
      ...shared,
      UPLOAD_RATE_LIMIT_PER_MINUTE: '2',
      HEAVY_TASKS_PER_USER: '1',
    });
    try {
      const userId = 987_654;
      await a.app.get(UserLimits).hit('upload', userId);
      await b.app.get(UserLimits).hit('upload', userId);
      await expect(a.app.get(UserLimits).hit('upload', userId)).rejects.toMatchObject({ status: 429 });
      const release = await a.app.get(UserLimits).acquire(userId);
      await expect(b.app.get(UserLimits).acquire(userId)).rejects.toMatchObject({ status: 429 });
      await release();
      await (
        await b.app.get(UserLimits).acquire(userId)
      )();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
