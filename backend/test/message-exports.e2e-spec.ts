import JSZip from 'jszip';
import { WorkerPool } from '../src/common/workers/worker-pool';
import { detectFileType } from '../src/modules/files/file-type';
import { extractText } from '../src/modules/files/text-extraction';
import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp, TestUser } from './harness';

const MARKDOWN = [
  '# Weekly plan',
  '',
  'Some **bold** and *italic* text with `code`, in Café ñ Привет.',
  '',
  '## Tasks',
  '',
  '- first bullet',
  '- second bullet',
  '',
  '1. step one',
  '2. step two',
  '',
  '```',
  'const x = 1;',
  '```',
].join('\n');

/** supertest collects a binary body as a Buffer with this parser. */
const binary = (res: unknown, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('Message exports and share', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
    user = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const post = (path: string, body: object, who: TestUser = user) =>
    t.http().post(path).set('Authorization', who.auth).send(body);

  it('exports a PDF attachment that keeps headings, lists, formatting and non-Latin text', async () => {
    const res = await post('/api/messages/pdf', { text: MARKDOWN }).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="message.pdf"');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await extractText(t.app.get(WorkerPool), pdf, 'pdf');
    for (const piece of [
      'Weekly plan',
      'Tasks',
      '• first bullet',
      '1. step one',
      '2. step two',
      'const x = 1;',
    ]) {
      expect(text).toContain(piece);
    }
    expect(text).toContain('Café ñ Привет');
    expect(text).not.toContain('**');
    expect(text).not.toContain('# ');
  });

  it('exports a Word document with the heading as a heading and the list markers', async () => {
    const res = await post('/api/messages/word', { text: MARKDOWN }).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.headers['content-disposition']).toBe('attachment; filename="message.docx"');
    const docx = res.body as Buffer;
    expect(detectFileType(docx)?.kind).toBe('docx');
    const xml = await (await JSZip.loadAsync(docx)).file('word/document.xml')!.async('string');
    expect(xml).toContain('Weekly plan');
    expect(xml).toMatch(/<w:pStyle w:val="Heading1"\/>.*?Weekly plan/s);
    expect(xml).toMatch(/<w:b\/>.*?bold/s);
    expect(xml).toContain('Courier New');
    const text = await extractText(t.app.get(WorkerPool), docx, 'docx');
    expect(text).toContain('1.\tstep one');
    expect(text).toContain('•\tfirst bullet');
  });

  it('answers 400 for a missing, empty or too long text, and 401 without a session', async () => {
    for (const path of ['/api/messages/pdf', '/api/messages/word']) {
      const missing = await post(path, {}).expect(400);
      expect(JSON.stringify(missing.body.message)).toContain('The text to export is required.');
      await post(path, { text: '   ' }).expect(400);
      await post(path, { text: 42 }).expect(400);
      const long = await post(path, { text: 'a'.repeat(65_001) }).expect(400);
      expect(JSON.stringify(long.body.message)).toContain('The text can be at most 65000 characters.');
      await t.http().post(path).send({ text: 'hi' }).expect(401);
    }
    await post('/api/messages/pdf', { text: 'a'.repeat(65_000) }).expect(200);
  });

  describe('share', () => {
    async function conversationWithAnswer(
      owner: TestUser,
    ): Promise<{ conversationId: number; answerId: number }> {
      await t.app.get(WordsService).grant(owner.user_id, { words: 1000, source: 'gift' });
      const conv = await post('/api/conversations', { name: 'Launch ideas' }, owner).expect(201);
      const conversationId = conv.body.conversation.conversation_id as number;
      fake.reply({ text: '## Ideas\n\n- one\n- two' });
      const sent = await post(
        '/api/messages',
        { content: 'Ideas?', conversation_id: conversationId, stream: false },
        owner,
      ).expect(201);
      return { conversationId, answerId: sent.body.message.message_id as number };
    }

    async function avatarOf(owner: TestUser): Promise<number> {
      // Making an avatar needs access, as sending does.
      await t.app.get(WordsService).grant(owner.user_id, { words: 10, source: 'gift' });
      const res = await post('/api/avatars', { name: 'Helper' }, owner).expect(201);
      return res.body.avatar.avatar_id as number;
    }

    it('copies the message into the avatar as an editable text file named after the conversation and the date', async () => {
      const owner = await t.createUser();
      const { answerId } = await conversationWithAnswer(owner);
      const avatarId = await avatarOf(owner);
      const res = await post(
        '/api/messages/share',
        { message_id: answerId, avatar_id: avatarId },
        owner,
      ).expect(201);
      const today = new Date().toISOString().slice(0, 10);
      expect(res.body.file).toMatchObject({
        editable: true,
        file_data: { name: `Launch ideas - ${today}.txt`, file_id: null },
        content: '## Ideas\n\n- one\n- two',
      });
      const got = await t.http().get(`/api/avatars/${avatarId}`).set('Authorization', owner.auth).expect(200);
      expect(got.body.avatar.avatar_files).toEqual([
        expect.objectContaining({
          avatar_file_id: res.body.file.avatar_file_id,
          content: '## Ideas\n\n- one\n- two',
        }),
      ]);
    });

    it("answers 404 for another user's avatar", async () => {
      const owner = await t.createUser();
      const other = await t.createUser();
      const { answerId } = await conversationWithAnswer(owner);
      const res = await post(
        '/api/messages/share',
        { message_id: answerId, avatar_id: await avatarOf(other) },
        owner,
      ).expect(404);
      expect(res.body.code).toBe('avatar_not_found');
    });

    it("answers 404 for another user's message or a missing one, and 400 for a bad id", async () => {
      const owner = await t.createUser();
      const other = await t.createUser();
      const { answerId } = await conversationWithAnswer(owner);
      const otherAvatar = await avatarOf(other);
      const res = await post(
        '/api/messages/share',
        { message_id: answerId, avatar_id: otherAvatar },
        other,
      ).expect(404);
      expect(res.body.code).toBe('message_not_found');
      const ownAvatar = await avatarOf(owner);
      await post('/api/messages/share', { message_id: 99_999_999, avatar_id: ownAvatar }, owner).expect(404);
      await post('/api/messages/share', { message_id: 'x', avatar_id: ownAvatar }, owner).expect(400);
      await post('/api/messages/share', { message_id: answerId }, owner).expect(400);
      await post('/api/messages/share', {}, owner).expect(400);
      const files = await t.db.query(`SELECT 1 FROM avatar_files WHERE avatar_id = ANY($1)`, [
        [ownAvatar, otherAvatar],
      ]);
      expect(files).toEqual([]);
    });

    it('answers 400 for a message that has no text yet', async () => {
      const owner = await t.createUser();
      const { conversationId } = await conversationWithAnswer(owner);
      const [{ message_id }] = await t.db.query(
        `INSERT INTO messages (conversation_id, user_id, role, content) VALUES ($1, $2, 'assistant', NULL) RETURNING message_id`,
        [conversationId, owner.user_id],
      );
      const res = await post(
        '/api/messages/share',
        { message_id, avatar_id: await avatarOf(owner) },
        owner,
      ).expect(400);
      expect(res.body.code).toBe('message_has_no_content');
    });
  });
});
