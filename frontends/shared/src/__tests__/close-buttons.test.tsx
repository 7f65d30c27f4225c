import { ColorPicker, Drawer, Modal } from '@mantine/core';
import { act, screen } from '@testing-library/react';
import { i18n } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';

/**
 * Icon-only close buttons and colour sliders carry a name in the user's language (axe: button-name,
 * aria-input-field-name), set once by the theme.
 */
describe('names the theme gives', () => {
  afterEach(() => act(() => void i18n.changeLanguage('en')));

  it('are named Close in English and Cerrar in Spanish', async () => {
    renderWithProviders(
      <>
        <Modal opened title="A modal" onClose={() => undefined}>
          Body
        </Modal>
        <Drawer opened title="A drawer" onClose={() => undefined}>
          Body
        </Drawer>
      </>,
    );
    expect(await screen.findAllByRole('button', { name: 'Close' })).toHaveLength(2);
    await act(() => i18n.changeLanguage('es'));
    expect(await screen.findAllByRole('button', { name: 'Cerrar' })).toHaveLength(2);
  });

  it('name the sliders of colour pickers', async () => {
    renderWithProviders(<ColorPicker format="rgba" />);
    expect(await screen.findByRole('slider', { name: 'Saturation' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Hue' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Opacity' })).toBeInTheDocument();
  });
});
