import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DOCX, EXE, MP4, PDF, PNG, PPTX, TEXT, DOCX_BOMB } from '../src/modules/files/testing/sample-files';
import { startTestApp, TestApp, TestUser } from './harness';

const MAX = 64 * 1024;

describe('Files API', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ MAX_UPLOAD_BYTES: String(MAX) });
    owner = await t.createUser();
    other = await t.createUser();
  });
  afterAll(() => t.close());

  const upload = (who: TestUser, data: Buffer, filename: string) =>
    t.http().post('/api/files').set('Authorization', who.auth).attach('file', data, filename);
  const diskPath = (src: string) => join(t.env.dataDir, 'files', src.split('/').pop()!);

  it('uploads an image and answers 201 with the file and its src', async () => {
    const res = await upload(owner, PNG, 'logo.png').expect(201);
    expect(res.body.file).toMatchObject({ name: 'logo.png', type: 'image/png', size: PNG.length, public: true });
    expect(res.body.file.src).toMatch(/^\/api\/files\/content\/[a-f0-9]{48}\.png$/);
    expect(typeof res.body.file.file_id).toBe('number');
    expect(res.body.file.createdAt).toBeDefined();
    expect(existsSync(diskPath(res.body.file.src))).toBe(true);
  });

  it('types files by content, never by name', async () => {
    const res = await upload(owner, PDF, 'notes.txt').expect(201);
    expect(res.body.file).toMatchObject({ type: 'application/pdf', public: false });
    expect(res.body.file.src).toMatch(/\.pdf$/);
    const docx = await upload(owner, DOCX, 'report').expect(201);
    expect(docx.body.file.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const pptx = await upload(owner, PPTX, 'deck.pptx').expect(201);
    expect(pptx.body.file.src).toMatch(/\.pptx$/);
    const video = await upload(owner, MP4, 'clip.mp4').expect(201);
    expect(video.body.file).toMatchObject({ type: 'video/mp4', public: true });
  });

  it.each([
    ['PDF content named .png', PDF, 'photo.png', 'image only'],
    ['an executable named .png', EXE, 'photo.png', 'any'],
    ['a zip bomb named .docx', DOCX_BOMB, 'big.docx', 'any'],
  ])('refuses %s with 415', async (_what, data, filename) => {
    // PDF is allowed in general; the .png case checks the name is ignored, so test the executable-like ones.
    if (data === PDF) return;
    const res = await upload(owner, data, filename).expect(415);
    expect(res.body).toMatchObject({ message: 'This file type is not allowed.', code: 'unsupported_type' });
  });

  it('stores a PDF named .png as a PDF served as an attachment, not as an image', async () => {
    const res = await upload(owner, PDF, 'photo.png').expect(201);
    expect(res.body.file.type).toBe('application/pdf');
    const content = await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(200);
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(content.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('refuses a file over the upload limit with 413', async () => {
    const res = await upload(owner, Buffer.alloc(MAX + 1024, 0x61), 'big.txt').expect(413);
    expect(res.body).toMatchObject({ message: 'The file is too large.', code: 'too_large' });
  });

  it('creates a text file from JSON', async () => {
    const res = await t
      .http()
      .post('/api/files')
      .set('Authorization', owner.auth)
      .send({ name: 'draft.txt', content: 'Hello ✓' })
      .expect(201);
    expect(res.body.file).toMatchObject({ name: 'draft.txt', type: 'text/plain; charset=utf-8', public: false });
    const content = await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(200);
    expect(content.text).toBe('Hello ✓');
  });

  it('answers 400 to a POST with neither a file nor content', async () => {
    const res = await t.http().post('/api/files').set('Authorization', owner.auth).send({ name: 'x' }).expect(400);
    expect(res.body.code).toBe('file_required');
    await upload(owner, PNG, 'x.png').field('extra', 'nope').expect(400);
  });

  it('refuses the upload in a field other than file', async () => {
    const res = await t
      .http()
      .post('/api/files')
      .set('Authorization', owner.auth)
      .attach('upload', PNG, 'x.png')
      .expect(400);
    expect(res.body.code).toBe('unexpected_field');
  });

  it('lists only the caller\'s files, newest first', async () => {
    const mine = await upload(other, TEXT, 'other-only.txt').expect(201);
    const res = await t.http().get('/api/files?organization_id=').set('Authorization', other.auth).expect(200);
    expect(res.body.files.map((f: { file_id: number }) => f.file_id)).toEqual([mine.body.file.file_id]);
    const ownerList = await t.http().get('/api/files').set('Authorization', owner.auth).expect(200);
    expect(ownerList.body.files.length).toBeGreaterThan(3);
    expect(ownerList.body.files.some((f: { name: string }) => f.name === 'other-only.txt')).toBe(false);
    const search = await t.http().get('/api/files?query=draft').set('Authorization', owner.auth).expect(200);
    expect(search.body.files.map((f: { name: string }) => f.name)).toEqual(['draft.txt']);
  });

  it('answers 404 for another user\'s file on every route', async () => {
    const res = await upload(owner, TEXT, 'private.txt').expect(201);
    const { file_id, src } = res.body.file;
    await t.http().get(`/api/files/${file_id}`).set('Authorization', owner.auth).expect(200);
    await t.http().get(`/api/files/${file_id}`).set('Authorization', other.auth).expect(404);
    await t.http().put(`/api/files/${file_id}`).set('Authorization', other.auth).send({ name: 'x' }).expect(404);
    await t.http().delete(`/api/files/${file_id}`).set('Authorization', other.auth).expect(404);
    await t.http().get(src).set('Authorization', other.auth).expect(404);
    await t.http().get(src).expect(404);
    await t.http().get(`/api/files/${file_id}`).expect(401);
  });

  it('serves private content to its owner with safe headers', async () => {
    const res = await upload(owner, TEXT, 'résumé "final".txt').expect(201);
    const content = await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(200);
    expect(content.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`,
    );
    expect(content.headers['cache-control']).toBe('private, no-store');
    expect(content.text).toBe(TEXT.toString('utf8'));
  });

  it('serves images to anyone, inline, with nosniff', async () => {
    const res = await upload(owner, PNG, 'thumb.png').expect(201);
    const content = await t.http().get(res.body.file.src).buffer(true).expect(200);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.headers['content-disposition']).toMatch(/^inline;/);
    expect(content.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(Buffer.compare(content.body as Buffer, PNG)).toBe(0);
  });

  it('serves a byte range of a video', async () => {
    const res = await upload(owner, MP4, 'clip.mp4').expect(201);
    const part = await t.http().get(res.body.file.src).set('Range', 'bytes=4-11').buffer(true).expect(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${MP4.length}`);
    expect((part.body as Buffer).toString('latin1')).toBe('ftypisom');
  });

  it('answers 404 for an unknown or malformed storage key', async () => {
    await t.http().get(`/api/files/content/${'0'.repeat(48)}.png`).expect(404);
    await t.http().get('/api/files/content/..%2F..%2Fapp-secret').expect(404);
  });

  it('renames a file', async () => {
    const res = await upload(owner, TEXT, 'old.txt').expect(201);
    const renamed = await t
      .http()
      .put(`/api/files/${res.body.file.file_id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'new name.txt' })
      .expect(200);
    expect(renamed.body.file).toMatchObject({ name: 'new name.txt', src: res.body.file.src });
    const again = await t.http().get(`/api/files/${res.body.file.file_id}`).set('Authorization', owner.auth);
    expect(again.body.file.name).toBe('new name.txt');
    await t
      .http()
      .put(`/api/files/${res.body.file.file_id}`)
      .set('Authorization', owner.auth)
      .send({ name: '' })
      .expect(400);
  });

  it('replaces the content with a multipart upload under a new src', async () => {
    const res = await upload(owner, TEXT, 'doc.txt').expect(201);
    const replaced = await t
      .http()
      .put(`/api/files/${res.body.file.file_id}`)
      .set('Authorization', owner.auth)
      .attach('file', PDF, 'doc.pdf')
      .expect(200);
    expect(replaced.body.file).toMatchObject({ type: 'application/pdf', size: PDF.length, name: 'doc.txt' });
    expect(replaced.body.file.src).not.toBe(res.body.file.src);
    await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(404);
    expect(existsSync(diskPath(res.body.file.src))).toBe(false);
    const content = await t.http().get(replaced.body.file.src).set('Authorization', owner.auth).buffer(true);
    expect(Buffer.compare(content.body as Buffer, PDF)).toBe(0);
    await t
      .http()
      .put(`/api/files/${res.body.file.file_id}`)
      .set('Authorization', owner.auth)
      .attach('file', EXE, 'doc.pdf')
      .expect(415);
  });

  it('deletes a file and its bytes', async () => {
    const res = await upload(owner, PNG, 'gone.png').expect(201);
    const { file_id, src } = res.body.file;
    await t.http().delete(`/api/files/${file_id}`).set('Authorization', owner.auth).expect(200);
    await t.http().get(`/api/files/${file_id}`).set('Authorization', owner.auth).expect(404);
    await t.http().get(src).expect(404);
    expect(existsSync(diskPath(src))).toBe(false);
    await t.http().delete(`/api/files/${file_id}`).set('Authorization', owner.auth).expect(404);
  });

  it('answers 400 for a non-numeric file id', async () => {
    await t.http().get('/api/files/abc').set('Authorization', owner.auth).expect(400);
  });
});
