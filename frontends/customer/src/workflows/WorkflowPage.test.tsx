import { expectPageExists, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWorkflows, userWorkflow, workflow } from './testkit';
import App from '../App';

configure({ asyncUtilTimeout: 5000 });

const detail = { 'GET /api/workflows/3': { body: { workflow: workflow() } } };

describe('Workflow detail', () => {
  it('shows the description and the steps in order', async () => {
    renderWorkflows('/workflows/3', {
      'GET /api/workflows/3': {
        body: {
          workflow: workflow({
            templates: [
              { template_id: 12, name: 'Draft', description: 'The full post', order: 2 },
              { template_id: 11, name: 'Outline', description: 'An outline of the post', order: 1 },
            ],
          }),
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Blog launch' })).toBeInTheDocument();
    expect(screen.getByText('Plan, write and promote a blog post.')).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['OutlineAn outline of the post', 'DraftThe full post']);
  });

  it('requires every value, defaults a select to its first option, then starts it and opens the new one', async () => {
    const { fetch } = renderWorkflows('/workflows/3', {
      ...detail,
      'POST /api/user_workflows': {
        status: 201,
        body: { user_workflow: userWorkflow({ user_workflow_id: 42 }) },
      },
      'GET /api/user_workflows/42': { body: { user_workflow: userWorkflow({ user_workflow_id: 42 }) } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start Blog launch' });
    expect(within(dialog).getByRole('textbox', { name: 'Tone' })).toHaveValue('formal');

    await ui.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(within(dialog).getAllByText("The input can't be empty")).toHaveLength(2);
    expect(fetch.callsTo('POST /api/user_workflows')).toHaveLength(0);

    await ui.type(within(dialog).getByRole('textbox', { name: 'Topic' }), 'cats');
    expect(within(dialog).getAllByText("The input can't be empty")).toHaveLength(1);
    await ui.type(within(dialog).getByRole('textbox', { name: 'Words' }), '300');
    await ui.click(within(dialog).getByRole('button', { name: 'Start' }));

    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/user_workflows/42'));
    expect(fetch.callsTo('POST /api/user_workflows').map((c) => c.body)).toEqual([
      { workflow_id: 3, values: { topic: 'cats', tone: 'formal', words: '300' } },
    ]);
  });

  it('goes to /sorry when starting answers 412', async () => {
    renderWorkflows('/workflows/3', {
      'GET /api/workflows/3': { body: { workflow: workflow({ fields: [] }) } },
      'POST /api/user_workflows': {
        status: 412,
        body: {
          statusCode: 412,
          message: 'Creating more content with the product requires an active subscription.',
          code: 'no_access',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('This workflow needs no values.')).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('offers the plans instead of Start to a user without access', async () => {
    renderWorkflows('/workflows/3', detail, testUser({ has_access: false }));
    expect(await screen.findByRole('button', { name: 'Start' })).toBeDisabled();
    expect(
      screen.getByText('Creating more content with the product requires an active subscription.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await expectPageExists(App, '/pricing');
  });

  it('says the workflow was not found on a 404', async () => {
    renderWorkflows('/workflows/99', {});
    expect(await screen.findByText('Workflow not found.')).toBeInTheDocument();
  });
});
