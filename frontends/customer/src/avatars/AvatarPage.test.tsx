import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { SignedIn, fakeIo, message } from '../conversations/testkit';
import { en, es } from '../i18n';
import { AvatarPage } from './AvatarPage';
import { avatar, avatarFile } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

let socket: ReturnType<typeof fakeIo>;
beforeEach(() => {
  socket = fakeIo();
  setRealtimeIo(socket.io);
});
afterEach(() => {
  setRealtimeIo(null);
  notifications.clean();
});

const question = message({ message_id: 1, conversation_id: 70, content: 'What is the mascot?' });
const cited = message({
  message_id: 2,
  conversation_id: 70,
  role: 'assistant',
  content: 'A heron.',
  user_message_id: 1,
  citations: [{ avatar_file_id: 11, file_name: 'facts.txt', passage: 'The mascot is a heron.' }],
  createdAt: '2025-01-02T10:00:01.000Z',
});
const thread = (messages = [question, cited], total = messages.length) => ({
  body: { messages, total, page: 1, limit: 10 },
});

function renderPage(routes: MockRoutes = {}, shown = avatar({ avatar_files: [avatarFile()] })) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars/:avatar_id/*" element={<AvatarPage />} />
      </Routes>
    </SignedIn>,
    {
      user: testUser(),
      route: `/avatars/${shown.avatar_id}`,
      routes: {
        [`GET /api/avatars/${shown.avatar_id}`]: { body: { avatar: shown } },
        [`GET /api/messages/thread/${shown.avatar_id}/1`]: thread(),
        ...routes,
      },
    },
  );
}

describe('Avatar page', () => {
  it('edits the context, refusing an empty one', async () => {
    const { fetch } = renderPage({
      'PUT /api/avatars/add-context/5': { body: { avatar: avatar({ context: 'Be brief.' }) } },
    });
    const ui = userEvent.setup();
    const context = await screen.findByRole('textbox', { name: 'Context' });
    expect(context).toHaveValue('You write short ads.');
    await ui.clear(context);
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/avatars/add-context/5')).toHaveLength(0);
    await ui.type(context, 'Be brief.');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/avatars/add-context/5')[0].body).toEqual({ context: 'Be brief.' });
  });

  it('offers to start a training while the context is empty, opening the trainings tab', async () => {
    renderPage(
      {
        'GET /api/trainings': { body: { trainings: [], total: 0, page: 1, limit: 24, own_key_pays: false } },
      },
      avatar({ context: '' }),
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Start training' }));
    expect(await screen.findByRole('tab', { name: 'Trainings', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('No trainings yet.')).toBeInTheDocument();
    await ui.click(screen.getByRole('tab', { name: 'Outputs' }));
    expect(await screen.findByRole('textbox', { name: 'What should the avatar write?' })).toBeInTheDocument();
  });

  it('shows the files only once there is a context', async () => {
    renderPage({}, avatar({ context: '' }));
    expect(await screen.findByText('Add a context first; then you can add files.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload a file' })).not.toBeInTheDocument();
  });

  it('lists the files with their indexing state and a name cut at 30 characters', async () => {
    renderPage(
      {},
      avatar({
        avatar_files: [
          avatarFile(),
          avatarFile({
            avatar_file_id: 12,
            openai_file_id: '12',
            editable: false,
            content: null,
            file_data: {
              name: 'quarterly-report-final-version-2025.pdf',
              file_id: 3,
              type: 'application/pdf',
            },
            index_state: 'indexing',
            chunks: 0,
          }),
          avatarFile({
            avatar_file_id: 13,
            editable: false,
            file_data: { name: 'scan.pdf', file_id: 4, type: 'application/pdf' },
            index_state: 'failed',
            index_error: 'The file holds no text.',
          }),
        ],
      }),
    );
    expect(await screen.findByText('Ready (1 passages)')).toBeInTheDocument();
    expect(screen.getByText('Indexing…')).toBeInTheDocument();
    expect(screen.getByText('quarterly-report-final-version…')).toBeInTheDocument();
    expect(screen.getByText('Could not be read')).toBeInTheDocument();
    expect(screen.getByText('The file holds no text.')).toBeInTheDocument();
    // Only editable text files have an editor.
    expect(screen.getAllByRole('button', { name: /^Edit / })).toHaveLength(1);
  });

  it('edits an editable text file in place', async () => {
    const { fetch } = renderPage({
      'PUT /api/avatars/editable-file/11': { body: { file: avatarFile({ content: 'A pelican.' }) } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit facts.txt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Text file' });
    const text = within(dialog).getByRole('textbox', { name: 'Text' });
    await ui.clear(text);
    await ui.type(text, 'A pelican.');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/avatars/editable-file/11')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/avatars/editable-file/11')[0].body).toEqual({
      content: 'A pelican.',
      name: 'facts.txt',
    });
  });

  it('uploads a file showing its progress', async () => {
    const sent: { url: string; finish: () => void; progress: (n: number) => void }[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
      onload?: () => void;
      url = '';
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      getResponseHeader() {
        return 'application/json';
      }
      send() {
        sent.push({
          url: this.url,
          progress: (n) => this.upload.onprogress?.({ lengthComputable: true, loaded: n, total: 100 }),
          finish: () => {
            this.status = 201;
            this.responseText = JSON.stringify({ file: avatarFile({ avatar_file_id: 14 }) });
            this.onload?.();
          },
        });
      }
    }
    const real = window.XMLHttpRequest;
    window.XMLHttpRequest = FakeXhr as never;
    try {
      renderPage();
      const ui = userEvent.setup();
      await screen.findByRole('button', { name: 'Upload a file' });
      const input = document.querySelector('input[type="file"]') as HTMLInputElement;
      await ui.upload(input, new File(['notes'], 'notes.txt', { type: 'text/plain' }));
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0].url).toContain('/api/avatars/add-file/5/asst_0123456789abcdef01234567');
      act(() => sent[0].progress(40));
      expect(await screen.findByRole('progressbar', { name: 'Uploading notes.txt' })).toHaveAttribute(
        'aria-valuenow',
        '40',
      );
      act(() => sent[0].finish());
      await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    } finally {
      window.XMLHttpRequest = real;
    }
  });

  it('shows the thread with the files the answer cites, each opening its passage', async () => {
    renderPage();
    const ui = userEvent.setup();
    expect(await screen.findByText('A heron.')).toBeInTheDocument();
    const sources = screen.getByRole('navigation', { name: 'From the avatar’s files' });
    expect(screen.queryByTestId('citation-passage')).not.toBeInTheDocument();
    await ui.click(within(sources).getByRole('button', { name: '[1] facts.txt' }));
    expect(screen.getByTestId('citation-passage')).toHaveTextContent('The mascot is a heron.');
  });

  it('sends a message to the avatar and streams the answer', async () => {
    const pending = message({ message_id: 4, conversation_id: 70, role: 'assistant', content: null });
    const { fetch } = renderPage({
      'POST /api/messages': {
        status: 201,
        body: {
          user_message: message({ message_id: 3, conversation_id: 70, content: 'And the colour?' }),
          message: pending,
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('A heron.');
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'And the colour?');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/messages')[0].body).toEqual({
      content: 'And the colour?',
      avatar_id: 5,
      stream: true,
    });
    act(() =>
      socket.deliver('message_stream', { conversation_id: 70, message_id: 4, offset: 0, content: 'Grey' }),
    );
    expect(await screen.findByText('Grey')).toBeInTheDocument();
  });

  it('loads 10 messages, then older ones', async () => {
    const ten = Array.from({ length: 10 }, (_, i) =>
      message({ message_id: 100 + i, conversation_id: 70, content: `m${i + 11}` }),
    );
    const { fetch } = renderPage({
      'GET /api/messages/thread/5/1': thread(ten, 12),
      'GET /api/messages/thread/5/2': {
        body: {
          messages: [message({ message_id: 90, conversation_id: 70, content: 'm1' })],
          total: 12,
          page: 2,
          limit: 10,
        },
      },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('m11')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: /older/i }));
    expect(await screen.findByText('m1')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/messages/thread/5/2')).toHaveLength(1);
  });

  it('shows another’s avatar without its editors', async () => {
    renderPage({}, avatar({ can_manage: false, public: true }));
    expect(await screen.findByText('Only its owner can change this avatar.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Context' })).not.toBeInTheDocument();
  });

  it('says when the avatar is not found', async () => {
    renderPage(
      {
        'GET /api/avatars/9': {
          status: 404,
          body: { message: 'Avatar not found.', code: 'avatar_not_found' },
        },
      },
      avatar({ avatar_id: 9 }),
    );
    expect(
      await screen.findByText('This avatar does not exist or is not available to you.'),
    ).toBeInTheDocument();
  });
});
