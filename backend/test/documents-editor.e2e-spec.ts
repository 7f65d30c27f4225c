import { WorkerPool } from '../src/common/workers/worker-pool';
import { countWords } from '../src/modules/ai/words';
import { DOCUMENT_INSTRUCTION } from '../src/modules/documents/documents.service';
import { extractText } from '../src/modules/files/text-extraction';
import type { TestUser } from './harness';
import { MessagesKit, sleep, startMessagesKit, waitFor } from './messages-kit';

const CHANGED =
  'This document was changed in another tab or window since you opened it. Reload it to get the latest version, then make your changes again.';
const BLOCKS = [{ id: 'a', type: 'heading', props: { level: 1 }, content: [{ type: 'text', text: 'Plan' }] }];

const binary = (res: unknown, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('Documents: tags, blocks, sort, versions, Word, generations', () => {
  let k: MessagesKit;

  beforeAll(async () => {
    k = await startMessagesKit();
  });
  afterEach(() => k.disconnectAll());
  afterAll(() => k.close());
  beforeEach(() => k.fake.reset());

  const as = (who: TestUser) => ({
    get: (path: string) => k.t.http().get(path).set('Authorization', who.auth),
    post: (path: string, body: object) => k.t.http().post(path).set('Authorization', who.auth).send(body),
    put: (path: string, body: object) => k.t.http().put(path).set('Authorization', who.auth).send(body),
    delete: (path: string) => k.t.http().delete(path).set('Authorization', who.auth),
  });

  it('stores tags and the editor blocks beside the Markdown, and clears blocks when only content changes', async () => {
    const user = await k.customer();
    const created = await as(user)
      .post('/api/documents', { name: 'Plan', tags: ' work, ideas ,work', content: '# Plan', blocks: BLOCKS })
      .expect(201);
    const doc = created.body.document;
    expect(doc).toMatchObject({ tags: ['work', 'ideas'], content: '# Plan', blocks: BLOCKS, version: 1 });
    const renamed = await as(user)
      .put('/api/documents', { document_id: doc.document_id, tags: ['x'], version: 1 })
      .expect(200);
    expect(renamed.body.document).toMatchObject({ tags: ['x'], blocks: BLOCKS, version: 2 });
    const plain = await as(user)
      .put('/api/documents', { document_id: doc.document_id, content: 'Plain text' })
      .expect(200);
    expect(plain.body.document).toMatchObject({ content: 'Plain text', blocks: null, version: 3 });
    const lonely = await as(user)
      .put('/api/documents', { document_id: doc.document_id, blocks: BLOCKS })
      .expect(400);
    expect(lonely.body.message).toBe('blocks must be sent together with their content.');
    await as(user)
      .put('/api/documents', { document_id: doc.document_id, blocks: 'x', content: '' })
      .expect(400);
    const manyTags = await as(user)
      .post('/api/documents', { name: 'T', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })
      .expect(400);
    expect(manyTags.body.message).toBe('A document can have at most 20 tags.');
    const longTag = await as(user)
      .post('/api/documents', { name: 'T', tags: ['x'.repeat(51)] })
      .expect(400);
    expect(longTag.body.message).toBe('Each tag must be 50 characters or fewer.');
  });

  it('refuses the later of two saves from the same version with 409 and keeps the first', async () => {
    const user = await k.customer();
    const doc = (await as(user).post('/api/documents', { name: 'Shared', content: 'v1' }).expect(201)).body
      .document;
    const [a, b] = await Promise.all([
      as(user).put('/api/documents', { document_id: doc.document_id, content: 'tab A', version: 1 }),
      as(user).put('/api/documents', { document_id: doc.document_id, content: 'tab B', version: 1 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    const won = a.status === 200 ? a : b;
    expect(refused.body).toMatchObject({ code: 'document_changed', message: CHANGED });
    const now = (await as(user).get(`/api/documents/${doc.document_id}`).expect(200)).body.document;
    expect(now).toMatchObject({ content: won.body.document.content, version: 2 });
    // A save from the current version goes through; without a version it always does.
    await as(user)
      .put('/api/documents', { document_id: doc.document_id, content: 'v3', version: 2 })
      .expect(200);
    await as(user).put('/api/documents', { document_id: doc.document_id, content: 'v4' }).expect(200);
    // Another user's document is 404, with or without a version.
    const other = await k.customer();
    await as(other)
      .put('/api/documents', { document_id: doc.document_id, content: 'x', version: 4 })
      .expect(404);
    await as(user).put('/api/documents', { document_id: doc.document_id, version: 0 }).expect(400);
  });

  it('filters by text in the name or the content and by every tag, sorts, and lists the tags', async () => {
    const user = await k.customer();
    await as(user).post('/api/documents', { name: 'Bravo', tags: ['a', 'b'], content: 'coffee beans' });
    await as(user).post('/api/documents', { name: 'Alpha', tags: ['a'], content: 'tea' });
    await as(user).post('/api/documents', { name: 'Charlie coffee', tags: ['c'] });
    const names = async (q: string) =>
      (await as(user).get(`/api/documents${q}`).expect(200)).body.documents.map(
        (d: { name: string }) => d.name,
      );
    expect(await names('?query=coffee&sort=name_asc')).toEqual(['Bravo', 'Charlie coffee']);
    expect(await names('?tags=a&sort=name_asc')).toEqual(['Alpha', 'Bravo']);
    expect(await names('?tags=a,b')).toEqual(['Bravo']);
    expect(await names('?tags=a&tags=b')).toEqual(['Bravo']);
    expect(await names('?sort=name_desc')).toEqual(['Charlie coffee', 'Bravo', 'Alpha']);
    expect(await names('?sort=createdAt_desc')).toEqual(['Charlie coffee', 'Alpha', 'Bravo']);
    const bad = await as(user).get('/api/documents?sort=size').expect(400);
    expect(JSON.stringify(bad.body.message)).toContain('sort must be one of');
    expect((await as(user).get('/api/documents/tags').expect(200)).body).toEqual({ tags: ['a', 'b', 'c'] });
    const other = await k.customer();
    expect((await as(other).get('/api/documents/tags').expect(200)).body).toEqual({ tags: [] });
  });

  it('downloads the document as a Word file with its text', async () => {
    const user = await k.customer();
    const doc = (
      await as(user)
        .post('/api/documents', {
          name: 'Café plan',
          content: '# Weekly plan\n\n- first bullet\n\nSome **bold**.',
        })
        .expect(201)
    ).body.document;
    const res = await as(user)
      .get(`/api/documents/doc-converted/${doc.document_id}`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.headers['content-disposition']).toContain('filename="Caf_ plan.docx"');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Caf%C3%A9%20plan.docx");
    const text = await extractText(k.t.app.get(WorkerPool), res.body as Buffer, 'docx');
    expect(text).toContain('Weekly plan');
    expect(text).toContain('•\tfirst bullet');
    expect(text).toContain('Some bold.');
    const other = await k.customer();
    await as(other).get(`/api/documents/doc-converted/${doc.document_id}`).expect(404);
    await as(user).get('/api/documents/doc-converted/abc').expect(400);
  });

  it('applies a template to the document through the engine: streamed, charged, nothing stored', async () => {
    const user = await k.customer();
    const template = (
      await as(user)
        .post('/api/templates', {
          name: 'Summary',
          description: 'Summarizes',
          content: 'Summarize it for [Audience].',
        })
        .expect(201)
    ).body.template;
    const doc = (
      await as(user).post('/api/documents', { name: 'Notes', content: 'Coffee is grown.' }).expect(201)
    ).body.document;
    const { events } = await k.listen(user);
    const answer = '## Summary\n\nCoffee grows in the tropics.';
    k.fake.reply({ text: answer, chunks: 5, delayMs: 5 });
    const res = await as(user)
      .post(`/api/documents/${doc.document_id}/generate`, {
        template_id: template.template_id,
        values: { Audience: 'kids' },
      })
      .expect(202);
    const id = res.body.generation_id as string;
    const end = await waitFor(() =>
      events.find((e) => e.event === 'document_output' && e.payload.done === true),
    );
    expect(end.payload).toEqual({
      document_id: doc.document_id,
      generation_id: id,
      content: answer,
      offset: 0,
      done: true,
    });
    const pieces = events.filter((e) => e.event === 'document_output' && e.payload.done === false);
    expect(pieces.map((p) => p.payload.content).join('')).toBe(answer);
    expect(k.fake.requests[0].messages).toEqual([
      { role: 'system', content: DOCUMENT_INSTRUCTION },
      { role: 'user', content: expect.stringContaining("my document 'Notes'") },
      { role: 'user', content: 'Summarize it for kids.' },
    ]);
    expect(k.fake.requests[0].messages[1].content).toContain('Coffee is grown.');
    expect(await k.debits(user)).toEqual([
      expect.objectContaining({ source: 'document', words: String(-countWords(answer)) }),
    ]);
    const kept = (await as(user).get(`/api/documents/${doc.document_id}`).expect(200)).body.document;
    expect(kept.content).toBe('Coffee is grown.');
  });

  it('runs a free prompt on a selection; refuses bad input, a missing template value and 412 without words', async () => {
    const user = await k.customer();
    const doc = (await as(user).post('/api/documents', { name: 'Notes', content: 'All of it.' }).expect(201))
      .body.document;
    const { events } = await k.listen(user);
    k.fake.reply({ text: 'Shorter.' });
    await as(user)
      .post(`/api/documents/${doc.document_id}/generate`, {
        prompt: 'Shorten this',
        selection: 'Part of it.',
      })
      .expect(202);
    await waitFor(() => events.find((e) => e.event === 'document_output' && e.payload.done === true));
    expect(k.fake.requests[0].messages[1].content).toContain('the part of my document that I selected');
    expect(k.fake.requests[0].messages[1].content).toContain('Part of it.');
    expect(k.fake.requests[0].messages[1].content).not.toContain('All of it.');

    const empty = await as(user)
      .post(`/api/documents/${doc.document_id}/generate`, { prompt: '  ' })
      .expect(400);
    expect(JSON.stringify(empty.body.message)).toContain("The value can't be empty");
    await as(user).post(`/api/documents/${doc.document_id}/generate`, {}).expect(400);
    const template = (
      await as(user)
        .post('/api/templates', { name: 'T', description: 'About', content: 'About [Topic].' })
        .expect(201)
    ).body.template;
    const missing = await as(user)
      .post(`/api/documents/${doc.document_id}/generate`, { template_id: template.template_id })
      .expect(400);
    expect(missing.body.code).toBe('missing_values');
    const other = await k.customer();
    await as(other).post(`/api/documents/${doc.document_id}/generate`, { prompt: 'x' }).expect(404);
    const poor = await k.customer(null);
    const own = (await as(poor).post('/api/documents', { name: 'Mine' }).expect(201)).body.document;
    const refused = await as(poor)
      .post(`/api/documents/${own.document_id}/generate`, { prompt: 'x' })
      .expect(412);
    expect(refused.body.code).toBe('no_access');
  });

  it('stops a running generation on DELETE: nothing charged, and only its owner can stop it', async () => {
    const user = await k.customer();
    const doc = (await as(user).post('/api/documents', { name: 'Notes' }).expect(201)).body.document;
    k.fake.reply({ text: 'one two three four five six seven eight', chunks: 8, delayMs: 150 });
    const id = (
      await as(user).post(`/api/documents/${doc.document_id}/generate`, { prompt: 'Write' }).expect(202)
    ).body.generation_id as string;
    const other = await k.customer();
    await as(other).delete(`/api/documents/generations/${id}`).expect(204);
    await sleep(200);
    await as(user).delete(`/api/documents/generations/${id}`).expect(204);
    await sleep(1500);
    expect(await k.debits(user)).toEqual([]);
    expect(await k.balance(user)).toBe(1000);
    await as(user).delete('/api/documents/generations/not-a-uuid').expect(400);
  });
});
