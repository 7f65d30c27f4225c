import dayjs from 'dayjs';
// The date picker writes Spanish month names through dayjs's locale.
import 'dayjs/locale/es';

/** A calendar day as the API writes it. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** The date range defaults to the start and end of the current month. */
export function currentMonthRange(now: Date = new Date()): [string, string] {
  const day = dayjs(now);
  return [day.startOf('month').format(DAY_FORMAT), day.endOf('month').format(DAY_FORMAT)];
}

// Dates and numbers use the one formatter of every screen (frontends/shared).
export {
  dateDisplayFormat,
  formatDate,
  formatMoney,
  formatNumber as formatWords,
} from '@avatar-studio/shared';

/** A non-numeric id in a route means create: the numeric id, or null. */
export function numericId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
