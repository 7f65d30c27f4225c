/**
 * Every app config key the product knows (settings and organization flags), as data: its default,
 * whether it is a secret (encrypted at rest, never public, masked for admins), how its value is checked, and
 * the admin settings tab it belongs to (Content, Advanced or Super Fetch).
 */
import { FEATURE_BY_FLAG, FEATURE_FLAGS } from '@avatar-studio/contracts';

export const CONFIG_TYPES = ['boolean', 'string', 'json', 'url', 'color'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

export const CONFIG_GROUPS = ['Content', 'Advanced', 'Super Fetch'] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];

export interface ConfigKey {
  key: string;
  default: string | null;
  secret: boolean;
  type: ConfigType;
  group: ConfigGroup;
  /** When set, the only values accepted (besides empty). */
  options?: readonly string[];
  /** A url that may also be a path on this server, such as an uploaded file's src. */
  localPath?: boolean;
  /** Not a secret, but only the server uses it, so it stays out of the public config. */
  internal?: boolean;
  /** A URL the server itself requests: it must not lead to a private address (checked when saved and used). */
  fetched?: boolean;
}

const DEFAULT_SUPER_FETCH_PROMPT = [
  'You are an expert copywriter and content strategist.',
  'Task: {Task}',
  'Topic: {Topic}',
  'Target audience: {Target}',
  'Write as this persona: {Person}',
  'Tone of voice: {Tone}',
  'Use this formula or format: {Format}',
  'Examples to take inspiration from (may be empty): {Examples}',
  'Call to action to close with (may be empty): {CTA}',
  'Extra instructions (may be empty): {Prompt}',
  'Answer with the finished content only, ready to publish, in the language of the topic.',
].join('\n');

/** The keys a template list may be sorted by. */
export const TEMPLATE_SORT_KEYS = ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc'] as const;

/** The landing texts that may have a Spanish version, as `<key>_es`. */
const LANDING_SPANISH_KEYS = [
  'title',
  'tagline',
  'high_ticket_offer_name',
  ...[1, 2, 3].flatMap((n) => [
    `feature${n}_title`,
    `feature${n}_description`,
    `benefit${n}_title`,
    `benefit${n}_description`,
  ]),
].map((key) => `${key}_es`);

const flag = (key: string, on: boolean, group: ConfigGroup = 'Content'): ConfigKey => ({
  key,
  default: on ? 'true' : 'false',
  secret: false,
  type: 'boolean',
  group,
});
const text = (key: string, value: string | null, group: ConfigGroup = 'Content'): ConfigKey => ({
  key,
  default: value,
  secret: false,
  type: 'string',
  group,
});
const link = (key: string, group: ConfigGroup = 'Content', localPath = true): ConfigKey => ({
  key,
  default: null,
  secret: false,
  type: 'url',
  group,
  localPath,
});
const secret = (key: string, type: ConfigType): ConfigKey => ({
  key,
  default: null,
  secret: true,
  type,
  group: 'Advanced',
});
/** Server-side only: left out of the public config (the browser never reads it). */
const internal = (def: ConfigKey): ConfigKey => ({ ...def, internal: true });
/** A URL the server requests (see ConfigKey.fetched). */
const fetched = (def: ConfigKey): ConfigKey => ({ ...def, fetched: true });

export const CONFIG_KEYS: readonly ConfigKey[] = [
  // Branding and landing (Content tab)
  text('app_name', 'Avatar Studio'),
  text('title', 'Avatar Studio'),
  text('tagline', 'Your AI content studio'),
  text('email', null),
  text('domain', null),
  { key: 'primary_color', default: '#7048e8', secret: false, type: 'color', group: 'Content' },
  { key: 'accent_color', default: '#f76707', secret: false, type: 'color', group: 'Content' },
  link('profile_placeholder'),
  link('landing_image_src'),
  link('landing_logo_src'),
  link('favicon_url'),
  link('intro_video_url'),
  text('high_ticket_offer_name', null),
  link('high_ticket_offer_link', 'Content', false),
  text('feature1_title', null),
  text('feature1_description', null),
  text('feature2_title', null),
  text('feature2_description', null),
  text('feature3_title', null),
  text('feature3_description', null),
  text('benefit1_title', null),
  text('benefit1_description', null),
  text('benefit2_title', null),
  text('benefit2_description', null),
  text('benefit3_title', null),
  text('benefit3_description', null),
  // The Spanish landing page (/latam) shows these when set, else the English ones above.
  ...LANDING_SPANISH_KEYS.map((key) => text(key, null)),
  // Switches
  // Feature flags: declared with what they gate in the contracts package.
  ...FEATURE_FLAGS.map((key) => flag(key, FEATURE_BY_FLAG[key].defaultOn)),
  {
    key: 'templates_default_sort',
    default: 'createdAt_desc',
    secret: false,
    type: 'string',
    group: 'Content',
    options: TEMPLATE_SORT_KEYS,
  },
  // Integrations (Advanced tab)
  text('tracking_code', null, 'Advanced'),
  internal(text('bucket', null, 'Advanced')),
  internal(text('region', null, 'Advanced')),
  internal(fetched(link('S3_ENDPOINT', 'Advanced', false))),
  text('stripe_public_key', null, 'Advanced'),
  secret('stripe_private_key', 'string'),
  secret('stripe_webhook_key', 'string'),
  // PayPal: the client id is public (the browser loads PayPal's script with it); the webhook id names the
  // webhook registered at PayPal, which its signature check needs.
  text('paypal_client_id', null, 'Advanced'),
  secret('paypal_client_secret', 'string'),
  internal(text('paypal_webhook_id', null, 'Advanced')),
  fetched(secret('payment_failed_email_webhook_url', 'url')),
  secret('openai_secret_key', 'string'),
  internal(text('openai_model', 'gpt-4o-mini', 'Advanced')),
  // An OpenAI-compatible server (a proxy, or a local one such as Ollama); OPENAI_BASE_URL when unset.
  internal(fetched(link('openai_base_url', 'Advanced', false))),
  fetched(secret('welcome_email_webhook_url', 'url')),
  fetched(secret('reset_password_email_webhook_url', 'url')),
  fetched(secret('security_notice_email_webhook_url', 'url')),
  fetched(secret('organization_invitation_email_webhook_url', 'url')),
  secret('firebaseConfig', 'json'),
  secret('push_config', 'json'),
  // SearXNG base URL for web search (SEARCH_URL when unset); kept private, it may name an internal host.
  fetched(secret('search_url', 'url')),
  // Super Fetch tab
  internal(text('super_fetch_prompt', DEFAULT_SUPER_FETCH_PROMPT, 'Super Fetch')),
];

export const CONFIG_KEY_MAP: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [k.key, k]));
