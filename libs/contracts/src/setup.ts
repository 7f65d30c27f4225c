/**
 * The first-run setup checklist: its items, their states, and the problems a connection test reports. The
 * back office words each problem (en and es) from its code; the API also sends an English sentence.
 */

export const SETUP_ITEMS = [
  'ai',
  'search',
  'email',
  'storage',
  'stripe',
  'paypal',
  'branding',
  'product',
  'signup',
] as const;
export type SetupItem = (typeof SETUP_ITEMS)[number];

/** Items the banner asks for until they are done. */
export const REQUIRED_SETUP_ITEMS: readonly SetupItem[] = ['ai', 'storage', 'branding'];

/** Items with a connection test. */
export const TESTABLE_SETUP_ITEMS: readonly SetupItem[] = [
  'ai',
  'search',
  'email',
  'storage',
  'stripe',
  'paypal',
];

/**
 * todo: not set up; untested: set up, no test passed since the last settings change; done: set up (and its test
 * passed, when it has one); failed: its last test failed.
 */
export const SETUP_STATES = ['todo', 'untested', 'done', 'failed'] as const;
export type SetupState = (typeof SETUP_STATES)[number];

/** What a failed test found, each with a plain sentence and what to do in the back office's translations. */
export const SETUP_PROBLEMS = [
  'not_configured',
  'address_refused',
  'ai_key_rejected',
  'ai_unreachable',
  'ai_no_answer',
  'search_failed',
  'search_no_results',
  'email_failed',
  'storage_write_failed',
  'storage_read_mismatch',
  'stripe_key_rejected',
  'stripe_unreachable',
  'stripe_webhook_secret_missing',
  'paypal_key_rejected',
  'paypal_unreachable',
] as const;
export type SetupProblem = (typeof SETUP_PROBLEMS)[number];

/** Remarks on a passed test: the service works, but something still needs attention. */
export const SETUP_WARNINGS = [
  'webhook_address_private',
  'paypal_webhook_id_missing',
  'ai_models_unlisted',
] as const;
export type SetupWarning = (typeof SETUP_WARNINGS)[number];

/** The starter templates and workflows: loaded on the first start, removed by staff, or never loaded. */
export const STARTER_CONTENT_STATES = ['loaded', 'removed', 'none'] as const;
export type StarterContentState = (typeof STARTER_CONTENT_STATES)[number];
