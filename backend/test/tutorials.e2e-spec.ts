import { startTestApp, TestApp, TestUser } from './harness';

describe('Tutorials', () => {
  let t: TestApp;
  let user: TestUser;
  let staff: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    user = await t.createUser();
    staff = await t.createUser({ staff: 'manager' });
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (path: string) => t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object = {}) => t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => t.http().delete(path).set('Authorization', who.auth),
  });

  it('lets staff create, change and delete tutorials that customers list by language, in order', async () => {
    const second = (
      await as(staff)
        .post('/api/tutorials', {
          name: 'Second',
          order: 2,
          src: 'https://youtu.be/dQw4w9WgXcQ',
          language: 'en',
        })
        .expect(201)
    ).body.tutorial;
    expect(second).toMatchObject({
      name: 'Second',
      order: 2,
      src: 'dQw4w9WgXcQ',
      language: 'en',
      thumbnail: null,
    });
    const first = (
      await as(staff)
        .post('/api/tutorials', {
          name: 'First',
          order: 1,
          src: '/api/files/content/intro.mp4',
          thumbnail: '/api/files/content/intro.png',
        })
        .expect(201)
    ).body.tutorial;
    await as(staff)
      .post('/api/tutorials', { name: 'Primero', src: 'dQw4w9WgXcQ', language: 'es' })
      .expect(201);

    const english = await as(user).get('/api/tutorials?language=en').expect(200);
    const names = english.body.tutorials.map((x: { name: string }) => x.name);
    expect(names.indexOf('First')).toBeLessThan(names.indexOf('Second'));
    expect(names).not.toContain('Primero');
    const spanish = await as(user).get('/api/tutorials?language=es').expect(200);
    expect(spanish.body.tutorials.map((x: { name: string }) => x.name)).toContain('Primero');
    const search = await as(user).get('/api/tutorials?query=seco').expect(200);
    expect(search.body.tutorials.map((x: { name: string }) => x.name)).toEqual(['Second']);
    expect(
      (await as(user).get(`/api/tutorials/${first.tutorial_id}`).expect(200)).body.tutorial,
    ).toMatchObject({
      name: 'First',
      src: '/api/files/content/intro.mp4',
      thumbnail: '/api/files/content/intro.png',
    });

    const changed = await as(staff)
      .put('/api/tutorials', {
        tutorial_id: second.tutorial_id,
        order: 0,
        src: 'https://www.youtube.com/watch?v=abcdefghijk',
      })
      .expect(200);
    expect(changed.body.tutorial).toMatchObject({ order: 0, src: 'abcdefghijk', name: 'Second' });
    await as(staff).delete(`/api/tutorials/${second.tutorial_id}`).expect(204);
    await as(user).get(`/api/tutorials/${second.tutorial_id}`).expect(404);
    await as(staff).delete(`/api/tutorials/${second.tutorial_id}`).expect(404);
    await as(staff).put('/api/tutorials', { tutorial_id: second.tutorial_id, order: 1 }).expect(404);
  });

  it('refuses customers managing tutorials, and bad input with clear sentences', async () => {
    await as(user).post('/api/tutorials', { name: 'x', src: 'dQw4w9WgXcQ' }).expect(403);
    const noName = await as(staff).post('/api/tutorials', { src: 'dQw4w9WgXcQ' }).expect(400);
    expect(JSON.stringify(noName.body.message)).toContain("The value can't be empty");
    const video = await as(staff)
      .post('/api/tutorials', { name: 'x', src: 'https://vimeo.com/1' })
      .expect(400);
    expect(video.body.message).toBe(
      'The video must be a YouTube link or video id, or an uploaded video file.',
    );
    const thumb = await as(staff)
      .post('/api/tutorials', { name: 'x', src: 'dQw4w9WgXcQ', thumbnail: 'https://evil.example/x.png' })
      .expect(400);
    expect(thumb.body.message).toBe('The thumbnail must be an uploaded image.');
    const order = await as(staff)
      .post('/api/tutorials', { name: 'x', src: 'dQw4w9WgXcQ', order: -1 })
      .expect(400);
    expect(JSON.stringify(order.body.message)).toContain('order must be a whole number from 0 to 10000.');
    await as(staff).post('/api/tutorials', { name: 'x', src: 'dQw4w9WgXcQ', language: 'fr' }).expect(400);
    await as(user).get('/api/tutorials?language=fr').expect(400);
    await as(user).get('/api/tutorials/abc').expect(400);
  });

  it('counts each play and answers 404 for a missing tutorial', async () => {
    const tutorial = (
      await as(staff).post('/api/tutorials', { name: 'Counted', src: 'dQw4w9WgXcQ' }).expect(201)
    ).body.tutorial;
    await as(user).post(`/api/tutorials/${tutorial.tutorial_id}/plays`).expect(204);
    await as(user).post(`/api/tutorials/${tutorial.tutorial_id}/plays`).expect(204);
    const [{ count }] = await t.db.query(
      `SELECT count(*)::int AS count FROM tutorial_plays WHERE tutorial_id = $1 AND user_id = $2`,
      [tutorial.tutorial_id, user.user_id],
    );
    expect(count).toBe(2);
    await as(user).post('/api/tutorials/999999/plays').expect(404);
    await t.http().post(`/api/tutorials/${tutorial.tutorial_id}/plays`).expect(401);
  });
});
