import type { SetupProblem } from '@avatar-studio/contracts';

/**
 * What a failed test says, in words for the person running the product, with what to do. The back office shows
 * its own translation of each code (en, es); these English sentences are the API's.
 */
export const SETUP_PROBLEM_MESSAGES: Record<SetupProblem, string> = {
  not_configured: 'This is not set up yet. Fill in its settings, save, and test again.',
  address_refused:
    'The address in the settings points to a private network that the server is not allowed to reach. Use a public address, or ask whoever runs the server to allow it (OUTBOUND_ALLOW).',
  ai_key_rejected:
    'The AI provider refused the API key. Copy the key again from your provider account, paste it in the settings, save, and test again.',
  ai_unreachable:
    'The AI provider did not answer. Check the base URL (or leave it empty to use OpenAI) and that the server can reach it, then test again.',
  ai_no_answer:
    'The AI provider answered, but without any text. Check that the default model exists at your provider, then test again.',
  search_failed:
    'The web search server did not answer properly. Check the search address in the settings, then test again.',
  search_no_results:
    'The web search server answered but found nothing. Check that it has search engines switched on, then test again.',
  email_failed:
    'The email webhook did not accept the message. Check the welcome email webhook address and that your automation tool is on, then test again.',
  storage_write_failed:
    'A file could not be saved. Check the bucket, region and endpoint settings (or the permissions of the data folder), then test again.',
  storage_read_mismatch:
    'A saved file could not be read back as it was written. Check the bucket and its permissions, then test again.',
  stripe_key_rejected:
    'Stripe refused the secret key. Copy the secret key (it starts with sk_) from your Stripe dashboard, paste it in the settings, save, and test again.',
  stripe_unreachable: 'Stripe did not answer. Try again in a few minutes.',
  stripe_webhook_secret_missing:
    'The Stripe key works, but the webhook signing secret is missing. Add a webhook in your Stripe dashboard and paste its signing secret (it starts with whsec_) in the settings.',
  paypal_key_rejected:
    'PayPal refused the client ID and secret. Copy both again from your PayPal developer dashboard, save, and test again.',
  paypal_unreachable: 'PayPal did not answer. Try again in a few minutes.',
};

/** An error carrying one of the problems above. */
export class SetupProblemError extends Error {
  constructor(readonly problem: SetupProblem) {
    super(SETUP_PROBLEM_MESSAGES[problem]);
  }
}

export const setupProblem = (problem: SetupProblem) => new SetupProblemError(problem);
