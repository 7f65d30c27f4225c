import { configure, screen, waitFor, within } from '@testing-library/react';
import { expectPageExists } from '@avatar-studio/shared/testing';
import userEvent from '@testing-library/user-event';
import { renderWorkflows, userWorkflow, workflow } from './testkit';
import App from '../App';

configure({ asyncUtilTimeout: 5000 });

const page = (workflows: unknown[], tags = [{ tag: 'blog', count: 2 }]) => ({
  body: { workflows, total: workflows.length, page: 1, limit: 24, tags },
});

describe('Workflows list', () => {
  it('shows a card per workflow with its name, description and at most 3 tags', async () => {
    renderWorkflows('/workflows', {
      'GET /api/workflows': page([workflow(), workflow({ workflow_id: 4, name: 'Newsletter', tags: '' })]),
    });
    const cards = await screen.findAllByTestId('workflow-card');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]);
    expect(first.getByText('Blog launch')).toBeInTheDocument();
    expect(first.getByText('Plan, write and promote a blog post.')).toBeInTheDocument();
    expect(first.getByText('blog')).toBeInTheDocument();
    expect(first.getByText('social')).toBeInTheDocument();
    expect(first.queryByText('launch')).not.toBeInTheDocument();
    expect(first.getByText('2 steps')).toBeInTheDocument();
    expect(cards[0]).toHaveAttribute('href', '/workflows/3');
    await expectPageExists(App, '/workflows/3');
  });

  it('says so when there are no workflows', async () => {
    renderWorkflows('/workflows', { 'GET /api/workflows': page([], []) });
    expect(await screen.findByText('There aren’t any workflows.')).toBeInTheDocument();
  });

  it('searches after the typing stops and filters by a tag of the list', async () => {
    const { fetch } = renderWorkflows('/workflows', {
      'GET /api/workflows': page(
        [workflow()],
        [
          { tag: 'blog', count: 2 },
          { tag: 'seo', count: 1 },
        ],
      ),
    });
    await screen.findAllByTestId('workflow-card');
    const ui = userEvent.setup();
    await ui.type(screen.getByRole('textbox', { name: 'Search' }), 'blo');
    // One request for the whole word, not one per key.
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/workflows').map((c) => c.query.get('query'))).toContain('blo'),
    );
    expect(fetch.callsTo('GET /api/workflows').map((c) => c.query.get('query'))).toEqual([null, 'blo']);

    await ui.click(screen.getByRole('textbox', { name: 'Tag' }));
    await ui.click(await screen.findByRole('option', { name: 'seo (1)' }));
    await waitFor(() => {
      const last = fetch.callsTo('GET /api/workflows').at(-1)!;
      expect([last.query.get('tag'), last.query.get('query'), last.query.get('page')]).toEqual([
        'seo',
        'blo',
        '1',
      ]);
    });
  });
});

describe('My workflows list', () => {
  it('shows each with its workflow name, date and steps done of total', async () => {
    const started = userWorkflow({
      user_workflow_templates: userWorkflow().user_workflow_templates.map((s, i) =>
        i === 0 ? { ...s, status: 'done' } : s,
      ),
    });
    renderWorkflows('/user_workflows', {
      'GET /api/user_workflows': { body: { user_workflows: [started], total: 1, page: 1, limit: 24 } },
    });
    const [card] = await screen.findAllByTestId('user-workflow-card');
    expect(within(card).getByText('Blog launch')).toBeInTheDocument();
    expect(within(card).getByText('1/2 steps done')).toBeInTheDocument();
    expect(within(card).getByText(/^Started /)).toBeInTheDocument();
    expect(card).toHaveAttribute('href', '/user_workflows/9');
    await expectPageExists(App, '/user_workflows/9');
  });

  it("says 'You don't have any workflows.' when there are none", async () => {
    renderWorkflows('/user_workflows', {
      'GET /api/user_workflows': { body: { user_workflows: [], total: 0, page: 1, limit: 24 } },
    });
    expect(await screen.findByText("You don't have any workflows.")).toBeInTheDocument();
  });
});
