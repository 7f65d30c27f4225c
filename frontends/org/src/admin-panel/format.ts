import dayjs from 'dayjs';
import 'dayjs/locale/es';

/** A calendar day as the API writes it. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** 002 §9: the date range defaults to the start and end of the current month. */
export function currentMonthRange(now: Date = new Date()): [string, string] {
  const day = dayjs(now);
  return [day.startOf('month').format(DAY_FORMAT), day.endOf('month').format(DAY_FORMAT)];
}

/** 000 §9: dates show as 'MMM DD YYYY' (en) or 'DD MMM YYYY' (es). */
export function dateDisplayFormat(language: string): string {
  return language.startsWith('es') ? 'DD MMM YYYY' : 'MMM DD YYYY';
}

export function formatDate(value: string | Date | null | undefined, language: string): string | null {
  if (!value) return null;
  const day = dayjs(value);
  if (!day.isValid()) return null;
  return day.locale(language.startsWith('es') ? 'es' : 'en').format(dateDisplayFormat(language));
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 000 §9: thousands separators are commas. */
export function formatWords(value: number | null | undefined): string {
  return WHOLE.format(Number(value ?? 0));
}

/** LTV in USD with two decimals (the column header carries the $). */
export function formatMoney(value: number | null | undefined): string {
  return MONEY.format(Number(value ?? 0));
}

/** "A non-numeric id means create" (002 §4): the numeric id in a route, or null. */
export function numericId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
