/**
 * The app's own addresses, which the backend (landing pages, organization slugs) and the shell both follow.
 */

/**
 * First path segments that are the app's own routes (or the API's): an organization's slug may never be one,
 * or `/{org_slug}/...` could not tell an organization from a screen.
 */
export const RESERVED_PATH_SEGMENTS: readonly string[] = [
  'admin',
  'api',
  'assets',
  'auth',
  'avatars',
  'billing',
  'campaign',
  'chat-widget-generator',
  'chats',
  'checkout',
  'conversation',
  'conversations',
  'documents',
  'hashtags',
  'latam',
  'login',
  'organization',
  'organizations',
  'pricing',
  'profile',
  'recovery',
  'remotes',
  'reset-password',
  'settings',
  'signup',
  'sorry',
  'staff',
  'super-fetch',
  'templates',
  'thankyou',
  'topics',
  'tutorials',
  'upgrade',
  'user_workflows',
  'verify-email',
  'welcome',
  'widget',
  'workflows',
];

const RESERVED = new Set(RESERVED_PATH_SEGMENTS);

/** Whether an organization slug would shadow one of the app's own routes. */
export function isReservedSlug(slug: string): boolean {
  return RESERVED.has(slug.trim().toLowerCase());
}

/** The shape of an organization slug: lowercase ASCII letters and digits in groups joined by single dashes. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ORGANIZATION_SLUG_MAX_LENGTH = 120;

/** The English landing page (when landing_enabled) and the Spanish one (when spanish_enabled). */
export const LANDING_PATH = '/';
export const SPANISH_LANDING_PATH = '/latam';

/**
 * A cookie the browser sets while it holds a session (its tokens live in localStorage, which the server cannot
 * see): with it, `/` serves the app instead of the landing page. A hint only, never a credential.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/** The visitor's answer to the landing page's cookie banner ('accepted' or 'declined'), kept in localStorage. */
export const COOKIE_CONSENT_STORAGE_KEY = 'cookie_consent';
