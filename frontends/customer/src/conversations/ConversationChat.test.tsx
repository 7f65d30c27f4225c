import type { MockRoutes } from '@avatar-studio/shared/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConversationChat } from './ConversationChat';
import { ConversationPage } from './ConversationPage';
import { canEnhance, isAllowedAttachment, truncateFileName } from './model';
import {
  answer,
  bubble,
  conversation,
  hello,
  messageInput as input,
  pending,
  renderChatRoute,
  sent,
  setUpChatTests,
} from './testkit';

const socket = setUpChatTests();

const models = {
  models: [
    { id: 'gpt-4o-mini', label: 'GPT-4o mini', provider: 'openai' },
    { id: 'grok-2-latest', label: 'Grok 2', provider: 'xai' },
  ],
  default_model: 'gpt-4o-mini',
  configured: true,
};
const noteFile = { file_id: 31, name: 'quarterly-report-final-version-2025.pdf', type: 'pdf', size: 2048 };

function renderChat({
  routes = {},
  config = {},
  page = false,
}: { routes?: MockRoutes; config?: Record<string, string>; page?: boolean } = {}) {
  return renderChatRoute(page ? <ConversationPage /> : <ConversationChat conversationId={7} />, {
    config,
    routes: {
      'GET /api/ai/models': { body: models },
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
      ...routes,
    },
  });
}

describe('Conversation chat: answers', () => {
  it('renders an answer as Markdown and shows raw HTML in it as text', async () => {
    renderChat({
      routes: {
        'GET /api/messages/conversation/7': {
          body: {
            messages: [
              hello,
              {
                ...answer,
                content:
                  '## Plan\n\n- **one**\n\n<script>window.hacked = 1</script><img src=x onerror="alert(1)">',
              },
            ],
            total: 2,
            page: 1,
            limit: 20,
          },
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Plan' })).toBeInTheDocument();
    const reply = screen.getByTestId('message-2');
    expect(within(reply).getByText('one').tagName).toBe('STRONG');
    expect(reply.querySelector('script, img')).toBeNull();
    expect(reply).toHaveTextContent('<script>window.hacked = 1</script><img src=x onerror="alert(1)">');
  });

  it('shows the web sources of an answer as links, and only web links', async () => {
    const withSources = {
      ...answer,
      sources: [
        { title: 'Cats on Wikipedia', url: 'https://en.wikipedia.org/wiki/Cat' },
        { title: 'Bad', url: 'javascript:alert(1)' },
      ],
    };
    renderChat({
      routes: {
        'GET /api/messages/conversation/7': {
          body: { messages: [hello, withSources], total: 2, page: 1, limit: 20 },
        },
      },
    });
    const link = await screen.findByRole('link', { name: 'Cats on Wikipedia' });
    expect(link).toHaveAttribute('href', 'https://en.wikipedia.org/wiki/Cat');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(screen.queryByRole('link', { name: 'Bad' })).not.toBeInTheDocument();
  });
});

describe('Conversation chat: editing a message', () => {
  it('edits, saves with PUT /api/messages and shows the saved text', async () => {
    const { fetch } = renderChat({
      routes: { 'PUT /api/messages': { body: { message: { ...hello, content: 'Hello there' } } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(1).getByRole('button', { name: 'Edit message' }));
    const editor = bubble(1).getByRole('textbox', { name: 'Message text' });
    expect(editor).toHaveValue('Hello');
    await ui.type(editor, ' there');
    await ui.click(bubble(1).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Message saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/messages')[0].body).toEqual({ message_id: 1, content: 'Hello there' });
    expect(bubble(1).getByText('Hello there')).toBeInTheDocument();
    expect(bubble(1).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('cancels without saving and refuses empty text', async () => {
    const { fetch } = renderChat();
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(2).getByRole('button', { name: 'Edit message' }));
    const editor = bubble(2).getByRole('textbox', { name: 'Message text' });
    await ui.clear(editor);
    expect(bubble(2).getByRole('button', { name: 'Save' })).toBeDisabled();
    await ui.type(editor, 'Changed');
    await ui.click(bubble(2).getByRole('button', { name: 'Cancel' }));
    expect(bubble(2).getByText('Hi! How can I help?')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/messages')).toHaveLength(0);
  });

  it('stays in edit mode and shows the error when saving fails', async () => {
    renderChat({
      routes: {
        'PUT /api/messages': {
          status: 404,
          body: { statusCode: 404, message: 'Message not found.', code: 'not_found' },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(1).getByRole('button', { name: 'Edit message' }));
    await ui.type(bubble(1).getByRole('textbox', { name: 'Message text' }), '!');
    await ui.click(bubble(1).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Message not found.')).toBeInTheDocument();
    expect(bubble(1).getByRole('textbox', { name: 'Message text' })).toHaveValue('Hello!');
  });

  it('does not offer editing while an answer is pending', async () => {
    renderChat();
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByTestId('message-4');
    expect(bubble(1).getByRole('button', { name: 'Edit message' })).toBeDisabled();
  });
});

describe('Conversation chat: model and web search', () => {
  it("starts from the conversation's model and sends another chosen one with the message", async () => {
    const { fetch } = renderChat({
      routes: {
        'GET /api/conversations/conversation/7': {
          body: { conversation: conversation({ model: 'grok-2-latest' }) },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    const select = screen.getByRole('textbox', { name: 'Model' });
    await waitFor(() => expect(select).toHaveValue('Grok 2'));

    await ui.type(input(), 'First');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages')).toHaveLength(1));
    // The conversation's own model is not repeated.
    expect(fetch.callsTo('POST /api/messages')[0].body).not.toHaveProperty('model');
    act(() =>
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { ...pending, content: 'Done', finish_reason: 'stop' },
      }),
    );

    await ui.click(select);
    await ui.click(await screen.findByRole('option', { name: 'Unset' }));
    await ui.type(input(), 'Second');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages')).toHaveLength(2));
    expect(fetch.callsTo('POST /api/messages')[1].body).toMatchObject({ content: 'Second', model: 'Unset' });
  });

  it('offers the models from GET /api/ai/models plus Unset', async () => {
    renderChat();
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    const select = screen.getByRole('textbox', { name: 'Model' });
    expect(select).toHaveValue('Unset');
    await ui.click(select);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Unset', 'GPT-4o mini', 'Grok 2']);
  });

  it('hides the web search switch unless search_enabled is on', async () => {
    renderChat();
    await screen.findByText('Hi! How can I help?');
    expect(screen.queryByRole('switch', { name: 'Search the web' })).not.toBeInTheDocument();
  });

  it('sends searchOnInternet: true when the switch is on', async () => {
    const { fetch } = renderChat({ config: { search_enabled: 'true' } });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(screen.getByRole('switch', { name: 'Search the web' }));
    await ui.type(input(), 'Latest cat news');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/messages')[0].body).toEqual({
        content: 'Latest cat news',
        conversation_id: 7,
        stream: true,
        searchOnInternet: true,
      }),
    );
  });
});

describe('Conversation chat: enhance', () => {
  it('is available only above 12 characters and within the maximum', async () => {
    renderChat();
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    const enhance = screen.getByRole('button', { name: 'Enhance' });
    await ui.type(input(), 'Twelve chars');
    expect(enhance).toBeDisabled();
    await ui.type(input(), '!');
    expect(enhance).toBeEnabled();
    expect(canEnhance('a'.repeat(7500 * 4 + 2))).toBe(false);
  });

  it('streams the improved prompt into the input, which is locked meanwhile', async () => {
    const { fetch } = renderChat({
      routes: { 'POST /api/messages/enhance': { status: 201, body: { enhance_id: 'e-1', content: null } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'write about cats');
    await ui.click(screen.getByRole('button', { name: 'Enhance' }));

    await waitFor(() =>
      expect(fetch.callsTo('POST /api/messages/enhance')[0]?.body).toEqual({
        content: 'write about cats',
        stream: true,
      }),
    );
    await waitFor(() => expect(input()).toHaveValue(''));
    expect(input()).toBeDisabled();
    expect(screen.getByText('Improving your prompt…')).toBeInTheDocument();

    act(() => {
      socket.deliver('message_stream_enhance', { enhance_id: 'e-1', content: 'Write a warm, ' });
      socket.deliver('message_stream_enhance', { enhance_id: 'other', content: 'not mine' });
      socket.deliver('message_stream_enhance', { enhance_id: 'e-1', content: 'funny post' });
    });
    await waitFor(() => expect(input()).toHaveValue('Write a warm, funny post'));
    expect(input()).toBeDisabled();

    act(() =>
      socket.deliver('message_stream_enhance_end', {
        enhance_id: 'e-1',
        content: 'Write a warm, funny post about cats for pet owners.',
      }),
    );
    await waitFor(() => expect(input()).toHaveValue('Write a warm, funny post about cats for pet owners.'));
    expect(input()).toBeEnabled();
  });

  it('keeps stream events that arrive before the POST answers', async () => {
    let answer: (reply: { status: number; body: unknown }) => void = () => {};
    renderChat({
      routes: {
        'POST /api/messages/enhance': () =>
          new Promise((resolve) => {
            answer = resolve;
          }),
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'write about dogs');
    await ui.click(screen.getByRole('button', { name: 'Enhance' }));
    await waitFor(() => expect(input()).toBeDisabled());
    act(() => {
      socket.deliver('message_stream_enhance', { enhance_id: 9, content: 'Write ' });
      socket.deliver('message_stream_enhance_end', { enhance_id: 9, content: 'Write about dogs, kindly.' });
    });
    act(() => answer({ status: 201, body: { enhance_id: 9, content: null } }));
    await waitFor(() => expect(input()).toHaveValue('Write about dogs, kindly.'));
    expect(input()).toBeEnabled();
  });

  it('goes to /sorry on a 412', async () => {
    renderChat({
      routes: {
        'POST /api/messages/enhance': {
          status: 412,
          body: { statusCode: 412, message: 'No access.', code: 'no_access' },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'write about birds');
    await ui.click(screen.getByRole('button', { name: 'Enhance' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('gives the text back and shows the error when the stream fails', async () => {
    renderChat({
      routes: { 'POST /api/messages/enhance': { status: 201, body: { enhance_id: 'e-2', content: null } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'write about fish');
    await ui.click(screen.getByRole('button', { name: 'Enhance' }));
    await waitFor(() => expect(input()).toBeDisabled());
    act(() => socket.deliver('openai-error', { message: 'Open AI Error: quota exceeded' }));
    expect(await screen.findByText('Open AI Error: quota exceeded')).toBeInTheDocument();
    expect(input()).toHaveValue('write about fish');
    expect(input()).toBeEnabled();
  });
});

describe('Conversation chat: file', () => {
  it('attaches a file as multipart field "file" and shows its name as a chip, truncated', async () => {
    const { fetch } = renderChat({
      routes: {
        'POST /api/conversations/file/7': {
          status: 201,
          body: { conversation: { ...conversation(), file: noteFile } },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    const picker = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(picker.accept).toBe('.docx,.pdf,.pptx,.txt,.jpeg,.jpg,.png,.webp');
    await ui.upload(picker, new File(['%PDF-1.4'], noteFile.name, { type: 'application/pdf' }));

    expect(await screen.findByText('File attached.')).toBeInTheDocument();
    const upload = fetch.callsTo('POST /api/conversations/file/7')[0];
    expect(upload.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(upload.body)).toContain(`name="file"; filename="${noteFile.name}"`);
    const chip = screen.getByTestId('conversation-file');
    expect(chip).toHaveTextContent('quarterly-report-final-version…');
    expect(chip).toHaveAttribute('title', noteFile.name);
  });

  it('removes the file with DELETE /api/conversations/file/{id}', async () => {
    const { fetch } = renderChat({
      routes: {
        'GET /api/conversations/conversation/7': {
          body: { conversation: { ...conversation(), file: noteFile } },
        },
        'DELETE /api/conversations/file/7': { body: { conversation: { ...conversation(), file: null } } },
      },
    });
    const ui = userEvent.setup();
    await screen.findByTestId('conversation-file');
    await ui.click(screen.getByRole('button', { name: `Remove ${noteFile.name}` }));
    await waitFor(() => expect(screen.queryByTestId('conversation-file')).not.toBeInTheDocument());
    expect(fetch.callsTo('DELETE /api/conversations/file/7')).toHaveLength(1);
  });

  it('refuses another type before uploading, and shows the server’s 400 message as it comes', async () => {
    const { fetch } = renderChat({
      routes: {
        'POST /api/conversations/file/7': {
          status: 400,
          body: {
            statusCode: 400,
            message: 'The selected model cannot read images. Choose a vision model.',
            code: 'model_without_vision',
          },
        },
      },
    });
    // applyAccept off: the test plays a user who picks "All files" in the dialog.
    const ui = userEvent.setup({ applyAccept: false });
    await screen.findByText('Hi! How can I help?');
    const picker = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await ui.upload(picker, new File(['x'], 'tool.exe', { type: 'application/octet-stream' }));
    expect(
      await screen.findByText(
        'This file type cannot be attached. Use docx, pdf, pptx, txt, jpeg, jpg, png or webp.',
      ),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/conversations/file/7')).toHaveLength(0);

    await ui.upload(picker, new File(['png'], 'photo.PNG', { type: 'image/png' }));
    expect(
      await screen.findByText('The selected model cannot read images. Choose a vision model.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('conversation-file')).not.toBeInTheDocument();
  });

  it('checks extensions and truncates names at 30 characters', () => {
    expect(isAllowedAttachment('a.DOCX')).toBe(true);
    expect(isAllowedAttachment('a.webp')).toBe(true);
    expect(isAllowedAttachment('a.gif')).toBe(false);
    expect(isAllowedAttachment('pdf')).toBe(false);
    expect(truncateFileName('a'.repeat(30))).toBe('a'.repeat(30));
    expect(truncateFileName('a'.repeat(31))).toBe(`${'a'.repeat(30)}…`);
  });
});

describe('Conversation chat: export and share', () => {
  let saved: { href: string; download: string }[];
  let blobs: Blob[];
  beforeEach(() => {
    saved = [];
    blobs = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: (blob: Blob) => {
        blobs.push(blob);
        return `blob:test/${blobs.length}`;
      },
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => {} });
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
  });

  it.each([
    ['Download PDF', 'pdf', 'message.pdf', 'application/pdf'],
    [
      'Download Word',
      'word',
      'message.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
  ])('%s posts the text and saves the blob as %s', async (item, route, fileName, type) => {
    const { fetch } = renderChat({
      routes: {
        [`POST /api/messages/${route}`]: () =>
          new Response(new Uint8Array([80, 75, 3, 4]), { status: 201, headers: { 'Content-Type': type } }),
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(2).getByRole('button', { name: 'More actions' }));
    await ui.click(await screen.findByRole('menuitem', { name: item }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(fetch.callsTo(`POST /api/messages/${route}`)[0].body).toEqual({ text: 'Hi! How can I help?' });
    expect(saved[0]).toEqual({ href: 'blob:test/1', download: fileName });
    expect(new Uint8Array(await blobs[0].arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  });

  it('shows the server error when an export fails', async () => {
    renderChat({
      routes: {
        'POST /api/messages/pdf': {
          status: 503,
          body: { statusCode: 503, message: 'The PDF could not be made.', code: 'export_failed' },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(2).getByRole('button', { name: 'More actions' }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Download PDF' }));
    expect(await screen.findByText('The PDF could not be made.')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it("shares an answer into a chosen avatar and says 'Message Shared'", async () => {
    const { fetch } = renderChat({
      routes: {
        'POST /api/messages/share': { status: 201, body: { file: { avatar_file_id: 5 } } },
        'GET /api/avatars': {
          body: {
            avatars: [
              { avatar_id: 8, name: 'Copywriter', can_manage: true, avatar_files: [] },
              { avatar_id: 9, name: 'Someone else’s', can_manage: false, avatar_files: [] },
            ],
            total: 2,
            page: 1,
            limit: 24,
          },
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(bubble(2).getByRole('button', { name: 'More actions' }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share with an avatar' });
    await ui.click(within(dialog).getByRole('textbox', { name: 'Avatar' }));
    expect(screen.queryByRole('option', { name: 'Someone else’s' })).not.toBeInTheDocument();
    await ui.click(await screen.findByRole('option', { name: 'Copywriter' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Message Shared')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/messages/share')[0].body).toEqual({ message_id: 2, avatar_id: 8 });
  });
});

describe('Conversation screen: template panel', () => {
  it('opens the template panel from the header and closes it', async () => {
    renderChat({
      page: true,
      routes: { 'GET /api/templates': { body: { templates: [], total: 0, page: 1, limit: 24 } } },
    });
    const ui = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: 'Show templates' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await ui.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await ui.click(await screen.findByRole('button', { name: 'Close templates' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
  });
});
