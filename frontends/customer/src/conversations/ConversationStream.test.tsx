import type { MockRoutes } from '@avatar-studio/shared/testing';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConversationPage } from './ConversationPage';
import {
  answer,
  bubble,
  hello,
  messageInput as input,
  message,
  pending,
  renderChatRoute,
  sendButton,
  sent,
  setUpChatTests,
} from './testkit';

const socket = setUpChatTests();

const interrupted = message({
  ...pending,
  content: 'Autumn moon',
  status: 'interrupted',
  interrupted_reason: 'The server restarted while writing this answer.',
});

const renderConversation = (routes: MockRoutes = {}) => renderChatRoute(<ConversationPage />, { routes });

const withInterrupted = {
  'GET /api/messages/conversation/7': {
    body: { messages: [hello, answer, sent, interrupted], total: 4, page: 1, limit: 20 },
  },
};

describe('Conversation chat: streamed answers', () => {
  it('keeps the deltas that arrive before the send answers and shows the whole text', async () => {
    let answerSend: (reply: { status: number; body: unknown }) => void = () => {};
    renderConversation({
      'POST /api/messages': () =>
        new Promise((resolve) => {
          answerSend = resolve;
        }),
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(sendButton());
    await waitFor(() => expect(screen.getByText('Generating the answer…')).toBeInTheDocument());

    // The server streams faster than its answer to the POST reaches the page.
    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Autumn ' });
      socket.deliver('message_stream', {
        conversation_id: 7,
        message_id: 4,
        offset: 7,
        content: 'moonlight',
      });
    });
    act(() => answerSend({ status: 201, body: { user_message: sent, message: pending } }));
    expect(await screen.findByText('Autumn moonlight')).toBeInTheDocument();

    act(() =>
      socket.deliver('message_stream', {
        conversation_id: 7,
        message_id: 4,
        offset: 16,
        content: ', a worm',
      }),
    );
    expect(await screen.findByText('Autumn moonlight, a worm')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('shows the saved answer when the whole stream ended before the send answered', async () => {
    let answerSend: (reply: { status: number; body: unknown }) => void = () => {};
    renderConversation({
      'POST /api/messages': () =>
        new Promise((resolve) => {
          answerSend = resolve;
        }),
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(sendButton());
    await waitFor(() => expect(screen.getByText('Generating the answer…')).toBeInTheDocument());
    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Short' });
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { ...pending, content: 'Short poem.', status: 'complete', finish_reason: 'stop' },
      });
    });
    act(() => answerSend({ status: 201, body: { user_message: sent, message: pending } }));
    expect(await screen.findByText('Short poem.')).toBeInTheDocument();
    await ui.type(input(), 'Next');
    await waitFor(() => expect(sendButton()).toBeEnabled());
  });

  it('skips text it already has and asks for a resume on a gap', async () => {
    renderConversation({
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(sendButton());
    await screen.findByTestId('message-4');

    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Autumn ' });
      // A replay overlapping what is shown: only the new part is added.
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 3, content: 'umn moon' });
    });
    expect(await screen.findByText('Autumn moon')).toBeInTheDocument();

    // Text from offset 20 while 11 characters are shown: a gap, not applied; the page asks from 11.
    act(() =>
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 20, content: 'worm' }),
    );
    expect(socket.emittedOf('stream_resume')).toEqual([{ message_id: 4, offset: 11 }]);
    expect(bubble(4).getByText('Autumn moon')).toBeInTheDocument();
    act(() =>
      socket.deliver('message_stream', {
        conversation_id: 7,
        message_id: 4,
        offset: 11,
        content: 'light, a worm',
      }),
    );
    expect(await screen.findByText('Autumn moonlight, a worm')).toBeInTheDocument();
  });

  it('asks for the rest of every streaming answer when the socket reconnects', async () => {
    renderConversation({
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(sendButton());
    await screen.findByTestId('message-4');
    act(() =>
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Autumn' }),
    );
    await screen.findByText('Autumn');
    act(() => socket.reconnect());
    expect(socket.emittedOf('stream_resume')).toEqual([{ message_id: 4, offset: 6 }]);
  });

  it('on load, shows the text saved so far of an answer still generating and resumes its stream', async () => {
    const generating = { ...pending, partial_content: 'Autumn moon' };
    renderConversation({
      'GET /api/messages/conversation/7': {
        body: { messages: [hello, answer, sent, generating], total: 4, page: 1, limit: 20 },
      },
    });
    expect(await screen.findByText('Autumn moon')).toBeInTheDocument();
    await waitFor(() => expect(socket.emittedOf('stream_resume')).toEqual([{ message_id: 4, offset: 11 }]));
    expect(sendButton()).toBeDisabled();

    act(() =>
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 11, content: 'light' }),
    );
    expect(await screen.findByText('Autumn moonlight')).toBeInTheDocument();
    act(() =>
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { ...pending, content: 'Autumn moonlight.', status: 'complete', finish_reason: 'stop' },
      }),
    );
    expect(await screen.findByText('Autumn moonlight.')).toBeInTheDocument();
    await userEvent.setup().type(input(), 'Next');
    await waitFor(() => expect(sendButton()).toBeEnabled());
  });

  it('shows an answer interrupted while streaming with its text and reason, and lets the user send again', async () => {
    renderConversation({
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(input(), 'Write a haiku');
    await ui.click(sendButton());
    await screen.findByTestId('message-4');
    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Autumn' });
      socket.deliver('message_interrupted', {
        conversation_id: 7,
        message_id: 4,
        content: 'Autumn moon',
        reason: 'The answer stopped because the server shut down.',
      });
    });
    expect(await screen.findByText('Autumn moon')).toBeInTheDocument();
    expect(bubble(4).getByText('This answer was interrupted.')).toBeInTheDocument();
    expect(bubble(4).getByText('The answer stopped because the server shut down.')).toBeInTheDocument();
    expect(bubble(4).getByRole('button', { name: 'Retry' })).toBeEnabled();
    await ui.type(input(), 'Another');
    expect(sendButton()).toBeEnabled();
    expect(screen.queryByText('Generating the answer…')).not.toBeInTheDocument();
  });
});

describe('Conversation chat: interrupted answers', () => {
  it('shows the text so far, the reason and Retry; Send stays available', async () => {
    renderConversation(withInterrupted);
    expect(await screen.findByText('Autumn moon')).toBeInTheDocument();
    expect(bubble(4).getByText('The server restarted while writing this answer.')).toBeInTheDocument();
    expect(bubble(4).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    await userEvent.setup().type(input(), 'Something else');
    expect(sendButton()).toBeEnabled();
    expect(socket.emittedOf('stream_resume')).toEqual([]);
  });

  it('shows an interrupted answer without text with its reason', async () => {
    renderConversation({
      'GET /api/messages/conversation/7': {
        body: {
          messages: [hello, answer, sent, { ...interrupted, content: '' }],
          total: 4,
          page: 1,
          limit: 20,
        },
      },
    });
    expect(await screen.findByText('The server restarted while writing this answer.')).toBeInTheDocument();
    expect(bubble(4).queryByLabelText('Generating the answer…')).not.toBeInTheDocument();
  });

  it('Retry calls the retry route, then streams the new answer in the same bubble', async () => {
    const { fetch } = renderConversation({
      ...withInterrupted,
      'POST /api/messages/4/retry': { status: 201, body: { message: pending } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages/4/retry')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('This answer was interrupted.')).not.toBeInTheDocument());
    expect(screen.queryByText('Autumn moon')).not.toBeInTheDocument();
    expect(sendButton()).toBeDisabled();

    act(() =>
      socket.deliver('message_stream', {
        conversation_id: 7,
        message_id: 4,
        offset: 0,
        content: 'Winter sun',
      }),
    );
    expect(await screen.findByText('Winter sun')).toBeInTheDocument();
    act(() =>
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { ...pending, content: 'Winter sun, still.', status: 'complete', finish_reason: 'stop' },
      }),
    );
    expect(await screen.findByText('Winter sun, still.')).toBeInTheDocument();
  });

  it('keeps the deltas of a retried answer that arrive before the retry answers', async () => {
    let answerRetry: (reply: { status: number; body: unknown }) => void = () => {};
    renderConversation({
      ...withInterrupted,
      'POST /api/messages/4/retry': () =>
        new Promise((resolve) => {
          answerRetry = resolve;
        }),
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Retry' }));
    act(() =>
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Winter' }),
    );
    act(() => answerRetry({ status: 201, body: { message: pending } }));
    expect(await screen.findByText('Winter')).toBeInTheDocument();
    expect(screen.queryByText('This answer was interrupted.')).not.toBeInTheDocument();
  });

  it('goes to /sorry when the retry answers 412', async () => {
    renderConversation({
      ...withInterrupted,
      'POST /api/messages/4/retry': {
        status: 412,
        body: { statusCode: 412, message: 'No access.', code: 'no_access' },
      },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it("shows the server's message when the retry answers 429, and the answer stays interrupted", async () => {
    renderConversation({
      ...withInterrupted,
      'POST /api/messages/4/retry': {
        status: 429,
        body: {
          statusCode: 429,
          message: 'You have 3 answers being written. Wait for one to finish.',
          code: 'too_many_generations',
        },
      },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByText('You have 3 answers being written. Wait for one to finish.'),
    ).toBeInTheDocument();
    expect(bubble(4).getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(bubble(4).getByText('Autumn moon')).toBeInTheDocument();
  });
});

describe('Conversation chat: loaded messages', () => {
  it('shows the badge only once every message of the conversation is loaded', async () => {
    const older = message({ message_id: 0, content: 'Earlier', createdAt: '2025-01-01T09:00:00.000Z' });
    renderConversation({
      'GET /api/messages/conversation/7': (call) =>
        call.query.get('page') === '2'
          ? { body: { messages: [older], total: 3, page: 2, limit: 2 } }
          : { body: { messages: [hello, answer], total: 3, page: 1, limit: 2 } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    expect(screen.queryByTestId('all-messages-loaded')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByTestId('all-messages-loaded')).toHaveTextContent('All messages loaded (3)');
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
  });

  it('shows no badge for a conversation without messages', async () => {
    renderConversation({
      'GET /api/messages/conversation/7': { body: { messages: [], total: 0, page: 1, limit: 20 } },
    });
    expect(await screen.findByText('No messages yet. Write the first one below.')).toBeInTheDocument();
    expect(screen.queryByTestId('all-messages-loaded')).not.toBeInTheDocument();
  });
});
