import { notifications } from '@mantine/notifications';
import { expectPageExists } from '@avatar-studio/shared/testing';
import { setRealtimeIo } from '@avatar-studio/shared';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeIo, renderWorkflows, userWorkflow, workflow } from './testkit';
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

const routes = {
  'GET /api/user_workflows/9': { body: { user_workflow: userWorkflow() } },
  'GET /api/workflows/3': { body: { workflow: workflow() } },
};
const status = (stepId: number) => within(screen.getByTestId(`step-${stepId}`));

describe('User workflow detail', () => {
  it('shows the steps with their status and a link to each one’s content', async () => {
    renderWorkflows('/user_workflows/9', routes);
    expect(await screen.findByRole('heading', { name: 'Blog launch' })).toBeInTheDocument();
    expect(status(21).getByText('Outline')).toBeInTheDocument();
    expect(status(21).getByText('Pending')).toBeInTheDocument();
    expect(status(22).getByRole('link', { name: 'View content: Draft' })).toHaveAttribute(
      'href',
      '/user_workflows/9/conversation/102',
    );
    await expectPageExists(App, '/user_workflows/9/conversation/102');
  });

  it('updates a step live from the socket’s status events and ignores other workflows’ events', async () => {
    renderWorkflows('/user_workflows/9', routes);
    await screen.findByTestId('step-21');
    act(() =>
      socket.deliver('message', {
        user_workflow_id: 9,
        user_workflow_template_id: 21,
        conversation_id: 101,
        status: 'generating',
      }),
    );
    expect(await status(21).findByText('Generating')).toBeInTheDocument();
    expect(status(22).getByText('Pending')).toBeInTheDocument();

    act(() =>
      socket.deliver('message', {
        user_workflow_id: 10,
        user_workflow_template_id: 22,
        conversation_id: 102,
        status: 'done',
      }),
    );
    expect(status(22).getByText('Pending')).toBeInTheDocument();
    expect(screen.getByText('0/2 steps done')).toBeInTheDocument();
    act(() =>
      socket.deliver('message', {
        user_workflow_id: 9,
        user_workflow_template_id: 22,
        conversation_id: 102,
        status: 'generating',
      }),
    );
    expect(await status(22).findByText('Generating')).toBeInTheDocument();
  });

  it('reads the saved steps again when a step ends, showing a failure’s error', async () => {
    const { fetch } = renderWorkflows('/user_workflows/9', routes);
    await screen.findByTestId('step-21');
    const ended = userWorkflow();
    ended.user_workflow_templates[0] = {
      ...ended.user_workflow_templates[0],
      status: 'failed',
      error: 'Sorry, OpenAI is having problems with your request.',
    };
    fetch.route({ 'GET /api/user_workflows/9': { body: { user_workflow: ended } } });
    act(() =>
      socket.deliver('message', {
        user_workflow_id: 9,
        user_workflow_template_id: 21,
        conversation_id: 101,
        status: 'failed',
      }),
    );
    expect(await status(21).findByText('Failed')).toBeInTheDocument();
    expect(
      await status(21).findByText('Sorry, OpenAI is having problems with your request.'),
    ).toBeInTheDocument();
  });

  it('deletes it after a confirmation and goes back to the list', async () => {
    const { fetch } = renderWorkflows('/user_workflows/9', {
      ...routes,
      'DELETE /api/user_workflows/9': { status: 204 },
      'GET /api/user_workflows': { body: { user_workflows: [], total: 0, page: 1, limit: 24 } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this workflow?' });
    expect(fetch.callsTo('DELETE /api/user_workflows/9')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent(/^\/user_workflows$/));
    expect(fetch.callsTo('DELETE /api/user_workflows/9')).toHaveLength(1);
    expect(await screen.findByText('Workflow deleted.')).toBeInTheDocument();
    expect(await screen.findByText("You don't have any workflows.")).toBeInTheDocument();
  });

  it('shows the field values and saves edited ones', async () => {
    const { fetch } = renderWorkflows('/user_workflows/9', {
      ...routes,
      'PUT /api/user_workflows': {
        body: { user_workflow: userWorkflow({ values: { topic: 'dogs', tone: 'casual', words: '300' } }) },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Field values' }));
    const dialog = await screen.findByRole('dialog', { name: 'Field values' });
    const topic = await within(dialog).findByRole('textbox', { name: 'Topic' });
    expect(topic).toHaveValue('cats');
    expect(within(dialog).getByRole('textbox', { name: 'Tone' })).toHaveValue('formal');

    await ui.clear(topic);
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText("The input can't be empty")).toBeInTheDocument();

    await ui.type(topic, 'dogs');
    await ui.click(within(dialog).getByRole('textbox', { name: 'Tone' }));
    await ui.click(await screen.findByRole('option', { name: 'casual' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.callsTo('PUT /api/user_workflows').map((c) => c.body)).toEqual([
      { user_workflow_id: 9, values: { topic: 'dogs', tone: 'casual', words: '300' } },
    ]);
  });

  it('says it was not found for another user’s workflow (404)', async () => {
    renderWorkflows('/user_workflows/77', {});
    expect(await screen.findByText('Workflow not found.')).toBeInTheDocument();
  });
});
