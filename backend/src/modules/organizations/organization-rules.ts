/** Pure rules of organizations: slugs, host names, media sources and the users-list date range. */
import {
  isReservedSlug,
  ORGANIZATION_SLUG_MAX_LENGTH,
  ORGANIZATION_SLUG_PATTERN,
} from '@avatar-studio/contracts';

const MAX_SLUG = ORGANIZATION_SLUG_MAX_LENGTH;

export const SLUG_INVALID =
  'The slug may hold only lowercase letters, digits and single dashes (120 characters at most), such as acme-co.';
export const SLUG_TAKEN = 'That slug is already used by another organization.';

/** The message refusing a slug that is one of the app's own addresses. */
export function slugReservedMessage(slug: string): string {
  return `"${slug}" is one of the app's own addresses (/${slug}), so it cannot name an organization. Choose another slug.`;
}

/** Why a chosen slug cannot be used ('invalid' shape or 'reserved' route), or null when it can. */
export function slugProblem(slug: string): 'invalid' | 'reserved' | null {
  if (slug.length > MAX_SLUG || !ORGANIZATION_SLUG_PATTERN.test(slug)) return 'invalid';
  return isReservedSlug(slug) ? 'reserved' : null;
}

/** URL-safe form of a name: lowercase ASCII letters, digits and single dashes ("Acmé Co." -> "acme-co"). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || 'organization';
}

/** Lowercase, trimmed, without a trailing dot or a port, as browsers report `location.host`. */
export function normalizeHost(value: string): string {
  return value.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A DNS host name of at least two labels (acme.example.com). The last label must not be all digits, so IP
 * addresses are refused: an organization is chosen by the host name its users type.
 */
export function isHostName(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]);
}

/** Where uploaded files are served; the upload call answers `{ file: { src } }` with such a path. */
export const FILE_SRC_PREFIX = '/api/files/content/';

/** A thumbnail or welcome video: an uploaded file's src, or an http(s) URL. */
export function isMediaSrc(value: string): boolean {
  if (value.length > 2048) return false;
  if (value.startsWith(FILE_SRC_PREFIX)) {
    const rest = value.slice(FILE_SRC_PREFIX.length);
    return /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(rest) && !rest.split('/').includes('..');
  }
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A calendar day written YYYY-MM-DD that really exists (2024-02-30 does not). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export interface DayRange {
  /** First day, YYYY-MM-DD. */
  start_date: string;
  /** Last day (inclusive), YYYY-MM-DD. */
  end_date: string;
  /** Start instant, inclusive (UTC midnight of start_date). */
  from: Date;
  /** End instant, exclusive (UTC midnight after end_date). */
  to: Date;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The users-list range: the given days, each side defaulting to the current month's first or last day (UTC).
 * Returns null when start is after end.
 */
export function dayRange(
  start: string | undefined,
  end: string | undefined,
  now = new Date(),
): DayRange | null {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  const start_date = start ?? day(first);
  const end_date = end ?? day(last);
  if (start_date > end_date) return null;
  const from = new Date(`${start_date}T00:00:00.000Z`);
  const to = new Date(new Date(`${end_date}T00:00:00.000Z`).getTime() + 24 * 60 * 60 * 1000);
  return { start_date, end_date, from, to };
}
