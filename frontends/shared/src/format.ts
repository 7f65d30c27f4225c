/**
 * The one date and number formatter of every screen: dates show as 'MMM DD YYYY' in English and 'DD MMM YYYY' in
 * Spanish, numbers with comma thousands separators in both languages. Built on Intl (no date library in the
 * shell's first download).
 */
import { useTranslation } from 'react-i18next';

type DateInput = string | number | Date | null | undefined;

const isSpanish = (language: string) => language.startsWith('es');

/** The display pattern of a language, for date pickers (dayjs tokens). */
export function dateDisplayFormat(language: string): string {
  return isSpanish(language) ? 'DD MMM YYYY' : 'MMM DD YYYY';
}

const DAY = {
  en: new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' }),
  es: new Intl.DateTimeFormat('es-ES', { month: 'short', day: '2-digit', year: 'numeric' }),
};
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Mar 04 2025' (en) or '04 mar 2025' (es), in the browser's time zone; null for no date or an invalid one. */
export function formatDate(value: DateInput, language: string): string | null {
  const date = toDate(value);
  if (!date) return null;
  const parts = Object.fromEntries(
    (isSpanish(language) ? DAY.es : DAY.en).formatToParts(date).map((p) => [p.type, p.value]),
  );
  const month = parts.month.replace(/\.$/, '');
  return isSpanish(language) ? `${parts.day} ${month} ${parts.year}` : `${month} ${parts.day} ${parts.year}`;
}

/** The date as formatDate writes it, then the 24-hour time: 'Mar 04 2025 14:05'. */
export function formatDateTime(value: DateInput, language: string): string | null {
  const date = toDate(value);
  return date ? `${formatDate(date, language)} ${TIME.format(date)}` : null;
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A whole number with comma thousands separators in every language: '12,345'. */
export function formatNumber(value: number | string | null | undefined): string {
  return WHOLE.format(Number(value ?? 0));
}

/** An amount with two decimals and comma thousands separators: '1,234.50' (the column or label carries the $). */
export function formatMoney(value: number | string | null | undefined): string {
  return MONEY.format(Number(value ?? 0));
}

/** The formatters bound to the current language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language ?? 'en';
  return {
    language,
    date: (value: DateInput) => formatDate(value, language),
    dateTime: (value: DateInput) => formatDateTime(value, language),
    number: formatNumber,
    money: formatMoney,
  };
}
