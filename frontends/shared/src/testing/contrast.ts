import { DEFAULT_THEME } from '@mantine/core';

/** WCAG contrast of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** A Mantine colour variable (var(--mantine-color-red-9)) as its hex value in the default palette. */
export function paletteColor(variable: string): string {
  const match = /--mantine-color-([a-z]+)-(\d)\)/.exec(variable);
  if (!match) throw new Error(`not a palette colour: ${variable}`);
  return DEFAULT_THEME.colors[match[1]][Number(match[2])];
}
