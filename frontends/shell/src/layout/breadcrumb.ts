/** The breadcrumb of a page, as a pure function of its path. */

export type Breadcrumb =
  | { kind: 'hidden' }
  | { kind: 'back'; parent: string }
  | { kind: 'trail'; items: { label: string; to: string | null }[] };

const NUMERIC = /^\d+$/;

/** 'admin-panel' -> 'Admin Panel', 'user_workflows' -> 'User Workflows'. */
export function titleCase(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // keep the raw segment when it is not valid percent-encoding
  }
  return text
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Numeric segments are removed and the rest title-cased. With two or fewer left, only a Back link shows;
 * otherwise a trail whose items link to the path up to them (the last one, the current page, does not link).
 * `hiddenOn` lists exact paths where the bar is hidden (the home page always is).
 */
export function buildBreadcrumb(pathname: string, hiddenOn: Iterable<string> = []): Breadcrumb {
  const raw = pathname.split('/').filter(Boolean);
  const normalized = '/' + raw.join('/');
  if (raw.length === 0 || new Set(hiddenOn).has(normalized)) return { kind: 'hidden' };
  const named = raw
    .map((segment, index) => ({ segment, index }))
    .filter(({ segment }) => !NUMERIC.test(segment));
  if (named.length <= 2) return { kind: 'back', parent: '/' + raw.slice(0, -1).join('/') };
  return {
    kind: 'trail',
    items: named.map(({ segment, index }, i) => ({
      label: titleCase(segment),
      to: i === named.length - 1 ? null : '/' + raw.slice(0, index + 1).join('/'),
    })),
  };
}
