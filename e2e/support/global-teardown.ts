import type { FakeOpenAi } from '../../backend/test/fakes/openai-server';
import { stopServer } from './server';

export default async function globalTeardown(): Promise<void> {
  await stopServer();
  await (globalThis as { __fakeOpenAi?: FakeOpenAi }).__fakeOpenAi?.close();
  const payments = (
    globalThis as {
      __fakePayments?: { stripe: { close(): Promise<void> }; paypal: { close(): Promise<void> } };
    }
  ).__fakePayments;
  await payments?.stripe.close();
  await payments?.paypal.close();
}
