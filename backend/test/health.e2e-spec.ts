import { startTestApp, TestApp } from './harness';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports the database, Redis and the queue as up', async () => {
    const res = await t.http().get('/api/health').expect(200);
    expect(res.body).toMatchObject({
      status: 'up',
      database: 'up',
      database_kind: 'postgresql',
      redis: 'up',
    });
    expect(res.body.queue.backend).toBe('bullmq');
  });

  it('answers liveness without touching a dependency', async () => {
    const res = await t.http().get('/api/health/live').expect(200);
    expect(res.body).toMatchObject({ status: 'alive', uptime_seconds: expect.any(Number) });
  });

  it('answers unknown routes with the error shape and a request id', async () => {
    const res = await t.http().get('/api/nope').set('X-Request-Id', 'abc-123').expect(404);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.body).toMatchObject({ statusCode: 404, code: 'not_found' });
    expect(typeof res.body.message).toBe('string');
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    expect(res.body.paths['/api/health']).toBeDefined();
  });
});
