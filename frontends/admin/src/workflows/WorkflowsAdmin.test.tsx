import { notifications } from '@mantine/notifications';
import { useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import App from '../App';
import { manifest } from '../manifest';

const { navigation } = manifest;
import type { Template, Workflow } from './model';
import { MAX_STEPS, moveStep } from './WorkflowFormPage';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const manager = testUser({ staff: { staff_id: 2, role: 'manager' } });

/** Like the shell: the remote mounts once the session is settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

function CurrentPath() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderAt(route: string, routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/admin/*" element={<App />} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    { user: manager, route, routes },
  );
}

function workflow(overrides: Partial<Workflow> = {}): Workflow {
  return {
    workflow_id: 3,
    name: 'Blog launch',
    description: 'Plan, write and promote a blog post.',
    tags: 'blog,seo',
    templates: [
      { template_id: 11, name: 'Outline', description: 'An outline', order: 1 },
      { template_id: 12, name: 'Draft', description: 'The post', order: 2 },
    ],
    fields: [],
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

function template(template_id: number, name: string): Template {
  return {
    template_id,
    user_id: 1,
    organization_id: null,
    name,
    description: `${name} description`,
    content: `Write [topic] as ${name}`,
    type: '',
    tags: '',
    language: 'en',
    public: false,
    editable: false,
    show_prompt: true,
    fields: [],
    favorite: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  } as Template;
}

const templates = [template(11, 'Outline'), template(12, 'Draft'), template(13, 'Tweet')];
const templateRoutes: MockRoutes = {
  'GET /api/templates': (call) => {
    const query = call.query.get('query')?.toLowerCase() ?? '';
    const found = templates.filter((t) => t.name.toLowerCase().includes(query));
    return { body: { templates: found, total: found.length, page: 1, limit: 24 } };
  },
};
const listRoute = (workflows: Workflow[]): MockRoutes => ({
  'GET /api/workflows': { body: { workflows, total: workflows.length, page: 1, limit: 24, tags: [] } },
});
const steps = () =>
  screen.getAllByTestId('workflow-step').map((li) => within(li).getByText(/^[A-Z]\w+$/).textContent);

describe('staff workflows list', () => {
  it('is in the admin menu for staff managers and admins', () => {
    const entry = navigation.find((e) => e.path === '/admin/workflows');
    expect(entry).toMatchObject({
      menu: 'admin',
      permission: 'backoffice.view',
      labelKey: 'admin:workflows.nav',
    });
  });

  it('lists the workflows and searches them', async () => {
    const { fetch } = renderAt('/admin/workflows', listRoute([workflow()]));
    expect(await screen.findByRole('heading', { name: 'Workflows' })).toBeInTheDocument();
    const row = (await screen.findByText('Blog launch')).closest('tr')!;
    expect(within(row).getByText('blog, seo')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Search' }), 'blog');
    await waitFor(() => expect(fetch.callsTo('GET /api/workflows').at(-1)!.query.get('query')).toBe('blog'));
  });

  it('deletes a workflow only after the confirmation', async () => {
    const { fetch } = renderAt('/admin/workflows', {
      ...listRoute([workflow()]),
      'DELETE /api/workflows/3': { status: 204 },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete Blog launch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete workflow?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetch.callsTo('DELETE /api/workflows/3')).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: 'Delete Blog launch' }));
    fetch.route(listRoute([]));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Workflow deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/workflows/3')).toHaveLength(1);
    expect(await screen.findByText('There aren’t any workflows.')).toBeInTheDocument();
  });
});

describe('staff workflow form', () => {
  it('refuses to save without a name, a description and at least one template', async () => {
    const { fetch } = renderAt('/admin/workflows/new', templateRoutes);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Save' }));
    expect(screen.getAllByText("The input can't be empty")).toHaveLength(2);
    expect(screen.getByText('Add at least one template.')).toBeInTheDocument();
    expect(await screen.findByText('Please complete all the required fields to save.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/workflows')).toHaveLength(0);
  });

  it('creates a workflow with its steps in the order chosen by arrows and by drag', async () => {
    const { fetch } = renderAt('/admin/workflows/new', {
      ...templateRoutes,
      ...listRoute([]),
      'POST /api/workflows': { status: 201, body: { workflow: workflow() } },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByRole('textbox', { name: 'Name' }), 'Launch');
    await ui.type(screen.getByRole('textbox', { name: 'Description' }), 'From outline to tweet');
    await ui.type(screen.getByRole('textbox', { name: 'Tags' }), 'blog,social,');
    await ui.click(await screen.findByRole('button', { name: 'Add Outline' }));
    await ui.click(screen.getByRole('button', { name: 'Add Draft' }));
    await ui.click(screen.getByRole('button', { name: 'Add Tweet' }));
    expect(steps()).toEqual(['Outline', 'Draft', 'Tweet']);
    expect(screen.getByRole('button', { name: 'Move Outline up' })).toBeDisabled();

    await ui.click(screen.getByRole('button', { name: 'Move Tweet up' }));
    expect(steps()).toEqual(['Outline', 'Tweet', 'Draft']);

    // Drag Draft (the last) onto Outline (the first).
    const items = screen.getAllByTestId('workflow-step');
    fireEvent.dragStart(items[2]);
    const drop = createEvent.drop(items[0]);
    fireEvent(items[0], drop);
    expect(steps()).toEqual(['Draft', 'Outline', 'Tweet']);

    await ui.click(screen.getByRole('button', { name: 'Remove Outline' }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent(/^\/admin\/workflows$/));
    expect(fetch.callsTo('POST /api/workflows').map((c) => c.body)).toEqual([
      {
        name: 'Launch',
        description: 'From outline to tweet',
        tags: ['blog', 'social'],
        template_ids: [12, 13],
      },
    ]);
  });

  it('edits a workflow: loads its steps in order and saves with PUT', async () => {
    const { fetch } = renderAt('/admin/workflows/3', {
      ...templateRoutes,
      ...listRoute([]),
      'GET /api/workflows/3': {
        body: {
          workflow: workflow({
            templates: [
              { template_id: 12, name: 'Draft', description: 'The post', order: 2 },
              { template_id: 11, name: 'Outline', description: 'An outline', order: 1 },
            ],
          }),
        },
      },
      'PUT /api/workflows': { body: { workflow: workflow() } },
    });
    const ui = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Edit workflow' })).toBeInTheDocument();
    expect(steps()).toEqual(['Outline', 'Draft']);
    expect(await screen.findByRole('button', { name: 'Add Tweet' })).toBeEnabled();
    expect(screen.getAllByRole('button', { name: 'Added' })).toHaveLength(2);
    await ui.click(screen.getByRole('button', { name: 'Move Outline down' }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/workflows')).toHaveLength(1));
    expect(fetch.callsTo('PUT /api/workflows')[0].body).toEqual({
      workflow_id: 3,
      name: 'Blog launch',
      description: 'Plan, write and promote a blog post.',
      tags: ['blog', 'seo'],
      template_ids: [12, 11],
    });
  });

  it(`stops adding templates at ${MAX_STEPS}`, async () => {
    const many = Array.from({ length: MAX_STEPS }, (_, i) => ({
      template_id: 100 + i,
      name: `Step${i}`,
      description: '',
      order: i + 1,
    }));
    renderAt('/admin/workflows/3', {
      ...templateRoutes,
      'GET /api/workflows/3': { body: { workflow: workflow({ templates: many }) } },
    });
    expect(await screen.findByText(`A workflow has at most ${MAX_STEPS} templates.`)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Add Tweet' })).toBeDisabled();
  });
});

describe('moveStep', () => {
  it('moves one step and keeps the others in order', () => {
    expect(moveStep(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(moveStep(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveStep(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });
});
