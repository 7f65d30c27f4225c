import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { deriveFields, hasRepeatedFieldSettings, parsePlaceholders } from './model';
import { TemplateFormPage } from './TemplateFormPage';
import { template } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const staffAdmin = testUser({ staff: { staff_id: 1, role: 'admin' } });
const staffManager = testUser({ staff: { staff_id: 2, role: 'manager' } });

function renderForm(route = '/templates/create-template', routes: MockRoutes = {}, user = testUser()) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/templates/create-template" element={<TemplateFormPage />} />
        <Route path="/templates/edit-template/:template_id" element={<TemplateFormPage />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user,
      route,
      routes: { 'GET /api/templates/types': { body: { types: [], total: 0 } }, ...routes },
    },
  );
}

const fieldCard = (name: string) => screen.getByRole('group', { name: `Field ${name}` });
/** Sets a textarea or input at once (typing brackets with userEvent needs escaping). */
const setText = (label: string | HTMLElement, value: string) =>
  fireEvent.change(typeof label === 'string' ? screen.getByRole('textbox', { name: label }) : label, {
    target: { value },
  });

describe('Template placeholders', () => {
  it('derives one text field per placeholder, deduplicated, in order of appearance', () => {
    expect(deriveFields('[b] then [a] and [b] and [ ]', [])).toEqual([
      { name: 'b', label: 'b', type: 'text', options: [], order: 1 },
      { name: 'a', label: 'a', type: 'text', options: [], order: 2 },
    ]);
  });

  it('keeps the settings made for a name and reads embedded options as a select', () => {
    const kept = { name: 'a', label: 'Audience', type: 'number' as const, options: [], order: 5 };
    expect(deriveFields('[a] [tone[formal/ casual]]', [kept])).toEqual([
      kept,
      { name: 'tone', label: 'tone', type: 'select', options: ['formal', 'casual'], order: 2 },
    ]);
    expect(parsePlaceholders('[x[]]')).toEqual([{ name: 'x', options: null }]);
  });

  it('calls settings given twice for one field repeated', () => {
    expect(hasRepeatedFieldSettings('[tone[a/b]] and [tone[c]]')).toBe(true);
    expect(hasRepeatedFieldSettings('[tone[a/b]] and [tone] and [tone]')).toBe(false);
  });
});

describe('Create template', () => {
  it('updates the fields editor live from the placeholders in the content', async () => {
    renderForm();
    const content = await screen.findByRole('textbox', { name: 'Content' });
    expect(screen.getByText('No fields yet: add a [placeholder] to the content.')).toBeInTheDocument();
    setText(content, 'About [topic] for [audience] on [topic]');
    expect(fieldCard('topic')).toBeInTheDocument();
    expect(fieldCard('audience')).toBeInTheDocument();
    expect(screen.getAllByRole('group', { name: /^Field / })).toHaveLength(2);
    expect(within(fieldCard('topic')).getByRole('textbox', { name: 'Label' })).toHaveValue('topic');
    expect(within(fieldCard('topic')).getByRole('textbox', { name: 'Type' })).toHaveValue('Text');
    setText(content, 'About [audience]');
    expect(screen.queryByRole('group', { name: 'Field topic' })).not.toBeInTheDocument();
  });

  it('refuses to save empty texts with the spec’s messages and alert', async () => {
    const { fetch } = renderForm();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please complete all the required fields to save.')).toBeInTheDocument();
    expect(screen.getAllByText("The input can't be empty")).toHaveLength(3);
    expect(fetch.callsTo('POST /api/templates')).toHaveLength(0);
    // Fixing a text removes its mark.
    setText('Name', 'Blog post');
    expect(screen.getAllByText("The input can't be empty")).toHaveLength(2);
  });

  it('checks each field card: label required and at most 254 characters, with a red border', async () => {
    const { fetch } = renderForm();
    const ui = userEvent.setup();
    setText(await screen.findByRole('textbox', { name: 'Name' }), 'Blog post');
    setText('Description', 'Writes a post');
    setText('Content', 'About [topic]');
    const label = within(fieldCard('topic')).getByRole('textbox', { name: 'Label' });
    setText(label, '   ');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(within(fieldCard('topic')).getByText("The input can't be empty")).toBeInTheDocument();
    expect(fieldCard('topic')).toHaveAttribute('data-invalid');
    expect(fieldCard('topic')).toHaveStyle({ borderColor: 'var(--mantine-color-red-6)' });
    setText(label, 'x'.repeat(255));
    expect(
      within(fieldCard('topic')).getByText('The input max length is 254 characters'),
    ).toBeInTheDocument();
    setText(label, 'x'.repeat(254));
    expect(fieldCard('topic')).not.toHaveAttribute('data-invalid');
    expect(fetch.callsTo('POST /api/templates')).toHaveLength(0);
  });

  it('needs at least one option for a select, none of them empty', async () => {
    renderForm();
    const ui = userEvent.setup();
    setText(await screen.findByRole('textbox', { name: 'Name' }), 'Blog post');
    setText('Description', 'Writes a post');
    setText('Content', 'About [tone]');
    const card = () => fieldCard('tone');
    await ui.click(within(card()).getByRole('textbox', { name: 'Type' }));
    await ui.click(await screen.findByRole('option', { name: 'Select' }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    // A new select starts with one empty option.
    expect(within(card()).getByText("The input can't be empty")).toBeInTheDocument();
    await ui.click(within(card()).getByRole('button', { name: 'Remove option 1' }));
    expect(within(card()).getByText('Select type must have at least one option')).toBeInTheDocument();
    expect(card()).toHaveAttribute('data-invalid');
    await ui.click(within(card()).getByRole('button', { name: 'Add option' }));
    setText(within(card()).getByRole('textbox', { name: 'Option 1' }), 'formal');
    expect(card()).not.toHaveAttribute('data-invalid');
  });

  it("refuses content that gives one field's settings twice", async () => {
    renderForm();
    const ui = userEvent.setup();
    setText(await screen.findByRole('textbox', { name: 'Name' }), 'Blog post');
    setText('Description', 'Writes a post');
    setText('Content', 'A [tone[formal/casual]] and a [tone[short/long]] text');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText("Content can't have repeated fields")).not.toHaveLength(0);
  });

  it('creates the template with its fields, comma-committed tags and toggles, then goes to the list', async () => {
    const { fetch } = renderForm('/templates/create-template', {
      'POST /api/templates': { status: 201, body: { template: template({ template_id: 30 }) } },
    });
    const ui = userEvent.setup();
    setText(await screen.findByRole('textbox', { name: 'Name' }), ' Blog post ');
    setText('Description', 'Writes a post');
    setText('Content', 'About [topic] in a [tone[formal/casual]] tone');
    setText(within(fieldCard('topic')).getByRole('textbox', { name: 'Label' }), 'Topic');
    await ui.type(screen.getByRole('textbox', { name: 'Tags' }), 'blog,seo,');
    await ui.click(screen.getByRole('switch', { name: /Editable/ }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/templates')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/templates')[0].body).toEqual({
      name: 'Blog post',
      description: 'Writes a post',
      content: 'About [topic] in a [tone[formal/casual]] tone',
      type: '',
      tags: 'blog,seo',
      language: 'en',
      public: false,
      editable: true,
      show_prompt: true,
      fields: [
        { name: 'topic', label: 'Topic', type: 'text', order: 1 },
        { name: 'tone', label: 'tone', type: 'select', order: 2, options: ['formal', 'casual'] },
      ],
    });
    expect(await screen.findByText('Template created.')).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/templates');
  });

  it("puts the server's field errors on the fields", async () => {
    renderForm('/templates/create-template', {
      'POST /api/templates': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Select type must have at least one option',
          code: 'validation_failed',
          errors: [
            { field: 'fields.0.options', message: 'Select type must have at least one option' },
            { field: 'name', message: 'The input max length is 200 characters' },
          ],
        },
      },
    });
    const ui = userEvent.setup();
    setText(await screen.findByRole('textbox', { name: 'Name' }), 'Blog post');
    setText('Description', 'Writes a post');
    setText('Content', 'About [topic]');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The input max length is 200 characters')).toBeInTheDocument();
    expect(
      within(fieldCard('topic')).getByText('Select type must have at least one option'),
    ).toBeInTheDocument();
    expect(fieldCard('topic')).toHaveAttribute('data-invalid');
  });
});

describe('Template form visibility', () => {
  it('shows Editable, Show Prompt and Content but not Public to a user creating a template', async () => {
    renderForm();
    expect(await screen.findByRole('textbox', { name: 'Content' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Editable/ })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Show Prompt/ })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Public' })).not.toBeInTheDocument();
  });

  it('shows Public to a staff admin only', async () => {
    renderForm('/templates/create-template', {}, staffAdmin);
    expect(await screen.findByRole('switch', { name: 'Public' })).toBeInTheDocument();
  });

  it('shows the owner everything but Public when editing', async () => {
    renderForm('/templates/edit-template/11', {
      'GET /api/templates/11': { body: { template: template() } },
    });
    expect(await screen.findByRole('textbox', { name: 'Content' })).toHaveValue(template().content);
    expect(screen.getByRole('switch', { name: /Editable/ })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Show Prompt/ })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Public' })).not.toBeInTheDocument();
  });

  it('hides Editable, Show Prompt and the hidden Content from another user editing an editable template', async () => {
    const shared = template({ user_id: 2, editable: true, show_prompt: false, content: null });
    const { fetch } = renderForm('/templates/edit-template/11', {
      'GET /api/templates/11': { body: { template: shared } },
      'PUT /api/templates': { body: { template: shared } },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('The prompt of this template is hidden.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Content' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: /Editable/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: /Show Prompt/ })).not.toBeInTheDocument();
    // The stored fields can still be set up; the hidden prompt is left out of the save.
    setText(within(fieldCard('topic')).getByRole('textbox', { name: 'Label' }), 'Subject');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PUT /api/templates')).toHaveLength(1));
    const body = fetch.callsTo('PUT /api/templates')[0].body as Record<string, unknown>;
    expect(body).not.toHaveProperty('content');
    expect(body).toMatchObject({ template_id: 11, editable: true, show_prompt: false });
    expect(await screen.findByText('Template saved.')).toBeInTheDocument();
  });

  it('shows another user’s prompt when Show Prompt is on, and everything to staff', async () => {
    renderForm(
      '/templates/edit-template/11',
      { 'GET /api/templates/11': { body: { template: template({ user_id: 2, editable: true }) } } },
      staffManager,
    );
    expect(await screen.findByRole('textbox', { name: 'Content' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /Editable/ })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Public' })).not.toBeInTheDocument();
  });

  it('refuses to edit another user’s template that is not editable', async () => {
    renderForm('/templates/edit-template/11', {
      'GET /api/templates/11': { body: { template: template({ user_id: 2 }) } },
    });
    expect(await screen.findByText("You can't edit this template.")).toBeInTheDocument();
  });

  it('deletes the template after confirmation and goes to the list', async () => {
    const { fetch } = renderForm('/templates/edit-template/11', {
      'GET /api/templates/11': { body: { template: template() } },
      'DELETE /api/templates/11': { status: 204 },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this template?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/templates/11')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent(/^\/templates$/));
  });
});
