/**
 * The phone rule of sign-up and the profile, the same in the form and on the server: exactly 10 digits, written
 * with or without separators (spaces, dots, dashes, parentheses, a leading '+'), never three separators in a row.
 * A number with a country code has more than 10 digits and is refused rather than cut to the wrong 10.
 */

export const PHONE_DIGITS = 10;
export const PHONE_MESSAGE = 'Phone number is invalid.';

export function isValidPhone(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  const text = raw.trim();
  if (!/^\+?[\d\s().-]+$/.test(text)) return false;
  if (/[\s().-]{3,}/.test(text)) return false;
  return text.replace(/\D/g, '').length === PHONE_DIGITS;
}

/** What is stored and sent: the digits only, cut to 10. */
export function shapePhone(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PHONE_DIGITS);
}
