/**
 * Starts the fake Stripe and PayPal APIs in their own process, for the bench and the browser tests: it reports
 * { stripeUrl, stripeWebhookSecret, stripeKey, paypalUrl, paypalClientId, paypalClientSecret, paypalWebhookId }
 * over IPC (or prints it as JSON when run without a parent), and then answers IPC requests:
 * { op: 'completeAction', id } and { op: 'approveOrder', id } (what a buyer does in Stripe.js or PayPal's window),
 * { op: 'webhookUrl', stripe, paypal } (where events go; Stripe's are then delivered as they happen).
 */
import { startFakePayPal } from './paypal-server';
import { startFakeStripe } from './stripe-server';

const STRIPE_KEY = process.env.FAKE_STRIPE_KEY ?? 'sk_test_platform';

async function main(): Promise<void> {
  const stripe = await startFakeStripe({ keys: [STRIPE_KEY] });
  const paypal = await startFakePayPal();
  const info = {
    stripeUrl: stripe.url,
    stripeWebhookSecret: stripe.webhookSecret,
    stripeKey: STRIPE_KEY,
    paypalUrl: paypal.url,
    paypalClientId: paypal.clientId,
    paypalClientSecret: paypal.clientSecret,
    paypalWebhookId: paypal.webhookId,
  };
  process.on(
    'message',
    (message: { op: string; id?: string; stripe?: string; paypal?: string; seq?: number }) => {
      let result: unknown = null;
      try {
        if (message.op === 'completeAction' && message.id) result = stripe.completeAction(message.id).status;
        if (message.op === 'approveOrder' && message.id) paypal.approveOrder(message.id);
        if (message.op === 'approveSubscription' && message.id) paypal.approveSubscription(message.id);
        if (message.op === 'webhookUrl') {
          stripe.webhookUrl = message.stripe ?? null;
          stripe.autoDeliver = Boolean(message.stripe);
          paypal.webhookUrl = message.paypal ?? null;
        }
      } catch (err) {
        result = { error: (err as Error).message };
      }
      process.send?.({ seq: message.seq, result });
    },
  );
  if (process.send) process.send(info);
  else console.log(JSON.stringify(info));
}

void main();
