/** Test helpers of the chats screens (test files only). */
import { useSession } from '@avatar-studio/shared';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
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

export { fakeIo } from '@avatar-studio/shared/testing';
