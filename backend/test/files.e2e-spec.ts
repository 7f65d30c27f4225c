import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  DOCX,
  DOCX_BOMB,
  EXE,
  MP4,
  PDF,
  PLAIN_ZIP,
  PNG,
  PPTX,
  TEXT,
} from '../src/modules/files/testing/sample-files';
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
    expect(res.body.file).toMatchObject({
      name: 'logo.png',
      type: 'image/png',
      size: PNG.length,
      public: true,
    });
    expect(res.body.file.src).toMatch(/^\/api\/files\/content\/[a-f0-9]{48}\.png$/);
    expect(typeof res.body.file.file_id).toBe('number');
    expect(res.body.file.createdAt).toBeDefined();
    expect(existsSync(diskPath(res.body.file.src))).toBe(true);
  });

  it('types files by content, never by name', async () => {
    const pdf = await upload(owner, PDF, 'notes').expect(201);
    expect(pdf.body.file).toMatchObject({ name: 'notes', type: 'application/pdf', public: false });
    expect(pdf.body.file.src).toMatch(/\.pdf$/);
    const docx = await upload(owner, DOCX, 'report').expect(201);
    expect(docx.body.file.type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const pptx = await upload(owner, PPTX, 'deck.pptx').expect(201);
    expect(pptx.body.file.src).toMatch(/\.pptx$/);
    const video = await upload(owner, MP4, 'clip.mp4').expect(201);
    expect(video.body.file).toMatchObject({ type: 'video/mp4', public: true });
  });

  it.each([
    ['PDF content named .png', PDF, 'photo.png'],
    ['an executable named .png', EXE, 'photo.png'],
    ['an executable with no extension', EXE, 'setup'],
    ['a plain zip named .docx', PLAIN_ZIP, 'report.docx'],
    ['a zip bomb named .docx', DOCX_BOMB, 'big.docx'],
  ])('refuses %s with 415', async (_what, data, filename) => {
    const before = await t.db.query(`SELECT count(*)::int AS n FROM files`);
    const res = await upload(owner, data, filename).expect(415);
    expect(res.body).toMatchObject({ message: 'This file type is not allowed.', code: 'unsupported_type' });
    expect(await t.db.query(`SELECT count(*)::int AS n FROM files`)).toEqual(before);
  });

  it('serves a PDF as an attachment, never inline', async () => {
    const res = await upload(owner, PDF, 'paper.pdf').expect(201);
    const content = await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(200);
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(content.headers['content-disposition']).toMatch(/^attachment;/);
    expect(content.headers['x-content-type-options']).toBe('nosniff');
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
    expect(res.body.file).toMatchObject({
      name: 'draft.txt',
      type: 'text/plain; charset=utf-8',
      public: false,
    });
    const content = await t.http().get(res.body.file.src).set('Authorization', owner.auth).expect(200);
    expect(content.text).toBe('Hello ✓');
    await t
      .http()
      .post('/api/files')
      .set('Authorization', owner.auth)
      .send({ name: 'fake.pdf', content: 'not a pdf' })
      .expect(415);
  });

  it('answers 400 to a POST with neither a file nor content', async () => {
    const res = await t
      .http()
      .post('/api/files')
      .set('Authorization', owner.auth)
      .send({ name: 'x' })
      .expect(400);
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

  it("lists only the caller's files, newest first", async () => {
    const mine = await upload(other, TEXT, 'other-only.txt').expect(201);
    const res = await t
      .http()
      .get('/api/files?organization_id=')
      .set('Authorization', other.auth)
      .expect(200);
    expect(res.body.files.map((f: { file_id: number }) => f.file_id)).toEqual([mine.body.file.file_id]);
    const ownerList = await t.http().get('/api/files').set('Authorization', owner.auth).expect(200);
    expect(ownerList.body.files.length).toBeGreaterThan(3);
    expect(ownerList.body.files.some((f: { name: string }) => f.name === 'other-only.txt')).toBe(false);
    const search = await t.http().get('/api/files?query=draft').set('Authorization', owner.auth).expect(200);
    expect(search.body.files.map((f: { name: string }) => f.name)).toEqual(['draft.txt']);
  });

  it("answers 404 for another user's file on every route", async () => {
    const res = await upload(owner, TEXT, 'private.txt').expect(201);
    const { file_id, src } = res.body.file;
    await t.http().get(`/api/files/${file_id}`).set('Authorization', owner.auth).expect(200);
    await t.http().get(`/api/files/${file_id}`).set('Authorization', other.auth).expect(404);
    await t
      .http()
      .put(`/api/files/${file_id}`)
      .set('Authorization', other.auth)
      .send({ name: 'x' })
      .expect(404);
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
    await t
      .http()
      .get(`/api/files/content/${'0'.repeat(48)}.png`)
      .expect(404);
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

/** Just enough of the S3 REST API (path style) for PutObject, GetObject (with Range) and DeleteObject. */
class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; type: string }>();
  readonly requests: string[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = decodeURIComponent((req.url ?? '').split('?')[0]);
        this.requests.push(`${req.method} ${path}`);
        if (req.method === 'PUT') {
          this.objects.set(path, { body: Buffer.concat(chunks), type: String(req.headers['content-type']) });
          res.writeHead(200, { ETag: '"etag"' }).end();
          return;
        }
        if (req.method === 'DELETE') {
          this.objects.delete(path);
          res.writeHead(204).end();
          return;
        }
        const object = this.objects.get(path);
        if (!object) {
          res
            .writeHead(404, { 'Content-Type': 'application/xml' })
            .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
          return;
        }
        const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
        const body = range ? object.body.subarray(Number(range[1]), Number(range[2]) + 1) : object.body;
        res
          .writeHead(range ? 206 : 200, { 'Content-Type': object.type, 'Content-Length': body.length })
          .end(body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('Files API on S3-compatible storage', () => {
  const s3 = new FakeS3();
  let t: TestApp;
  let owner: TestUser;
  let localSrc: string;

  beforeAll(async () => {
    await s3.start();
    t = await startTestApp({ S3_ACCESS_KEY_ID: 'test-key', S3_SECRET_ACCESS_KEY: 'test-secret' });
    owner = await t.createUser();
    const admin = await t.createUser({ staff: 'admin' });
    // A file stored on local disk before the bucket was configured.
    localSrc = (
      await t
        .http()
        .post('/api/files')
        .set('Authorization', owner.auth)
        .attach('file', PNG, 'old.png')
        .expect(201)
    ).body.file.src;
    await t
      .http()
      .put('/api/appconfig')
      .set('Authorization', admin.auth)
      .send({
        config: [
          { key: 'bucket', value: 'media' },
          { key: 'region', value: 'us-east-1' },
          { key: 'S3_ENDPOINT', value: s3.url },
        ],
      })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('stores uploads in the bucket, serves them from it and deletes them there', async () => {
    const res = await t
      .http()
      .post('/api/files')
      .set('Authorization', owner.auth)
      .attach('file', PNG, 'cloud.png')
      .expect(201);
    const key = res.body.file.src.split('/').pop();
    expect(s3.objects.get(`/media/${key}`)).toEqual({ body: PNG, type: 'image/png' });
    expect(existsSync(join(t.env.dataDir, 'files', key))).toBe(false);

    const content = await t.http().get(res.body.file.src).buffer(true).expect(200);
    expect(Buffer.compare(content.body as Buffer, PNG)).toBe(0);
    expect(content.headers['content-type']).toBe('image/png');

    await t.http().delete(`/api/files/${res.body.file.file_id}`).set('Authorization', owner.auth).expect(200);
    expect(s3.objects.has(`/media/${key}`)).toBe(false);
  });

  it('still serves files stored on local disk before the bucket was set', async () => {
    const content = await t.http().get(localSrc).buffer(true).expect(200);
    expect(Buffer.compare(content.body as Buffer, PNG)).toBe(0);
  });
});
