import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../common/auth/api-key';
import { sha256 } from '../../common/crypto/secret-box';

/** The user field validation and sign-up messages, word for word as the API answers them. */
export const USER_MESSAGES = {
  name: 'Name is invalid.',
  lastName: 'Last name is invalid.',
  email: 'Email is invalid.',
  password: 'Password must be 6 characters long.',
  phone: 'Phone number is invalid.',
  emailExists: 'You already have an account, please login.',
  phoneNotFound: "We're sorry, we couldn't find an account with that number.",
  emailNotFound: "We're sorry, we couldn't find an account with that email.",
} as const;

export const PASSWORD_MIN_LENGTH = 6;
/** Long enough for any passphrase, short enough that hashing it is no denial of service. */
export const PASSWORD_MAX_LENGTH = 200;
// The phone rule is one rule for the sign-up form and the server, in the contracts package.
export { PHONE_DIGITS, isValidPhone, shapePhone } from '@avatar-studio/contracts/phone';

/** A real calendar date written YYYY-MM-DD, from 1900 up to today. */
export function isValidBirthday(raw: unknown, today: Date = new Date()): raw is string {
  if (typeof raw !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return false;
  }
  return year >= 1900 && raw <= today.toISOString().slice(0, 10);
}

/** Emails are compared and stored lowercased and trimmed. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** A personal API key: `as_` + 32 random bytes base64url. Only its sha256 and last 4 characters are kept. */
export function generateApiKey(): { key: string; hash: string; last4: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: sha256(key), last4: key.slice(-4) };
}

/** How answers show a stored key: prefix, ellipsis, last 4. */
export function maskApiKey(last4: string | null): string | null {
  return last4 ? `${API_KEY_PREFIX}…${last4}` : null;
}

/** Profile image src: an http(s) URL or a path on this site (what POST /files answers). */
export function isImageSrc(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length > 2048) return false;
  if (raw.startsWith('/') && !raw.startsWith('//')) return !/[\s<>"]/.test(raw);
  return isHttpUrl(raw);
}

export function isHttpUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length > 2048) return false;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
