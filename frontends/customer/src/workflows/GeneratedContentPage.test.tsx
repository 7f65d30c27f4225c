import { notifications } from '@mantine/notifications';
import { setRealtimeIo } from '@avatar-studio/shared';
import { expectPageExists, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderMarkdown } from '../conversations/Markdown';
import type { UserWorkflow } from './model';
import { fakeIo, message, renderWorkflows, userWorkflow } from './testkit';
import App from '../App';

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

function withFirstStep(status: 'pending' | 'generating' | 'done' | 'failed'): UserWorkflow {
  const uw = userWorkflow();
  uw.user_workflow_templates[0] = { ...uw.user_workflow_templates[0], status };
  return uw;
}

const prompt = message({
  message_id: 1,
  role: 'user',
  content: 'Write an outline about cats (secret prompt)',
});
const answer = message({
  message_id: 2,
  content: '# Cats\n\n- **Whiskers**\n- <script>alert(1)</script>',
  user_message_id: 1,
});
const messagesOf = (...messages: unknown[]) => ({
  body: { messages, total: messages.length, page: 1, limit: 20 },
});

function renderContent(routes: MockRoutes, user = testUser()) {
  return renderWorkflows(
    '/user_workflows/9/conversation/101',
    {
      'GET /api/user_workflows/9': { body: { user_workflow: withFirstStep('done') } },
      'GET /api/messages/conversation/101': messagesOf(prompt, answer),
      ...routes,
    },
    user,
  );
}

const regenerateButton = () => screen.getByRole('button', { name: 'Regenerate' });

describe('Generated content view', () => {
  it('shows the generated answer as markdown, never the prompt nor raw HTML', async () => {
    renderContent({});
    expect(await screen.findByRole('heading', { name: 'Cats' })).toBeInTheDocument();
    expect(screen.getByText('Whiskers').tagName).toBe('STRONG');
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    expect(screen.queryByText(/secret prompt/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/user_workflows/9');
    await expectPageExists(App, '/user_workflows/9');
    expect(regenerateButton()).toBeEnabled();
  });

  it('streams the answer in live and keeps Regenerate disabled until the step ends', async () => {
    const { fetch } = renderContent({
      'GET /api/user_workflows/9': { body: { user_workflow: withFirstStep('generating') } },
      'GET /api/messages/conversation/101': messagesOf(prompt),
    });
    await screen.findByText('Generating the content…');
    expect(regenerateButton()).toBeDisabled();

    act(() => {
      socket.deliver('message_stream', {
        conversation_id: 101,
        message_id: 5,
        offset: 0,
        content: 'Cats are ',
      });
      socket.deliver('message_stream', {
        conversation_id: 102,
        message_id: 6,
        offset: 0,
        content: 'Other step',
      });
      socket.deliver('message_stream', { conversation_id: 101, message_id: 5, offset: 9, content: 'great.' });
    });
    expect(await screen.findByText('Cats are great.')).toBeInTheDocument();
    expect(screen.queryByText(/Other step/)).not.toBeInTheDocument();

    fetch.route({
      'GET /api/user_workflows/9': { body: { user_workflow: withFirstStep('done') } },
      'GET /api/messages/conversation/101': messagesOf(
        prompt,
        message({ message_id: 5, content: 'Cats are great. Truly.' }),
      ),
    });
    act(() => {
      socket.deliver('message_stream_end', {
        conversation_id: 101,
        message: message({ message_id: 5, content: 'Cats are great. Truly.' }),
      });
      socket.deliver('message', {
        user_workflow_id: 9,
        user_workflow_template_id: 21,
        conversation_id: 101,
        status: 'done',
      });
    });
    expect(await screen.findByText('Cats are great. Truly.')).toBeInTheDocument();
    await waitFor(() => expect(regenerateButton()).toBeEnabled());
    expect(screen.getAllByTestId(/^content-/)).toHaveLength(1);
  });

  it('on load, shows the text saved so far of an answer still generating and resumes its stream', async () => {
    renderContent({
      'GET /api/user_workflows/9': { body: { user_workflow: withFirstStep('generating') } },
      'GET /api/messages/conversation/101': messagesOf(
        prompt,
        message({ message_id: 5, content: null, partial_content: 'Cats are ' }),
      ),
    });
    expect(await screen.findByText('Cats are')).toBeInTheDocument();
    await waitFor(() => expect(socket.emittedOf('stream_resume')).toEqual([{ message_id: 5, offset: 9 }]));
    act(() =>
      socket.deliver('message_stream', { conversation_id: 101, message_id: 5, offset: 9, content: 'great.' }),
    );
    expect(await screen.findByText('Cats are great.')).toBeInTheDocument();
  });

  it('regenerates the step: the old answer goes and the new one streams in', async () => {
    const { fetch } = renderContent({
      'POST /api/user_workflows/9/regenerate/101': {
        status: 202,
        body: { user_workflow: withFirstStep('pending') },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('heading', { name: 'Cats' });
    fetch.route({ 'GET /api/messages/conversation/101': messagesOf() });
    await ui.click(regenerateButton());

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cats' })).not.toBeInTheDocument());
    expect(fetch.callsTo('POST /api/user_workflows/9/regenerate/101')).toHaveLength(1);
    expect(regenerateButton()).toBeDisabled();
    act(() =>
      socket.deliver('message_stream', { conversation_id: 101, message_id: 7, offset: 0, content: 'Dogs' }),
    );
    expect(await screen.findByText('Dogs')).toBeInTheDocument();
  });

  it('goes to /sorry when regenerating answers 412', async () => {
    renderContent({
      'POST /api/user_workflows/9/regenerate/101': {
        status: 412,
        body: {
          statusCode: 412,
          message: 'Creating more content with the product requires an active subscription.',
          code: 'no_access',
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByRole('heading', { name: 'Cats' });
    await ui.click(regenerateButton());
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('does not let a user without access regenerate and links to the plans', async () => {
    const { fetch } = renderContent({}, testUser({ has_access: false }));
    await screen.findByRole('heading', { name: 'Cats' });
    expect(regenerateButton()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await expectPageExists(App, '/pricing');
    expect(fetch.callsTo('POST /api/user_workflows/9/regenerate/101')).toHaveLength(0);
  });

  it('says the content was not found for a conversation outside the workflow', async () => {
    renderWorkflows('/user_workflows/9/conversation/555', {
      'GET /api/user_workflows/9': { body: { user_workflow: userWorkflow() } },
    });
    expect(await screen.findByText('Content not found.')).toBeInTheDocument();
  });
});

describe('renderMarkdown', () => {
  it('escapes raw HTML and refuses javascript: links', () => {
    const html = renderMarkdown(
      '<img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.com)',
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">',
    );
  });
});
