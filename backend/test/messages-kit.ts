import { WordsService } from '../src/modules/words/words.service';
import { FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { startTestApp, TestApp, TestUser } from './harness';
import { ClientSocket, userSocket } from './sockets';

/** Shared set-up of the messages API specs: the app against the fake OpenAI, customers, sockets. */

export interface Received {
  event: string;
  payload: Record<string, unknown>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}

export interface MessagesKit {
  t: TestApp;
  fake: FakeOpenAi;
  words: WordsService;
  customer(grant?: number | null): Promise<TestUser>;
  conversation(user: TestUser): Promise<number>;
  listen(user: TestUser): Promise<{ socket: ClientSocket; events: Received[] }>;
  post(user: TestUser, path: string, body: object): ReturnType<ReturnType<TestApp['http']>['post']>;
  balance(user: TestUser): Promise<number>;
  debits(user: TestUser): Promise<{ source: string; reference: string; words: string | number }[]>;
  rows(conversationId: number): Promise<Record<string, unknown>[]>;
  disconnectAll(): void;
  close(): Promise<void>;
}

export async function startMessagesKit(extraEnv: Record<string, string> = {}): Promise<MessagesKit> {
  const fake = await startFakeOpenAi();
  const t = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1`, ...extraEnv });
  await t.app.listen(0);
  const words = t.app.get(WordsService);
  const sockets: ClientSocket[] = [];

  return {
    t,
    fake,
    words,
    async customer(grant = 1000) {
      const user = await t.createUser();
      if (grant) await words.grant(user.user_id, { words: grant, source: 'gift' });
      return user;
    },
    async conversation(user) {
      const res = await t
        .http()
        .post('/api/conversations')
        .set('Authorization', user.auth)
        .send({ name: 'Chat' })
        .expect(201);
      return res.body.conversation.conversation_id as number;
    },
    async listen(user) {
      const events: Received[] = [];
      const socket = await userSocket(t.app, user, (s) =>
        s.onAny((event: string, payload: Record<string, unknown>) => events.push({ event, payload })),
      );
      sockets.push(socket);
      return { socket, events };
    },
    post: (user, path, body) => t.http().post(path).set('Authorization', user.auth).send(body),
    balance: async (user) => (await words.balance(user.user_id)).words,
    debits: (user) =>
      t.db.query(`SELECT * FROM word_ledger WHERE user_id = $1 AND kind = 'debit' ORDER BY entry_id`, [
        user.user_id,
      ]),
    rows: (conversationId) =>
      t.db.query(`SELECT * FROM messages WHERE conversation_id = $1 ORDER BY message_id`, [conversationId]),
    disconnectAll() {
      for (const socket of sockets.splice(0)) socket.disconnect();
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}
