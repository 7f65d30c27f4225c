import {
  Button,
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';

/** Breakpoints: 450 px (small), 1200 px and 1300 px. Mantine needs five, in em. */
export const BREAKPOINTS = { xs: '28.125em', sm: '48em', md: '75em', lg: '81.25em', xl: '90em' } as const;
export const BREAKPOINT_PX = { small: 450, medium: 1200, large: 1300 } as const;

function parseHex(hex: string | null | undefined): [number, number, number] | null {
  const match = hex?.trim().match(/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i);
  if (!match) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

function mix([r, g, b]: [number, number, number], target: number, amount: number): string {
  const channel = (c: number) =>
    Math.round(c + (target - c) * amount)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(r)}${channel(g)}${channel(b)}`;
}

/** Ten shades around a brand colour (shade 6 is the colour itself), or null for an invalid colour. */
export function shadesOf(hex: string | null | undefined): MantineColorsTuple | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  const lighter = [0.92, 0.8, 0.64, 0.46, 0.3, 0.15].map((a) => mix(rgb, 255, a));
  const darker = [0.12, 0.24, 0.36].map((a) => mix(rgb, 0, a));
  return [...lighter, mix(rgb, 255, 0), ...darker] as unknown as MantineColorsTuple;
}

/** Names of the theme's icon-only controls, in the user's language (axe: button-name, aria-input-field-name). */
export interface ThemeLabels {
  close: string;
  saturation: string;
  hue: string;
  alpha: string;
}

const ENGLISH_LABELS: ThemeLabels = {
  close: 'Close',
  saturation: 'Saturation',
  hue: 'Hue',
  alpha: 'Opacity',
};

/**
 * The Mantine theme from app config colours (primary_color / accent_color); light and dark share it.
 * `labels` name the close buttons of modals, drawers and notifications and the colour pickers' sliders.
 */
export function buildTheme(
  config: { get(key: string): string | null },
  labels: ThemeLabels = ENGLISH_LABELS,
): MantineThemeOverride {
  // An icon-only close button needs an accessible name; a component's own closeButtonProps still win.
  const closeButtonProps = { closeButtonProps: { 'aria-label': labels.close } };
  const brand = shadesOf(config.get('primary_color'));
  const accent = shadesOf(config.get('accent_color'));
  return createTheme({
    breakpoints: BREAKPOINTS,
    colors: { ...(brand ? { brand } : {}), ...(accent ? { accent } : {}) },
    primaryColor: brand ? 'brand' : 'indigo',
    // A lighter shade keeps text and buttons readable on the dark background.
    primaryShade: { light: 6, dark: 5 },
    defaultRadius: 'md',
    cursorType: 'pointer',
    other: { accentColor: accent ? 'accent' : 'teal' },
    components: {
      // A spinner's label needs a role that may be named (a bare span may not carry aria-label).
      Loader: { defaultProps: { role: 'status' } },
      Button: Button.extend({ vars: readableRedButton }),
      Modal: { defaultProps: closeButtonProps },
      Drawer: { defaultProps: closeButtonProps },
      Notification: { defaultProps: closeButtonProps },
      // ColorInput's picker reads these too (it does not pass them on itself).
      ColorPicker: {
        defaultProps: { saturationLabel: labels.saturation, hueLabel: labels.hue, alphaLabel: labels.alpha },
      },
    },
  });
}

/**
 * A filled red button (delete, revoke, disable) keeps white text at 4.5:1: Mantine's red 6 and its hover red 7
 * reach only 3.3:1 and 3.8:1, red 8 (#e03131) 4.5:1 and red 9 (#c92a2a, the hover) 5.5:1.
 */
function readableRedButton(_theme: unknown, props: { color?: string; variant?: string }) {
  if (props.color !== 'red' || (props.variant ?? 'filled') !== 'filled') return { root: {} };
  return {
    root: {
      '--button-bg': 'var(--mantine-color-red-8)',
      '--button-hover': 'var(--mantine-color-red-9)',
      '--button-color': 'var(--mantine-color-white)',
    },
  };
}

/**
 * Dimmed and placeholder text must keep a 4.5:1 contrast on the page background: Mantine's light defaults
 * (gray 6 #868e96 and gray 5 #adb5bd) reach only 3.3:1 and 2.1:1 on white; gray 7 (#495057) reaches 8.2:1 and
 * #5c636a (placeholders, kept lighter than values) 6:1. The dark defaults already pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': '#5c636a',
    // Field errors read at 4.5:1 on white (red 8); Mantine's red 6 reached 3.3:1.
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    // Light and outline red buttons (Remove, Delete) keep their text at 4.5:1: red 6 on red 0 reached 2.9:1.
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-red-outline': 'var(--mantine-color-red-9)',
    // Light gray badges and alerts (No access, Inactive) keep their text at 4.5:1: gray 6 on its tint reached 3:1.
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
