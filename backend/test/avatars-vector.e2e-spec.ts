import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { WordsService } from '../src/modules/words/words.service';
import { AppProcess, startAppProcess } from './app-process';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp } from './harness';

/**
 * Retrieval for an avatar larger than the all-passages limit (2,000), where only some passages can be compared.
 * On the embedded database (PGlite with pgvector, run as `npm start` runs it, in a child process: Jest cannot load
 * PGlite) the avatar's nearest passages by embedding join the full-text candidates, so a fact asked for in other
 * words than its passage's is found. On PostgreSQL without pgvector retrieval is full text re-ranked, as before:
 * the same question finds nothing, a question sharing the passage's words still finds it.
 */

/** Words of its own: the question below shares no stem with it, only parts of words (supervis-, night-, deliver-). */
const VECTOR_FACT =
  'Marguerite Okonkwo is supervisor of nightly deliverymen; supervisory duties over nightly deliverymen are hers.';
const VECTOR_QUESTION = 'Who supervises nighttime deliveries?';
const TEXT_FACT = 'The harbour gate code is 5521-KESTREL.';
const TEXT_QUESTION = 'What is the harbour gate code?';
const TOPICS = [
  'engineering',
  'operations',
  'marketing',
  'finance',
  'recruiting',
  'facilities',
  'legal',
  'research',
];
/** Paragraphs per file: about 1,530 passages each, so the two files pass the 2,000 of ALL_CHUNKS_LIMIT. */
const PARAGRAPHS = 4_600;

function knowledgeFile(first: number, facts: string[]): Buffer {
  const paragraphs = Array.from(
    { length: PARAGRAPHS },
    (_, i) =>
      `Paragraph ${first + i} about ${TOPICS[(first + i) % TOPICS.length]}: committee reviewed budgets, ` +
      `schedules and staffing for this quarter, agreeing to meet again after holidays to discuss ` +
      `${TOPICS[(first + i) % TOPICS.length]} in more detail.`,
  );
  facts.forEach((fact, i) =>
    paragraphs.splice(Math.floor(((i + 1) * PARAGRAPHS) / (facts.length + 1)), 0, fact),
  );
  return Buffer.from(paragraphs.join('\n\n'));
}

interface Passage {
  file_name: string;
  passage: string;
}

/** Over HTTP: an avatar with the two files, indexed; then the passages and the answer for a question. */
async function largeAvatar(base: string, auth: string) {
  const http = () => request(base);
  const made = await http()
    .post('/api/avatars')
    .set('Authorization', auth)
    .send({ name: 'Harbour archivist' })
    .expect(201);
  const { avatar_id, assistant_id } = made.body.avatar as { avatar_id: number; assistant_id: string };
  const files: [string, Buffer][] = [
    ['harbour-a.txt', knowledgeFile(0, [VECTOR_FACT])],
    ['harbour-b.txt', knowledgeFile(PARAGRAPHS, [TEXT_FACT])],
  ];
  for (const [name, data] of files)
    await http()
      .post(`/api/avatars/add-file/${avatar_id}/${assistant_id}`)
      .set('Authorization', auth)
      .attach('file', data, name)
      .expect(201);
  const deadline = Date.now() + 240_000;
  for (;;) {
    const res = await http().get(`/api/avatars/${avatar_id}`).set('Authorization', auth).expect(200);
    const list = res.body.avatar.avatar_files as { index_state: string; chunks: number }[];
    if (list.length === 2 && list.every((f) => ['ready', 'failed'].includes(f.index_state))) {
      expect(list.map((f) => f.index_state)).toEqual(['ready', 'ready']);
      expect(list.reduce((n, f) => n + f.chunks, 0)).toBeGreaterThan(2_000);
      break;
    }
    if (Date.now() > deadline) throw new Error(`Files not indexed: ${JSON.stringify(list)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    avatar_id,
    passages: async (question: string) =>
      (
        await http()
          .get(`/api/avatars/${avatar_id}/passages?question=${encodeURIComponent(question)}`)
          .set('Authorization', auth)
          .expect(200)
      ).body.passages as Passage[],
    answer: async (question: string) =>
      (
        await http()
          .post('/api/messages')
          .set('Authorization', auth)
          .send({ avatar_id, content: question, stream: false })
          .expect(201)
      ).body.message as { content: string; citations: Passage[] | null },
  };
}

const holds = (passages: Passage[] | null, text: string) =>
  (passages ?? []).some((p) => p.passage.includes(text));

describe('Avatar retrieval of a large avatar', () => {
  jest.setTimeout(600_000);
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());

  describe('on the embedded database with pgvector', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'avatar-studio-vector-')), 'data');
    const admin = { email: 'vector.admin@example.com', password: 'secret-vector-123' };
    let app: AppProcess;
    let base: string;

    beforeAll(async () => {
      app = await startAppProcess({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        OUTBOUND_ALLOW: '127.0.0.1,::1,localhost',
        STARTER_CONTENT: 'false',
      });
      base = app.url;
    });
    afterAll(() => app?.stop());

    /**
     * The rows of `sql` in the app's database, read by a small script that opens DATA_DIR/pg as the app does
     * (openEmbeddedDatabase, which loads pgvector); the app must be stopped.
     */
    function appDatabase(sql: string): Promise<Record<string, unknown>[]> {
      const script = `
        const { openEmbeddedDatabase } = require('./src/database/embedded-backup');
        (async () => {
          const db = await openEmbeddedDatabase(process.argv[1]);
          const { rows } = await db.query(process.argv[2]);
          await db.close();
          process.stdout.write(JSON.stringify(rows));
        })().catch((err) => { console.error(err); process.exit(1); });`;
      return new Promise((resolve, reject) =>
        execFile(
          process.execPath,
          ['-r', '@swc-node/register', '-e', script, join(dataDir, 'pg'), sql],
          { cwd: join(__dirname, '..'), env: { PATH: process.env.PATH, HOME: process.env.HOME } },
          (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Record<string, unknown>[])),
        ),
      );
    }

    it('finds by embedding a fact whose words the question does not use, and cites it', async () => {
      const login = await request(base).post('/api/auth/login').send(admin).expect(200);
      const auth = `Bearer ${login.body.access_token as string}`;
      await request(base)
        .post('/api/words/admin/grant')
        .set('Authorization', auth)
        .send({ user_id: login.body.user.user_id, words: 100_000 })
        .expect(201);
      const avatar = await largeAvatar(base, auth);

      const byVector = await avatar.passages(VECTOR_QUESTION);
      expect(byVector[0].passage).toContain('Marguerite Okonkwo');
      expect(byVector[0].file_name).toBe('harbour-a.txt');
      // Full text alone (a provider without embeddings) has no passage for those words.
      fake.embeddings = false;
      try {
        expect(holds(await avatar.passages(VECTOR_QUESTION), 'Okonkwo')).toBe(false);
      } finally {
        fake.embeddings = true;
      }
      // Full text still takes part: the passage holding the question's words is found.
      expect(holds(await avatar.passages(TEXT_QUESTION), '5521-KESTREL')).toBe(true);

      fake.reply({ text: 'Marguerite Okonkwo (harbour-a.txt).' });
      const answer = await avatar.answer(VECTOR_QUESTION);
      expect(answer.content).toBe('Marguerite Okonkwo (harbour-a.txt).');
      expect(answer.citations![0]).toMatchObject({ file_name: 'harbour-a.txt' });
      expect(answer.citations![0].passage).toContain('Marguerite Okonkwo');

      // The embedded database is one process's: the app stops before another process opens it.
      await app.stop();
      const column = await appDatabase(
        `SELECT format_type(a.atttypid, a.atttypmod) AS type, a.attgenerated AS generated
           FROM pg_attribute a
          WHERE a.attrelid = 'avatar_chunks'::regclass AND a.attname = 'embedding_vector'`,
      );
      const index = await appDatabase(
        `SELECT indexdef FROM pg_indexes
          WHERE tablename = 'avatar_chunks' AND indexname = 'avatar_chunks_embedding_hnsw'`,
      );
      const [filled] = await appDatabase(
        `SELECT count(*)::int AS n FROM avatar_chunks
          WHERE avatar_id = ${avatar.avatar_id} AND embedding_vector IS NOT NULL`,
      );
      const schema = { column, index, filled: filled.n as number };
      expect(schema.column).toEqual([{ type: 'vector(256)', generated: 's' }]);
      expect(schema.index).toHaveLength(1);
      expect(String(schema.index[0].indexdef)).toMatch(/USING hnsw \(embedding_vector .*vector_cosine_ops\)/);
      expect(schema.filled).toBeGreaterThan(2_000);
    });
  });

  describe('on PostgreSQL without pgvector', () => {
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
      await t.app.listen(0, '127.0.0.1');
      base = await t.app.getUrl();
    });
    afterAll(() => t.close());

    it('keeps the array column and retrieves by full text re-ranked, exactly as without the feature', async () => {
      const [column] = (await t.db.query(
        `SELECT 1 FROM pg_attribute WHERE attrelid = 'avatar_chunks'::regclass AND attname = 'embedding_vector'`,
      )) as unknown[];
      const [offered] = (await t.db.query(
        `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
      )) as unknown[];
      // The migration adds the column exactly where the server offers pgvector (not here, nor in CI today).
      expect(Boolean(column)).toBe(Boolean(offered));

      const user = await t.createUser();
      await t.app.get(WordsService).grant(user.user_id, { words: 100_000, source: 'gift' });
      const avatar = await largeAvatar(base, user.auth);
      expect(holds(await avatar.passages(TEXT_QUESTION), '5521-KESTREL')).toBe(true);
      // Without pgvector only the full-text candidates are compared, and none holds the question's words.
      expect(holds(await avatar.passages(VECTOR_QUESTION), 'Okonkwo')).toBe(Boolean(offered));
    });
  });
});
