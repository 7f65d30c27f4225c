import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import type { Widget } from './api';
import { ChatWidgetGeneratorPage } from './ChatWidgetGeneratorPage';
import { escapeAttribute, originsOf, widgetSnippet } from './snippet';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

let clipboard: jest.Mock;
beforeEach(() => {
  clipboard = jest.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: clipboard }, configurable: true });
});
afterEach(() => notifications.clean());

const avatar = (avatar_id: number, name: string, super_fetch_assistant = false) => ({
  avatar_id,
  assistant_id: `asst_${avatar_id}`,
  name,
  description: '',
  context: 'ctx',
  public: false,
  super_fetch_assistant,
  user_id: 5,
  organization_id: null,
  files: [],
  createdAt: '2025-01-03T10:00:00.000Z',
  updatedAt: '2025-01-03T10:00:00.000Z',
});

const widget = (over: Partial<Widget> = {}): Widget => ({
  widget_id: 11,
  user_id: 5,
  organization_id: null,
  avatar_id: 1,
  name: 'Shop chat',
  accent_color: 'ff0000',
  image_file_id: null,
  image_url: null,
  allowed_origins: ['https://shop.example.com'],
  messages_per_minute: 30,
  words_per_day: 20000,
  max_concurrent_streams: 10,
  disabled: false,
  public_key: 'wk_0123456789abcdef01234567',
  usage: { conversations: 3, messages: 12, words: 1234, words_today: 56 },
  createdAt: '2025-01-03T10:00:00.000Z',
  updatedAt: '2025-01-03T10:00:00.000Z',
  ...over,
});

const page = (widgets: Widget[]) => ({ body: { widgets, total: widgets.length, page: 1, limit: 200 } });
const avatars = {
  body: { avatars: [avatar(1, 'Shoe helper'), avatar(2, 'Fetcher', true)], total: 2, page: 1, limit: 200 },
};

function renderGenerator(routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <ChatWidgetGeneratorPage />
    </SignedIn>,
    { user: testUser(), route: '/chat-widget-generator', routes: { 'GET /api/avatars': avatars, ...routes } },
  );
}

describe('Chat widget generator', () => {
  it('asks for an avatar and a name before generating, and offers no Super Fetch avatar', async () => {
    const { fetch } = renderGenerator({ 'GET /api/widgets': page([]) });
    expect(await screen.findByText('No widgets yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('Please select an Avatar')).toBeInTheDocument();
    expect(screen.getByText('Please type in a name for your Widget')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/widgets')).toHaveLength(0);
    await userEvent.click(screen.getByRole('textbox', { name: /Avatar/ }));
    expect(await screen.findByRole('option', { name: 'Shoe helper' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Fetcher' })).toBeNull();
    // The default accent colour.
    expect(screen.getByRole('textbox', { name: 'Accent colour' })).toHaveValue('#ff0000');
  });

  it('generates the widget, shows its snippet with a copy button, and hides it when an input changes', async () => {
    let saved: Widget[] = [];
    const made = widget();
    const { fetch } = renderGenerator({
      'GET /api/widgets': () => page(saved),
      'POST /api/widgets': () => {
        saved = [made];
        return { status: 201, body: made };
      },
    });
    await screen.findByText('No widgets yet.');
    await userEvent.click(screen.getByRole('textbox', { name: /Avatar/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Shoe helper' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Widget name/ }), 'Shop chat');
    await userEvent.type(screen.getByRole('textbox', { name: /Allowed sites/ }), 'https://shop.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/widgets')[0]?.body).toEqual({
        avatar_id: 1,
        name: 'Shop chat',
        accent_color: '#ff0000',
        allowed_origins: ['https://shop.example.com'],
        image_file_id: null,
      }),
    );
    expect(await screen.findByText('Shop chat Widget Generated')).toBeInTheDocument();
    const code = await screen.findByTestId('widget-snippet');
    expect(code.textContent).toContain('data-widget-key="wk_0123456789abcdef01234567"');
    expect(code.textContent).toContain('data-accent-color="ff0000"');
    expect(code.textContent).toContain('data-user-id="5"');
    expect(code.textContent).toContain('/widget/widget.js');
    await userEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(clipboard).toHaveBeenCalledWith(code.textContent);
    expect(await screen.findByText('Avatar widget code copied to clipboard!')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: /Widget name/ }), '!');
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
    // The new widget is in the owner's list with its usage.
    const list = await screen.findByRole('list');
    expect(within(list).getByText('3 conversations · 12 messages · 1,234 words')).toBeInTheDocument();
  });

  it('disables, edits and deletes a widget of the list', async () => {
    const { fetch } = renderGenerator({
      'GET /api/widgets': page([widget()]),
      'PUT /api/widgets/11': { body: widget({ disabled: true }) },
      'DELETE /api/widgets/11': { status: 204 },
    });
    const actions = await screen.findByRole('group', { name: 'Actions for Shop chat' });
    await userEvent.click(within(actions).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/widgets/11')[0]?.body).toEqual({ disabled: true }));

    await userEvent.click(within(actions).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Shop chat' });
    const origins = within(dialog).getByRole('textbox', { name: /Allowed sites/ });
    await userEvent.clear(origins);
    await userEvent.type(origins, 'https://a.example.com, https://b.example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fetch.callsTo('PUT /api/widgets/11')[1]?.body).toMatchObject({
        name: 'Shop chat',
        allowed_origins: ['https://a.example.com', 'https://b.example.com'],
      }),
    );

    await userEvent.click(within(actions).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this widget?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/widgets/11')).toHaveLength(1));
  });

  it('writes a snippet whose attributes cannot be broken by the widget’s name', () => {
    const code = widgetSnippet(widget({ name: 'A "quoted" <b>name</b>' }), 'https://app.example.com');
    expect(code).toContain('data-widget-name="A &quot;quoted&quot; &lt;b&gt;name&lt;/b&gt;"');
    expect(code.startsWith('<link rel="stylesheet" href="https://app.example.com/widget/widget.css">')).toBe(
      true,
    );
    expect(escapeAttribute('&')).toBe('&amp;');
    expect(originsOf(' https://a.com,\nhttps://b.com  ')).toEqual(['https://a.com', 'https://b.com']);
  });
});
