import { startFakeOpenAi } from '../../backend/test/fakes/openai-server';
import { startFakePayPal } from '../../backend/test/fakes/paypal-server';
import { startFakeStripe } from '../../backend/test/fakes/stripe-server';
import { configurePayments, E2E_STRIPE_KEY } from './payments';
import { CUT_PROMPT, CUT_REPLY, FAKE_REPLY, startServer } from './server';

export default async function globalSetup(): Promise<void> {
  // A local OpenAI-compatible fake, so chats stream a known answer through the real SDK and socket.
  const fake = await startFakeOpenAi();
  // 8 pieces 250 ms apart: long enough that a browser test sampling the page sees the answer grow.
  fake.defaultReply = { text: FAKE_REPLY, chunks: 8, delayMs: 250 };
  // A prompt that asks for a long answer is cut short, so the browser can offer Continue generating.
  fake.replyFor = (request) => {
    const last = request.messages[request.messages.length - 1];
    return typeof last?.content === 'string' && last.content.includes(CUT_PROMPT)
      ? { text: CUT_REPLY, chunks: 4, delayMs: 40, finishReason: 'length' }
      : undefined;
  };
  (globalThis as { __fakeOpenAi?: unknown }).__fakeOpenAi = fake;
  // Local Stripe and PayPal APIs: the server's SDK and client talk to them; the browser's scripts are routed there.
  const stripe = await startFakeStripe({ keys: [E2E_STRIPE_KEY] });
  const paypal = await startFakePayPal();
  (globalThis as { __fakePayments?: unknown }).__fakePayments = { stripe, paypal };
  const { child, state } = await startServer(`${fake.url}/v1`, {
    stripeUrl: stripe.url,
    paypalUrl: paypal.url,
  });
  await configurePayments(state, stripe, paypal);
  // Keep the server alive for the whole run; teardown stops it by pid.
  child.unref();
}
