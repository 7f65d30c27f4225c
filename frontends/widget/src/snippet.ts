/** What the embed snippet's div says (its data attributes), read once. */
export interface SnippetSettings {
  key: string;
  name: string;
  /** #rrggbb */
  accent: string;
  image: string | null;
  userId: string | null;
  avatarId: string | null;
}

const HEX = /^[0-9a-fA-F]{6}$/;
const KEY = /^wk_[0-9a-f]{24}$/;

export function readSnippet(div: HTMLElement): SnippetSettings | null {
  const key = div.dataset.widgetKey ?? '';
  if (!KEY.test(key)) return null;
  const accent = div.dataset.accentColor ?? '';
  const image = div.dataset.image ?? '';
  return {
    key,
    name: (div.dataset.widgetName ?? '').slice(0, 100) || 'Chat',
    accent: accentOf(accent),
    // Only web images: a data-image of another scheme (javascript:) is ignored.
    image: /^https?:\/\//i.test(image) ? image : null,
    userId: div.dataset.userId ?? null,
    avatarId: div.dataset.avatarId ?? null,
  };
}

/** A colour as six hex digits, with or without #, as #rrggbb; anything else is the default red. */
export function accentOf(value: string | null | undefined): string {
  const digits = (value ?? '').replace(/^#/, '');
  return HEX.test(digits) ? `#${digits.toLowerCase()}` : '#ff0000';
}

/** Black or white text, whichever reads better on the accent colour. */
export function textOn(accent: string): string {
  const n = parseInt(accent.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#111111';
}
