/** Sign-in rules both sides speak: API key lifetimes, the two-factor code shape. */

/** The lifetimes, in days, offered when a personal API key is created; the longest is one year. */
export const API_KEY_EXPIRY_DAYS = [30, 90, 180, 365] as const;
export type ApiKeyExpiryDays = (typeof API_KEY_EXPIRY_DAYS)[number];
/** The lifetime chosen when the request names none. */
export const DEFAULT_API_KEY_EXPIRY_DAYS: ApiKeyExpiryDays = 90;

/** A two-factor (TOTP) code: 6 digits, a new one every 30 seconds. */
export const TWO_FACTOR_CODE_DIGITS = 6;
export const TWO_FACTOR_PERIOD_SECONDS = 30;
