/** Money and ids as the back-office screens show and send them: the API speaks whole cents, people read dollars. */
import { formatMoney } from '@avatar-studio/shared';

/** '$1,234.50' from cents: USD with comma thousands separators. */
export function usd(cents: number | null | undefined): string {
  return `$${formatMoney((cents ?? 0) / 100)}`;
}

/** Whole cents from an amount in dollars typed in a form (rounded to the cent). */
export function toCents(dollars: number | string | null | undefined): number {
  const value = Number(dollars ?? 0);
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

/** A non-numeric id in a route means create: the numeric id, or null. */
export function numericId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
