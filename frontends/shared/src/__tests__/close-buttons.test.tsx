import { Drawer, Modal } from '@mantine/core';
import { act, screen } from '@testing-library/react';
import { i18n } from '@avatar-studio/shared';
import { renderWithProviders } from '@avatar-studio/shared/testing';

/** Icon-only close buttons carry a name in the user's language (axe: button-name), set once by the theme. */
describe('close buttons of modals and drawers', () => {
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
});
