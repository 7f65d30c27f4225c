import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { fakeIo, renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { forwardRef, useImperativeHandle, useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { field, template, templatePage } from '../templates/testkit';
import type { BlockEditorHandle, EditorChange } from './BlockEditor';
import { avatar, page as avatarPage } from '../avatars/testkit';
import { AUTOSAVE_MS, CampaignDocumentPage, DocumentEditorPage } from './DocumentEditorPage';
import { textDocument } from './testkit';

/*
 * BlockNote's CommonJS build does not load under Jest's jsdom (its tiptap imports resolve to ES modules), so the
 * page is tested around a stand-in with the same contract: a text area whose text is the Markdown, and the
 * handle's selection and streamed insertion. The real editor runs in the browser test (e2e/tests/documents).
 */
jest.mock('./BlockEditor', () => ({
  BlockEditor: forwardRef<
    BlockEditorHandle,
    { markdown: string; editable: boolean; label: string; onChange: (change: EditorChange) => void }
  >(function StandIn({ markdown, editable, label, onChange }, ref) {
    const [text, setText] = useState(markdown);
    useImperativeHandle(ref, () => ({
      selectedText: () => '',
      beginInsert: () => {
        const before = text;
        return {
          update: (inserted: string) => {
            const next = `${before}\n\n${inserted}`;
            setText(next);
            onChange({ blocks: [{ type: 'paragraph', text: next }], markdown: next });
          },
        };
      },
    }));
    return (
      <textarea
        aria-label={label}
        readOnly={!editable}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          onChange({
            blocks: [{ type: 'paragraph', text: e.currentTarget.value }],
            markdown: e.currentTarget.value,
          });
        }}
      />
    );
  }),
}));

registerTranslations('customer', { en, es });
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

const doc = textDocument();
const GENERATION = '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60';

function renderEditor(routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/documents/:document_id" element={<DocumentEditorPage />} />
      </Routes>
    </SignedIn>,
    {
      user: testUser(),
      route: '/documents/7',
      routes: {
        'GET /api/documents/7': { body: { document: doc } },
        'PUT /api/documents': (call) => ({
          body: {
            document: {
              ...doc,
              ...(call.body as object),
              version: (call.body as { version: number }).version + 1,
            },
          },
        }),
        'GET /api/templates': templatePage([
          template({ fields: [], content: 'Summarize it.', name: 'Summary' }),
        ]),
        'GET /api/avatars': avatarPage([
          avatar({ avatar_id: 5, name: 'Copywriter' }),
          avatar({ avatar_id: 6, name: 'Fetcher', super_fetch_assistant: true }),
        ]),
        ...routes,
      },
    },
  );
}

const body = () => screen.getByRole('textbox', { name: 'Document text' });

describe('Document editor', () => {
  it('shows the title, tags and content, saved', async () => {
    renderEditor();
    expect(await screen.findByRole('textbox', { name: 'Document name' })).toHaveValue('Launch plan');
    expect(body()).toHaveValue('# Launch plan\n\nShip it on Monday.');
    expect(screen.getByText('work')).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
  });

  it('autosaves an edit with the version it started from, then saves from the next version', async () => {
    const { fetch } = renderEditor();
    await screen.findByRole('textbox', { name: 'Document name' });
    fireEvent.change(body(), { target: { value: 'New text' } });
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await waitFor(() => expect(fetch.callsTo('PUT /api/documents')).toHaveLength(1), {
      timeout: AUTOSAVE_MS + 3000,
    });
    expect(fetch.callsTo('PUT /api/documents')[0].body).toEqual({
      document_id: 7,
      name: 'Launch plan',
      tags: ['work'],
      version: 1,
      content: 'New text',
      blocks: [{ type: 'paragraph', text: 'New text' }],
    });
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();
    fireEvent.change(body(), { target: { value: 'Newer text' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Document saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/documents')[1].body).toMatchObject({ version: 2, content: 'Newer text' });
  });

  it("refuses to save without a name ('The value can't be empty') or with 65000 characters", async () => {
    const { fetch } = renderEditor();
    const title = await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The value can't be empty")).toBeInTheDocument();
    await userEvent.type(title, 'Plan');
    fireEvent.change(body(), { target: { value: 'a'.repeat(65_000) } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The file length is too large, please remove text to save'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/documents')).toHaveLength(0);
  });

  it('shows the 409 of a save refused after another tab saved, and reloads the latest version', async () => {
    const message = 'This document was changed in another tab or window since you opened it.';
    const { fetch } = renderEditor({
      'PUT /api/documents': { status: 409, body: { statusCode: 409, message, code: 'document_changed' } },
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    fireEvent.change(body(), { target: { value: 'Mine' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    fetch.route({
      'GET /api/documents/7': { body: { document: { ...doc, content: 'Theirs', version: 2 } } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Reload the latest version' }));
    await waitFor(() => expect(body()).toHaveValue('Theirs'));
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it('applies a template from the tools panel and streams the text into the document', async () => {
    const { fetch } = renderEditor({
      'POST /api/documents/7/generate': { status: 202, body: { generation_id: GENERATION } },
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.click(screen.getByRole('button', { name: 'Tools' }));
    const tools = screen.getByRole('complementary', { name: 'Tools' });
    await userEvent.click(await within(tools).findByRole('button', { name: /Summary/ }));
    await userEvent.click(within(tools).getByRole('button', { name: /Generate/ }));
    await waitFor(() => expect(fetch.callsTo('POST /api/documents/7/generate')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/documents/7/generate')[0].body).toEqual({ template_id: 11, values: {} });
    const event = (content: string, offset: number, done = false) =>
      act(() =>
        socket.deliver('document_output', {
          document_id: 7,
          generation_id: GENERATION,
          content,
          offset,
          done,
        }),
      );
    event('## Summary', 0);
    await waitFor(() => expect(body()).toHaveValue('# Launch plan\n\nShip it on Monday.\n\n## Summary'));
    expect(within(tools).getByText('Writing into the document…')).toBeInTheDocument();
    event('\n\nShort.', 10);
    event('## Summary\n\nShort.', 0, true);
    await waitFor(() =>
      expect(body()).toHaveValue('# Launch plan\n\nShip it on Monday.\n\n## Summary\n\nShort.'),
    );
    expect(within(tools).queryByText('Writing into the document…')).not.toBeInTheDocument();
    await waitFor(() => expect(fetch.callsTo('PUT /api/documents')).toHaveLength(1), {
      timeout: AUTOSAVE_MS + 3000,
    });
  });

  it('runs a free prompt and can stop it', async () => {
    const { fetch } = renderEditor({
      'POST /api/documents/7/generate': { status: 202, body: { generation_id: GENERATION } },
      [`DELETE /api/documents/generations/${GENERATION}`]: { status: 204 },
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.click(screen.getByRole('button', { name: 'Tools' }));
    const tools = screen.getByRole('complementary', { name: 'Tools' });
    await userEvent.click(within(tools).getByRole('tab', { name: 'Prompt' }));
    await userEvent.click(within(tools).getByRole('button', { name: 'Generate' }));
    expect(await within(tools).findByText("The value can't be empty")).toBeInTheDocument();
    await userEvent.type(within(tools).getByRole('textbox', { name: /What should the AI write/ }), 'A title');
    await userEvent.click(within(tools).getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/documents/7/generate')[0]?.body).toEqual({ prompt: 'A title' }),
    );
    await userEvent.click(await within(tools).findByRole('button', { name: 'Stop' }));
    await waitFor(() =>
      expect(fetch.callsTo(`DELETE /api/documents/generations/${GENERATION}`)).toHaveLength(1),
    );
  });

  it('downloads the document as Word from the tools panel', async () => {
    const createObjectURL = jest.fn(() => 'blob:doc');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const { fetch } = renderEditor({
      'GET /api/documents/doc-converted/7': new Response(new Blob(['docx']), {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        },
      }),
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.click(screen.getByRole('button', { name: 'Tools' }));
    const tools = screen.getByRole('complementary', { name: 'Tools' });
    await userEvent.click(within(tools).getByRole('tab', { name: 'Download' }));
    await userEvent.click(within(tools).getByRole('button', { name: 'Download as Word' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(fetch.callsTo('GET /api/documents/doc-converted/7')).toHaveLength(1);
  });

  it('says so for a missing document', async () => {
    renderEditor({ 'GET /api/documents/7': { status: 404, body: { message: 'Document not found.' } } });
    expect(await screen.findByText('This document does not exist or is not yours.')).toBeInTheDocument();
  });

  it('asks an avatar from the Avatars tab (no Super Fetch assistants) and inserts its answer', async () => {
    const { fetch } = renderEditor({
      'POST /api/documents/avatar-output': { status: 202, body: { generation_id: GENERATION } },
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.click(screen.getByRole('button', { name: 'Tools' }));
    const tools = screen.getByRole('complementary', { name: 'Tools' });
    await userEvent.click(within(tools).getByRole('tab', { name: 'Avatars' }));
    await userEvent.click(within(tools).getByRole('button', { name: 'Ask the avatar' }));
    expect(await within(tools).findByText('Choose an avatar.')).toBeInTheDocument();
    expect(within(tools).getByText("The value can't be empty")).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/documents/avatar-output')).toHaveLength(0);

    await userEvent.click(within(tools).getByRole('textbox', { name: 'Avatar' }));
    expect(await screen.findByRole('option', { name: 'Copywriter' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Fetcher' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'Copywriter' }));
    await userEvent.type(
      within(tools).getByRole('textbox', { name: /What should the avatar write/ }),
      'A slogan',
    );
    await userEvent.click(within(tools).getByRole('button', { name: 'Ask the avatar' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/documents/avatar-output')[0]?.body).toEqual({
        document_id: 7,
        avatar_id: 5,
        prompt: 'A slogan',
      }),
    );
    act(() =>
      socket.deliver('document_avatar', {
        document_id: 7,
        avatar_id: 5,
        generation_id: GENERATION,
        content: 'Ship happy.',
        offset: 0,
        done: true,
      }),
    );
    await waitFor(() => expect(body()).toHaveValue('# Launch plan\n\nShip it on Monday.\n\nShip happy.'));
    await waitFor(() => expect(fetch.callsTo('PUT /api/documents')).toHaveLength(1), {
      timeout: AUTOSAVE_MS + 3000,
    });
  });

  it('generates in two steps, a template then an avatar, and enters edit view', async () => {
    const { fetch } = renderEditor({
      'GET /api/templates': templatePage([
        template({
          template_id: 12,
          name: 'Slogan',
          content: 'A slogan for [Audience].',
          fields: [field({ name: 'Audience', label: 'Audience' })],
        }),
      ]),
      'POST /api/documents/avatar-output': { status: 202, body: { generation_id: GENERATION } },
    });
    await screen.findByRole('textbox', { name: 'Document name' });
    await userEvent.click(screen.getByRole('radio', { name: 'View' }));
    expect(body()).toHaveAttribute('readonly');
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const modal = await screen.findByRole('dialog', { name: 'Generate with a template and an avatar' });
    await userEvent.click(await within(modal).findByRole('button', { name: /Slogan/ }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Next' }));
    expect(within(modal).getByText("The input can't be empty")).toBeInTheDocument();
    await userEvent.type(within(modal).getByRole('textbox', { name: /Audience/ }), 'kids');
    await userEvent.click(within(modal).getByRole('button', { name: 'Next' }));
    expect(await within(modal).findByText(/Which avatar should write it/)).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Generate' }));
    expect(await within(modal).findByText('Choose an avatar.')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('textbox', { name: 'Avatar' }));
    expect(screen.queryByRole('option', { name: 'Fetcher' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('option', { name: 'Copywriter' }));
    await userEvent.click(within(modal).getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/documents/avatar-output')[0]?.body).toEqual({
        document_id: 7,
        template_id: 12,
        values: { Audience: 'kids' },
        avatar_id: 5,
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(body()).not.toHaveAttribute('readonly');
    expect(screen.getByRole('radio', { name: 'Edit' })).toBeChecked();
  });
});

describe('Campaign document', () => {
  function renderCampaignDocument(editable: boolean, routes: MockRoutes = {}) {
    return renderWithProviders(
      <SignedIn>
        <Routes>
          <Route path="/campaign/:campaign_id/documents/:document_id" element={<CampaignDocumentPage />} />
        </Routes>
      </SignedIn>,
      {
        user: testUser(),
        route: '/campaign/4/documents/7',
        routes: {
          'GET /api/documents/7/campaigns/4': {
            body: {
              document: doc,
              campaign: { campaign_id: 4, name: 'Launch', organization_id: 3 },
              editable,
            },
          },
          'PUT /api/documents': (call) => ({
            body: { document: { ...doc, ...(call.body as object), version: 2 } },
          }),
          ...routes,
        },
      },
    );
  }

  it('shows a document the caller did not make read only, with a way back to the campaign', async () => {
    const { fetch } = renderCampaignDocument(false);
    expect(await screen.findByRole('heading', { name: 'Launch plan' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Campaign: Launch' })).toHaveAttribute(
      'href',
      '/organization/campaigns/4',
    );
    expect(body()).toHaveAttribute('readonly');
    expect(body()).toHaveValue(doc.content);
    expect(
      screen.getByText('You can read this campaign document; only the person who made it can change it.'),
    ).toBeInTheDocument();
    for (const name of ['Save', 'Tools', 'Generate'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Document name' })).not.toBeInTheDocument();
    expect(fetch.callsTo('GET /api/documents/7/campaigns/4')).toHaveLength(1);
  });

  it('lets its maker edit it there, saved with the usual call', async () => {
    const { fetch } = renderCampaignDocument(true);
    await screen.findByRole('textbox', { name: 'Document name' });
    fireEvent.change(body(), { target: { value: 'New text' } });
    await waitFor(() => expect(fetch.callsTo('PUT /api/documents')).toHaveLength(1), {
      timeout: AUTOSAVE_MS + 3000,
    });
    expect(fetch.callsTo('PUT /api/documents')[0].body).toMatchObject({
      document_id: 7,
      content: 'New text',
    });
  });

  it('says so when the campaign or the document is not visible', async () => {
    renderCampaignDocument(false, {
      'GET /api/documents/7/campaigns/4': { status: 404, body: { message: 'Campaign not found.' } },
    });
    expect(await screen.findByText('This document is not in a campaign you can see.')).toBeInTheDocument();
  });
});
