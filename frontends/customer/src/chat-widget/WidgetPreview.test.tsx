import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WIDGET_PREVIEW_REMOTE } from '@avatar-studio/contracts/widget';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { ChatWidgetGeneratorPage } from './ChatWidgetGeneratorPage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

/** The widget's federated container, as preview-entry.js would set it on window. */
const mountPreview = jest.fn();
const update = jest.fn();
const unmount = jest.fn();
const container = {
  init: jest.fn(),
  get: jest.fn(async (module: string) => () => (module === './preview' ? { mountPreview } : undefined)),
};

beforeAll(() => {
  (window as unknown as Record<string, unknown>)[WIDGET_PREVIEW_REMOTE.global] = container;
  mountPreview.mockImplementation((host: HTMLElement) => {
    host.textContent = 'widget drawn here';
    return { update, unmount };
  });
});

const routes: MockRoutes = {
  'GET /api/avatars': { body: { avatars: [], total: 0, page: 1, limit: 200 } },
  'GET /api/widgets': { body: { widgets: [], total: 0, page: 1, limit: 200 } },
};

describe('the generator’s live preview', () => {
  it('loads the widget’s federated preview and follows the name and colour as they are typed', async () => {
    const view = renderWithProviders(
      <SignedIn>
        <ChatWidgetGeneratorPage />
      </SignedIn>,
      { user: testUser(), route: '/chat-widget-generator', routes },
    );
    expect(await screen.findByText('widget drawn here')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Preview' })).toContainElement(
      screen.getByTestId('widget-preview'),
    );
    expect(container.init).toHaveBeenCalledWith({});
    expect(container.get).toHaveBeenCalledWith('./preview');
    expect(mountPreview).toHaveBeenCalledWith(expect.any(HTMLElement), {
      name: '',
      accent: '#ff0000',
      image: null,
      language: 'en',
    });

    await userEvent.type(screen.getByRole('textbox', { name: /Widget name/ }), 'Shop');
    await waitFor(() => expect(update).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'Shop' })));
    const colour = screen.getByRole('textbox', { name: 'Accent colour' });
    await userEvent.clear(colour);
    await userEvent.type(colour, '#00aa11');
    await waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(expect.objectContaining({ accent: '#00aa11' })),
    );

    view.unmount();
    expect(unmount).toHaveBeenCalled();
  });
});
