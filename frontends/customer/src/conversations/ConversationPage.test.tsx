import type { MockRoutes } from '@avatar-studio/shared/testing';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConversationPage } from './ConversationPage';
import { MAX_TOKENS, canSend, estimateTokens, mergeMessages } from './model';
import {
  answer,
  conversation,
  hello,
  message,
  pending,
  renderChatRoute,
  sendButton,
  sent,
  setUpChatTests,
} from './testkit';

const socket = setUpChatTests();

const renderConversation = (routes: MockRoutes = {}) => renderChatRoute(<ConversationPage />, { routes });

describe('Conversation screen', () => {
  it('shows the name and the messages, oldest first', async () => {
    renderConversation();
    expect(await screen.findByRole('heading', { name: 'Blog ideas' })).toBeInTheDocument();
    expect(await screen.findByText('Hi! How can I help?')).toBeInTheDocument();
    const texts = screen.getAllByTestId(/^message-/).map((el) => el.getAttribute('data-testid'));
    expect(texts).toEqual(['message-1', 'message-2']);
  });

  it('sends a message, streams the deltas, then shows the saved answer; send is disabled meanwhile', async () => {
    const { fetch } = renderConversation({
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Write a haiku');
    await ui.click(sendButton());

    expect(await screen.findByText('Write a haiku')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/messages')[0].body).toEqual({
      content: 'Write a haiku',
      conversation_id: 7,
      stream: true,
    });
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    expect(socket.factory).toHaveBeenCalledTimes(1);

    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Next');
    expect(sendButton()).toBeDisabled();
    expect(screen.getByText('Generating the answer…')).toBeInTheDocument();

    act(() => {
      socket.deliver('message_stream', { conversation_id: 7, message_id: 4, offset: 0, content: 'Autumn ' });
      socket.deliver('message_stream', {
        conversation_id: 7,
        message_id: 4,
        offset: 7,
        content: 'moonlight',
      });
    });
    expect(await screen.findByText('Autumn moonlight')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();

    act(() =>
      socket.deliver('message_stream_end', {
        conversation_id: 7,
        message: { ...pending, content: 'Autumn moonlight, a worm digs silently.', finish_reason: 'stop' },
      }),
    );
    expect(await screen.findByText('Autumn moonlight, a worm digs silently.')).toBeInTheDocument();
    await waitFor(() => expect(sendButton()).toBeEnabled());
    expect(socket.factory).toHaveBeenCalledTimes(1);
  });

  it('shows a generation error and removes the pending answer', async () => {
    renderConversation({
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Write a haiku');
    await ui.click(sendButton());
    expect(await screen.findByTestId('message-4')).toBeInTheDocument();

    act(() => socket.deliver('openai-error', { message: 'Open AI Error: quota exceeded' }));
    expect(await screen.findByText('Open AI Error: quota exceeded')).toBeInTheDocument();
    expect(screen.queryByTestId('message-4')).not.toBeInTheDocument();
  });

  it('offers Continue generating after a cut answer and sends "Continue"', async () => {
    const { fetch } = renderConversation({
      'GET /api/messages/conversation/7': {
        body: { messages: [hello, { ...answer, finish_reason: 'length' }], total: 2, page: 1, limit: 20 },
      },
      'POST /api/messages': { status: 201, body: { user_message: sent, message: pending } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Continue generating' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/messages')[0].body).toMatchObject({ content: 'Continue' }),
    );
  });

  it('goes to /sorry on a 412', async () => {
    renderConversation({
      'POST /api/messages': {
        status: 412,
        body: { statusCode: 412, message: 'No access.', code: 'no_access' },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello again');
    await ui.click(sendButton());
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('shows the token estimate and refuses text above the maximum', async () => {
    renderConversation();
    await screen.findByText('Hi! How can I help?');
    expect(sendButton()).toBeDisabled();
    const input = screen.getByRole('textbox', { name: 'Message' });
    const ui = userEvent.setup();
    await ui.type(input, 'abcdef');
    expect(screen.getByText(`2 / ${MAX_TOKENS} tokens`)).toBeInTheDocument();
    expect(sendButton()).toBeEnabled();

    await ui.clear(input);
    await ui.click(input);
    await ui.paste('a'.repeat(MAX_TOKENS * 4 + 2));
    expect(screen.getByText(`${MAX_TOKENS + 1} / ${MAX_TOKENS} tokens`)).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('loads older pages and merges them without duplicates', async () => {
    const older = message({ message_id: 0, content: 'Earlier', createdAt: '2025-01-01T09:00:00.000Z' });
    const { fetch } = renderConversation({
      'GET /api/messages/conversation/7': (call) =>
        call.query.get('page') === '2'
          ? { body: { messages: [older, hello], total: 3, page: 2, limit: 2 } }
          : { body: { messages: [hello, answer], total: 3, page: 1, limit: 2 } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByText('Earlier')).toBeInTheDocument();
    expect(screen.getAllByTestId(/^message-/).map((el) => el.getAttribute('data-testid'))).toEqual([
      'message-0',
      'message-1',
      'message-2',
    ]);
    expect(fetch.callsTo('GET /api/messages/conversation/7').map((c) => c.query.get('page'))).toContain('2');
  });

  it('toggles a favorite with PUT /api/messages', async () => {
    const { fetch } = renderConversation({
      'PUT /api/messages': { body: { message: { ...answer, favorite: true } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    await ui.click(screen.getAllByRole('button', { name: 'Add to favorites' })[1]);
    await waitFor(() =>
      expect(fetch.callsTo('PUT /api/messages')[0].body).toEqual({ message_id: 2, favorite: true }),
    );
    expect(await screen.findByRole('button', { name: 'Remove from favorites' })).toBeInTheDocument();
  });

  it('tells the user when the clipboard refuses', async () => {
    renderConversation();
    const ui = userEvent.setup();
    await screen.findByText('Hi! How can I help?');
    jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await ui.click(screen.getAllByRole('button', { name: 'Copy' })[0]);
    expect(
      await screen.findByText('Unable to copy content to clipboard. Please copy manually.'),
    ).toBeInTheDocument();
  });

  it('archives through PUT /api/conversations with the archived text', async () => {
    const { fetch } = renderConversation({
      'PUT /api/conversations': { body: { conversation: conversation({ archived: true }) } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Edit' }));
    await ui.click(await screen.findByRole('switch', { name: 'Archived' }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Conversation archived.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/conversations')[0].body).toEqual({
      conversation_id: 7,
      name: 'Blog ideas',
      tags: ['blog', 'ideas', 'drafts', 'later'],
      model: null,
      archived: true,
    });
  });

  it('deletes after confirmation and returns to the list', async () => {
    const { fetch } = renderConversation({ 'DELETE /api/conversations/7': { status: 204 } });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await ui.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent(/^\/conversations$/));
    expect(fetch.callsTo('DELETE /api/conversations/7')).toHaveLength(1);
  });
});

describe('chat rules', () => {
  it('estimates tokens as length / 4 rounded and allows 1 character to the maximum', () => {
    expect(estimateTokens('abcdef')).toBe(2);
    expect(canSend('')).toBe(false);
    expect(canSend('a')).toBe(true);
    expect(canSend('a'.repeat(MAX_TOKENS * 4))).toBe(true);
    expect(canSend('a'.repeat(MAX_TOKENS * 4 + 2))).toBe(false);
  });

  it('merges messages without duplicates, the later copy winning, by creation time', () => {
    const merged = mergeMessages([answer, hello], [{ ...hello, favorite: true }]);
    expect(merged.map((m) => m.message_id)).toEqual([1, 2]);
    expect(merged[0].favorite).toBe(true);
  });
});
