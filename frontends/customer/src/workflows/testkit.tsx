/** Test helpers of the workflow screens (test files only). */
import { registerTranslations, useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { en, es } from '../i18n';
import type { Message, UserWorkflow, Workflow } from './model';
import { UserWorkflowsRoutes, WorkflowsRoutes } from './routes';

registerTranslations('customer', { en, es });

/** Like the shell: the remote's screen mounts once the session is settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

function CurrentPath() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

/** Renders the workflow routes as App.tsx mounts them, at `route`, with a signed-in user. */
export function renderWorkflows(route: string, routes: MockRoutes, user = testUser()) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/workflows/*" element={<WorkflowsRoutes />} />
        <Route path="/user_workflows/*" element={<UserWorkflowsRoutes />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    { user, route, routes },
  );
}

export function workflow(overrides: Partial<Workflow> = {}): Workflow {
  return {
    workflow_id: 3,
    name: 'Blog launch',
    description: 'Plan, write and promote a blog post.',
    tags: 'blog,seo,social,launch',
    templates: [
      { template_id: 11, name: 'Outline', description: 'An outline of the post', order: 1 },
      { template_id: 12, name: 'Draft', description: 'The full post', order: 2 },
    ],
    fields: [
      { name: 'topic', label: 'Topic', type: 'text', options: [], order: 1, value: '' },
      {
        name: 'tone',
        label: 'Tone',
        type: 'select',
        options: ['formal', 'casual'],
        order: 2,
        value: 'formal',
      },
      { name: 'words', label: 'Words', type: 'number', options: [], order: 3, value: '' },
    ],
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export function userWorkflow(overrides: Partial<UserWorkflow> = {}): UserWorkflow {
  return {
    user_workflow_id: 9,
    name: 'Blog launch',
    description: '',
    workflow_id: 3,
    workflow: { workflow_id: 3, name: 'Blog launch', description: 'Plan…', tags: 'blog' },
    values: { topic: 'cats', tone: 'formal', words: '300' },
    user_workflow_templates: [
      {
        user_workflow_template_id: 21,
        order: 1,
        conversation_id: 101,
        template: { template_id: 11, name: 'Outline', description: 'An outline of the post' },
        status: 'pending',
        error: null,
      },
      {
        user_workflow_template_id: 22,
        order: 2,
        conversation_id: 102,
        template: { template_id: 12, name: 'Draft', description: 'The full post' },
        status: 'pending',
        error: null,
      },
    ],
    createdAt: '2025-01-05T10:00:00.000Z',
    updatedAt: '2025-01-05T10:00:00.000Z',
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
    conversation_id: 101,
    user_id: 1,
    role: 'assistant',
    content: 'Hello',
    finish_reason: 'stop',
    favorite: false,
    prompt: null,
    user_message_id: null,
    message_type_id: null,
    model: null,
    words: 0,
    createdAt: '2025-01-05T10:00:01.000Z',
    updatedAt: '2025-01-05T10:00:01.000Z',
    ...overrides,
  } as Message;
}

export { fakeIo } from '@avatar-studio/shared/testing';
