import { randomBytes } from 'node:crypto';

/** A session lives 30 days from its last refresh. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** One-time sign-in tokens match the spec's 5-minute temporary uid. */
export const SIGN_IN_TOKEN_TTL_MS = 5 * 60 * 1000;

/** 32 random bytes, base64url: refresh, reset and sign-in tokens. Only their sha256 is stored. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The link of the reset-password screen for a token. */
export function resetPasswordLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/** A staff admin's code to open a customer's account works once, within this time. */
export const IMPERSONATION_CODE_TTL_MS = 60 * 1000;
/** A session opened with that code ends after this long, however often it is refreshed. */
export const IMPERSONATION_SESSION_TTL_MS = 15 * 60 * 1000;
