import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn, fakeIo, message } from '../conversations/testkit';
import { en, es } from '../i18n';
import { AvatarChat } from './AvatarChat';

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

const DOCUMENT_REQUEST = 'POST /api/avatars/user-message/document-request';

function renderChat(routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars/:avatar_id" element={<AvatarChat avatarId={5} />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user: testUser(),
      route: '/avatars/5',
      routes: {
        'GET /api/messages/thread/5/1': { body: { messages: [], total: 0, page: 1, limit: 10 } },
        ...routes,
      },
    },
  );
}

const picker = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('Avatar chat: a message with a document', () => {
  it('sends the message and the document as one multipart request and streams the answer', async () => {
    const { fetch } = renderChat({
      [DOCUMENT_REQUEST]: {
        status: 201,
        body: {
          user_message: message({ message_id: 3, conversation_id: 70, content: 'Summarize it' }),
          message: message({ message_id: 4, conversation_id: 70, role: 'assistant', content: null }),
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Message' });
    expect(picker().accept).toBe('.docx,.pdf,.pptx,.txt');
    await ui.upload(picker(), new File(['Harbour notes'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Document: notes.txt')).toBeInTheDocument();
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Summarize it');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetch.callsTo(DOCUMENT_REQUEST)).toHaveLength(1));
    expect(fetch.callsTo('POST /api/messages')).toHaveLength(0);
    const sent = fetch.callsTo(DOCUMENT_REQUEST)[0];
    expect(sent.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = String(sent.body);
    expect(form).toContain('name="file"; filename="notes.txt"');
    expect(form).toMatch(/name="avatar_id"\r\n\r\n5\r\n/);
    expect(form).toMatch(/name="message"\r\n\r\nSummarize it\r\n/);
    // Sent: the document is no longer attached, and the answer streams into the thread.
    await waitFor(() => expect(screen.queryByText('Document: notes.txt')).not.toBeInTheDocument());
    expect(await screen.findByText('Summarize it')).toBeInTheDocument();
    act(() =>
      socket.deliver('message_stream', { conversation_id: 70, message_id: 4, offset: 0, content: 'Boats.' }),
    );
    expect(await screen.findByText('Boats.')).toBeInTheDocument();
  });

  it('removes the document before sending, so the message goes as a plain one', async () => {
    const { fetch } = renderChat({
      'POST /api/messages': {
        status: 201,
        body: {
          user_message: message({ message_id: 3, conversation_id: 70, content: 'Hello' }),
          message: message({ message_id: 4, conversation_id: 70, role: 'assistant', content: null }),
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Message' });
    await ui.upload(picker(), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    await ui.click(await screen.findByRole('button', { name: 'Remove the document' }));
    expect(screen.queryByText('Document: notes.txt')).not.toBeInTheDocument();
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages')).toHaveLength(1));
    expect(fetch.callsTo(DOCUMENT_REQUEST)).toHaveLength(0);
  });

  it('shows a refused document’s reason and keeps it attached; 412 goes to /sorry', async () => {
    const { fetch } = renderChat({
      [DOCUMENT_REQUEST]: {
        status: 415,
        body: { statusCode: 415, message: 'This file type is not allowed.', code: 'unsupported_type' },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Message' });
    await ui.upload(picker(), new File(['MZ'], 'tool.txt', { type: 'text/plain' }));
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Read it');
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This file type is not allowed.')).toBeInTheDocument();
    expect(screen.getByText('Document: tool.txt')).toBeInTheDocument();
    fetch.route({
      [DOCUMENT_REQUEST]: {
        status: 412,
        body: { statusCode: 412, message: 'This is a premium feature. Please, upgrade your account.' },
      },
    });
    await ui.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });
});
