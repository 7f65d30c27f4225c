/** Test helpers of the chats screens (test files only). */
import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo, useSession } from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, within } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { en, es } from '../i18n';
import type { Conversation, Message } from './model';

/** Like the shell: the remote's screen mounts once the session is settled. */
export function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

export function CurrentPath() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

export function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    conversation_id: 7,
    user_id: 1,
    organization_id: null,
    name: 'Blog ideas',
    model: null,
    tags: 'blog,ideas,drafts,later',
    archived: false,
    avatar_id: null,
    thread_avatar_id: null,
    file: null,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-03T00:00:00.000Z',
    ...overrides,
  };
}

/** A message; an answer with content null is one still generating, as the server stores it. */
export function message(overrides: Partial<Message> = {}): Message {
  return {
    status: overrides.content === null ? 'generating' : 'complete',
    interrupted_reason: null,
    partial_content: null,
    message_id: 1,
    conversation_id: 7,
    user_id: 1,
    role: 'user',
    content: 'Hello',
    finish_reason: null,
    favorite: false,
    sources: null,
    citations: null,
    user_message_id: null,
    message_type_id: null,
    model: null,
    words: 0,
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export { fakeIo };

/** The chat fixtures: conversation 7 holds `hello` and its `answer`; sending `sent` starts `pending` (id 4). */
export const hello = message({ message_id: 1, content: 'Hello' });
export const answer = message({
  message_id: 2,
  role: 'assistant',
  content: 'Hi! How can I help?',
  user_message_id: 1,
  createdAt: '2025-01-02T10:00:01.000Z',
});
export const sent = message({
  message_id: 3,
  content: 'Write a haiku',
  createdAt: '2025-01-02T11:00:00.000Z',
});
export const pending = message({
  message_id: 4,
  role: 'assistant',
  content: null,
  user_message_id: 3,
  createdAt: '2025-01-02T11:00:01.000Z',
});

/**
 * The chat tests' set-up, called once at the top of a test file: the screens' translations, patient queries (a
 * stream settles over several renders), and a fresh fake socket per test installed as the realtime connection.
 * Answers that test's socket.
 */
export function setUpChatTests() {
  registerTranslations('customer', { en, es });
  configure({ asyncUtilTimeout: 5000 });
  let current = fakeIo();
  beforeEach(() => {
    current = fakeIo();
    setRealtimeIo(current.io);
  });
  afterEach(() => {
    setRealtimeIo(null);
    notifications.clean();
  });
  return {
    deliver: (event: string, payload: unknown) => current.deliver(event, payload),
    emittedOf: (event: string) => current.emittedOf(event),
    reconnect: () => current.reconnect(),
    get factory() {
      return current.factory;
    },
    get io() {
      return current.io;
    },
  };
}

/** Renders `element` at /conversations/7 for a signed-in user, with conversation 7 and its two messages served. */
export function renderChatRoute(
  element: ReactElement,
  { routes = {}, config = {} }: { routes?: MockRoutes; config?: Record<string, string> } = {},
) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/conversations/:conversation_id" element={element} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user: testUser(),
      route: '/conversations/7',
      config,
      routes: {
        'GET /api/conversations/conversation/7': { body: { conversation: conversation() } },
        'GET /api/messages/conversation/7': {
          body: { messages: [hello, answer], total: 2, page: 1, limit: 20 },
        },
        ...routes,
      },
    },
  );
}

export const sendButton = () => screen.getByRole('button', { name: 'Send' });
export const messageInput = () => screen.getByRole('textbox', { name: 'Message' });
/** Queries within message `id`'s bubble. */
export const bubble = (id: number) => within(screen.getByTestId(`message-${id}`));
