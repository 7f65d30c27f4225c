import { WordsService } from '../src/modules/words/words.service';
import { startTestApp, TestApp, TestUser } from './harness';

/**
 * Bound on a health probe's answer while a file is being read. The quadratic clean-up held every request for
 * 8 s on 40 KB (hours on 25 MB); 2 s leaves room for a 2-core machine running other test files at once.
 */
const PROMPT_MS = 2000;

describe('Hardening: reading an uploaded file never stalls the server', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ OPENAI_API_KEY: 'sk-test', MAX_UPLOAD_BYTES: String(25 * 1024 * 1024) });
  });
  afterAll(async () => {
    await t.close();
  });

  async function conversationOfNewUser(): Promise<{ user: TestUser; id: number }> {
    const user = await t.createUser();
    await t.app.get(WordsService).grant(user.user_id, { words: 1000, source: 'gift' });
    const res = await t
      .http()
      .post('/api/conversations')
      .set('Authorization', user.auth)
      .send({ name: 'Chat' })
      .expect(201);
    return { user, id: res.body.conversation.conversation_id as number };
  }

  /**
   * Attaches `data` and, until the answer comes, asks /api/health/live again and again; answers the attach
   * response and the slowest probe.
   */
  async function attachWhileProbing(user: TestUser, id: number, data: Buffer, name: string) {
    let done = false;

    const attach = Promise.resolve(
      t
        .http()
        .post(`/api/conversations/file/${id}`)
        .set('Authorization', user.auth)
        .attach('file', data, name),
    ).finally(() => (done = true));
    const probes: number[] = [];
    while (!done) {
      const started = performance.now();
      await t.http().get('/api/health/live').expect(200);
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { res: await attach, probes, slowest: Math.max(0, ...probes) };
  }

  const storedText = async (id: number) =>
    (
      (await t.db.query(`SELECT extracted_text FROM conversation_files WHERE conversation_id = $1`, [
        id,
      ])) as {
        extracted_text: string;
      }[]
    )[0]?.extracted_text;

  it('reads a .txt holding a 1 MB run of blanks (quadratic before: most of an hour) while /api/health/live answers promptly', async () => {
    const { user, id } = await conversationOfNewUser();
    // A blank run not followed by a line end is what made the old /[ \t\u00a0]+$/gm rescan it from every position.
    const text = ' \t'.repeat(512 * 1024) + 'the end, after the blanks \n\n\n\nlast line \t';
    const { res, probes, slowest } = await attachWhileProbing(user, id, Buffer.from(text), 'blanks.txt');
    expect(res.status).toBe(201);
    expect(probes.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(PROMPT_MS);
    expect(await storedText(id)).toBe('the end, after the blanks\n\nlast line');
  });

  it('reads a 25 MB .txt upload in the pool while /api/health/live answers promptly, keeping its first million characters', async () => {
    const { user, id } = await conversationOfNewUser();
    const line = 'Línea de texto con espacios al final   \t\n';
    const size = 25 * 1024 * 1024 - 1024;
    const data = Buffer.alloc(size, ' ');
    let at = 0;
    const lineBytes = Buffer.from(line);
    while (at + lineBytes.length <= size) at += lineBytes.copy(data, at);
    const { res, probes, slowest } = await attachWhileProbing(user, id, data, 'big.txt');
    expect(res.status).toBe(201);
    expect(res.body.conversation.file.size).toBe(size);
    expect(probes.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(PROMPT_MS);
    const stored = await storedText(id);
    expect(stored.length).toBe(1_000_000);
    expect(stored.startsWith('Línea de texto con espacios al final\nLínea de texto')).toBe(true);
    expect(stored.includes(' \n') || stored.includes('\t')).toBe(false);
  }, 60_000);
});
