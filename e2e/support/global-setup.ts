import { startFakeOpenAi } from '../../backend/test/fakes/openai-server';
import { FAKE_REPLY, startServer } from './server';

export default async function globalSetup(): Promise<void> {
  // A local OpenAI-compatible fake, so chats stream a known answer through the real SDK and socket.
  const fake = await startFakeOpenAi();
  fake.defaultReply = { text: FAKE_REPLY, chunks: 8, delayMs: 80 };
  (globalThis as { __fakeOpenAi?: unknown }).__fakeOpenAi = fake;
  const { child } = await startServer(`${fake.url}/v1`);
  // Keep the server alive for the whole run; teardown stops it by pid.
  child.unref();
}
