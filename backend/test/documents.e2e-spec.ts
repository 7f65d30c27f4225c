import { startTestApp, TestApp, TestUser } from './harness';

const TOO_LARGE = 'The file length is too large, please remove text to save';

describe('Documents', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    user = await t.createUser();
  });
  afterAll(() => t.close());

  const as = (who: TestUser) => ({
    get: (path: string) => t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object) => t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => t.http().delete(path).set('Authorization', who.auth),
  });

  it('creates, reads, updates and deletes a document', async () => {
    const created = await as(user)
      .post('/api/documents', { name: '  Plan  ', content: '# Plan\n\nText' })
      .expect(201);
    const doc = created.body.document;
    expect(doc).toMatchObject({
      user_id: user.user_id,
      organization_id: null,
      name: 'Plan',
      content: '# Plan\n\nText',
    });
    expect(doc.document_id).toEqual(expect.any(Number));

    const got = await as(user).get(`/api/documents/${doc.document_id}`).expect(200);
    expect(got.body.document).toEqual(doc);

    const renamed = await as(user)
      .put('/api/documents', { document_id: doc.document_id, name: 'Plan B' })
      .expect(200);
    expect(renamed.body.document).toMatchObject({ name: 'Plan B', content: '# Plan\n\nText' });
    const edited = await as(user)
      .put('/api/documents', { document_id: doc.document_id, content: '' })
      .expect(200);
    expect(edited.body.document).toMatchObject({ name: 'Plan B', content: '' });
    expect(new Date(edited.body.document.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(doc.updatedAt).getTime(),
    );

    await as(user).delete(`/api/documents/${doc.document_id}`).expect(204);
    await as(user).get(`/api/documents/${doc.document_id}`).expect(404);
    await as(user).delete(`/api/documents/${doc.document_id}`).expect(404);
  });

  it('creates a document with empty content when none is given', async () => {
    const res = await as(user).post('/api/documents', { name: 'Empty' }).expect(201);
    expect(res.body.document.content).toBe('');
  });

  it('lists the caller’s documents last changed first, paged, searching the name', async () => {
    const owner = await t.createUser();
    const ids: number[] = [];
    for (const name of ['Alpha notes', 'Beta 50%', 'Gamma notes']) {
      ids.push((await as(owner).post('/api/documents', { name }).expect(201)).body.document.document_id);
    }
    await as(owner).put('/api/documents', { document_id: ids[0], content: 'touched' }).expect(200);
    const all = await as(owner).get('/api/documents').expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(all.body.documents.map((d: { name: string }) => d.name)).toEqual([
      'Alpha notes',
      'Gamma notes',
      'Beta 50%',
    ]);
    const page2 = await as(owner).get('/api/documents?limit=2&page=2').expect(200);
    expect(page2.body.documents.map((d: { name: string }) => d.name)).toEqual(['Beta 50%']);
    const notes = await as(owner).get('/api/documents?query=NOTES').expect(200);
    expect(notes.body.total).toBe(2);
    const percent = await as(owner).get('/api/documents?query=50%25').expect(200);
    expect(percent.body.documents.map((d: { name: string }) => d.name)).toEqual(['Beta 50%']);
    await as(owner).get('/api/documents?page=0').expect(400);
  });

  it("refuses content of 65000 characters or more with the spec's sentence", async () => {
    const ok = await as(user)
      .post('/api/documents', { name: 'Big', content: 'a'.repeat(64_999) })
      .expect(201);
    const res = await as(user)
      .post('/api/documents', { name: 'Too big', content: 'a'.repeat(65_000) })
      .expect(400);
    expect(JSON.stringify(res.body.message)).toContain(TOO_LARGE);
    const put = await as(user)
      .put('/api/documents', { document_id: ok.body.document.document_id, content: 'b'.repeat(65_000) })
      .expect(400);
    expect(JSON.stringify(put.body.message)).toContain(TOO_LARGE);
    const kept = await as(user).get(`/api/documents/${ok.body.document.document_id}`).expect(200);
    expect(kept.body.document.content).toBe('a'.repeat(64_999));
  });

  it("answers 400 'The value can't be empty' without a name, and for other bad input", async () => {
    const none = await as(user).post('/api/documents', { content: 'x' }).expect(400);
    expect(JSON.stringify(none.body.message)).toContain("The value can't be empty");
    await as(user).post('/api/documents', { name: '   ' }).expect(400);
    await as(user)
      .post('/api/documents', { name: 'x'.repeat(256) })
      .expect(400);
    await as(user).post('/api/documents', { name: 'ok', content: 12 }).expect(400);
    await as(user).put('/api/documents', { name: 'no id' }).expect(400);
    await as(user).get('/api/documents/abc').expect(400);
  });

  it("answers 404 for another user's document on every route, and keeps it unchanged", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const doc = (await as(owner).post('/api/documents', { name: 'Private', content: 'secret' }).expect(201))
      .body.document;
    await as(other).get(`/api/documents/${doc.document_id}`).expect(404);
    const put = await as(other)
      .put('/api/documents', { document_id: doc.document_id, content: 'hacked' })
      .expect(404);
    expect(put.body.code).toBe('document_not_found');
    await as(other).delete(`/api/documents/${doc.document_id}`).expect(404);
    expect((await as(other).get('/api/documents').expect(200)).body.total).toBe(0);
    const kept = await as(owner).get(`/api/documents/${doc.document_id}`).expect(200);
    expect(kept.body.document.content).toBe('secret');
  });

  it('keeps Personal and organization documents apart', async () => {
    const member = await t.createUser();
    const org = await t.createOrganization();
    await t.addMember(org, member.user_id, 3);
    const inOrg = await as(member)
      .post(`/api/documents?organization_id=${org}`, { name: 'Org doc' })
      .expect(201);
    expect(inOrg.body.document.organization_id).toBe(org);
    await as(member).post('/api/documents', { name: 'Personal doc' }).expect(201);
    const personal = await as(member).get('/api/documents').expect(200);
    expect(personal.body.documents.map((d: { name: string }) => d.name)).toEqual(['Personal doc']);
    const orgList = await as(member).get(`/api/documents?organization_id=${org}`).expect(200);
    expect(orgList.body.documents.map((d: { name: string }) => d.name)).toEqual(['Org doc']);
    await as(member).get(`/api/documents/${inOrg.body.document.document_id}`).expect(404);
  });

  it('answers 401 without a session', async () => {
    await t.http().get('/api/documents').expect(401);
  });
});
