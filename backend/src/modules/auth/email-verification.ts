import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A verification link works for 48 hours; a new one can be sent from Settings. */
export const VERIFY_EMAIL_TTL_MS = 48 * 60 * 60 * 1000;

export type VerificationRead = { user_id: number; emailTag: string } | 'invalid' | 'expired';

function key(appSecret: string): Buffer {
  return createHash('sha256').update(`verify-email:${appSecret}`).digest();
}

/** Ties a link to the address it was sent to, so it cannot verify another address of the same account. */
export function emailTag(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 16);
}

/** `<payload>.<HMAC>`, the payload being `user_id.expiry(seconds).emailTag`, all base64url. */
export function signVerificationToken(
  appSecret: string,
  user_id: number,
  email: string,
  now = Date.now(),
): string {
  const payload = `${user_id}.${Math.floor((now + VERIFY_EMAIL_TTL_MS) / 1000)}.${emailTag(email)}`;
  const body = Buffer.from(payload).toString('base64url');
  const sig = createHmac('sha256', key(appSecret)).update(body).digest('base64url');
  return `${body}.${sig}`;
}

export function readVerificationToken(appSecret: string, token: string, now = Date.now()): VerificationRead {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined || body.length > 200) return 'invalid';
  const expected = createHmac('sha256', key(appSecret)).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  const [id, exp, tag] = Buffer.from(body, 'base64url').toString('utf8').split('.');
  const user_id = Number(id);
  const expiry = Number(exp);
  if (!Number.isInteger(user_id) || user_id < 1 || !Number.isInteger(expiry) || !tag) return 'invalid';
  if (expiry * 1000 <= now) return 'expired';
  return { user_id, emailTag: tag };
}

/** The link of the shell's verification page for a token. */
export function verifyEmailLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/verify-email?token=${encodeURIComponent(token)}`;
}
