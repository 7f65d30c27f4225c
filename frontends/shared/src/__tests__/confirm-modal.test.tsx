import { Button, DEFAULT_THEME, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { buildTheme, ConfirmModal, cssVariablesResolver } from '@avatar-studio/shared';
import { contrast, paletteColor } from '@avatar-studio/shared/testing';

describe('ConfirmModal', () => {
  it.each(['light', 'dark'] as const)(
    'gives the red confirm button text at 4.5:1 or more, at rest and on hover (%s)',
    (scheme) => {
      render(
        <MantineProvider theme={buildTheme({ get: () => null })} forceColorScheme={scheme}>
          <ConfirmModal
            opened
            title="Delete it?"
            body="It cannot be undone."
            cancelLabel="Cancel"
            confirmLabel="Delete"
            onConfirm={() => undefined}
            onClose={() => undefined}
          />
        </MantineProvider>,
      );
      // The corner's close button has a name (axe: button-name), given by the theme.
      expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
      const button = screen.getByRole('button', { name: 'Delete' });
      expect(button.style.getPropertyValue('--button-color')).toBe('var(--mantine-color-white)');
      for (const part of ['--button-bg', '--button-hover']) {
        const background = paletteColor(button.style.getPropertyValue(part));
        expect({ part, ratio: contrast(background, '#ffffff') >= 4.5 }).toEqual({ part, ratio: true });
      }
    },
  );
});

describe('filled red buttons', () => {
  it.each(['light', 'dark'] as const)(
    'keep white text at 4.5:1 or more, at rest and on hover (%s)',
    (scheme) => {
      render(
        <MantineProvider theme={buildTheme({ get: () => null })} forceColorScheme={scheme}>
          <Button color="red">Revoke</Button>
          <Button color="red" variant="light">
            Remove
          </Button>
        </MantineProvider>,
      );
      const button = screen.getByRole('button', { name: 'Revoke' });
      expect(button.style.getPropertyValue('--button-color')).toBe('var(--mantine-color-white)');
      for (const part of ['--button-bg', '--button-hover']) {
        const background = paletteColor(button.style.getPropertyValue(part));
        expect({ part, ratio: contrast(background, '#ffffff') >= 4.5 }).toEqual({ part, ratio: true });
      }
      // Other variants keep Mantine's own colours.
      expect(screen.getByRole('button', { name: 'Remove' }).style.getPropertyValue('--button-bg')).not.toBe(
        'var(--mantine-color-red-8)',
      );
    },
  );
});

describe('red text in the light scheme', () => {
  it('reads at 4.5:1 or more on white: field errors, light and outline red buttons', () => {
    const light: Record<string, string> = cssVariablesResolver(DEFAULT_THEME).light;
    for (const variable of [
      '--mantine-color-error',
      '--mantine-color-red-light-color',
      '--mantine-color-red-outline',
    ]) {
      const ratio = contrast(paletteColor(light[variable]), '#ffffff');
      expect({ variable, readable: ratio >= 4.5 }).toEqual({ variable, readable: true });
    }
  });
});

describe('light gray text in the light scheme', () => {
  it('reads at 4.5:1 or more on its own tint (a light gray badge: gray 6 at 10% over white)', () => {
    const light: Record<string, string> = cssVariablesResolver(DEFAULT_THEME).light;
    const gray6 = DEFAULT_THEME.colors.gray[6];
    const tint = `#${[1, 3, 5]
      .map((i) => Math.round(255 + (parseInt(gray6.slice(i, i + 2), 16) - 255) * 0.1))
      .map((c) => c.toString(16).padStart(2, '0'))
      .join('')}`;
    const ratio = contrast(paletteColor(light['--mantine-color-gray-light-color']), tint);
    expect(ratio).toBeGreaterThanOrEqual(4.5);
  });
});
