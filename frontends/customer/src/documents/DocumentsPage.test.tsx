import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { DocumentsPage } from './DocumentsPage';
import { documentPage, textDocument } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const plan = textDocument();
const notes = textDocument({
  document_id: 8,
  name: 'Notes',
  tags: ['ideas', 'draft'],
  content: 'Plain notes',
});

function renderList(routes: MockRoutes = {}) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/documents" element={<DocumentsPage />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user: testUser(),
      route: '/documents',
      routes: {
        'GET /api/documents': documentPage([plan, notes]),
        'GET /api/documents/tags': { body: { tags: ['draft', 'ideas', 'work'] } },
        ...routes,
      },
    },
  );
}

const card = (name: string) => screen.getByRole('article', { name });

describe('Documents page', () => {
  it('shows a card per document with its name, text, tags and an open link', async () => {
    const { fetch } = renderList();
    expect(await screen.findByRole('article', { name: 'Launch plan' })).toBeInTheDocument();
    expect(within(card('Launch plan')).getByText('Launch plan Ship it on Monday.')).toBeInTheDocument();
    expect(within(card('Notes')).getByText('ideas')).toBeInTheDocument();
    expect(within(card('Launch plan')).getByRole('link', { name: 'Open' })).toHaveAttribute(
      'href',
      '/documents/7',
    );
    const query = fetch.callsTo('GET /api/documents')[0].query;
    expect(query.get('sort')).toBe('updatedAt_desc');
    expect(query.get('page')).toBe('1');
  });

  it('searches, filters by tags and sorts through the API', async () => {
    const { fetch } = renderList();
    await screen.findByRole('article', { name: 'Notes' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search documents' }), 'plan');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/documents').some((c) => c.query.get('query') === 'plan')).toBe(true),
    );
    await userEvent.click(screen.getByRole('textbox', { name: 'Tags' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ideas' }));
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/documents').some((c) => c.query.getAll('tags').includes('ideas'))).toBe(
        true,
      ),
    );
    await userEvent.click(screen.getByRole('textbox', { name: 'Sort by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Name (A-Z)' }));
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/documents').at(-1)!.query.get('sort')).toBe('name_asc'),
    );
  });

  it('says so when there are no documents', async () => {
    renderList({ 'GET /api/documents': documentPage([]) });
    expect(await screen.findByText('No documents yet. Create one to start writing.')).toBeInTheDocument();
  });

  it('creates a document with a required name and opens it', async () => {
    const { fetch } = renderList({
      'POST /api/documents': {
        status: 201,
        body: { document: textDocument({ document_id: 9, name: 'New' }) },
      },
    });
    await screen.findByRole('article', { name: 'Notes' });
    await userEvent.click(screen.getByRole('button', { name: 'New document' }));
    const dialog = await screen.findByRole('dialog', { name: 'New document' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText("The value can't be empty")).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/documents')).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Tags (optional)' }), 'blog{enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/documents/9'));
    expect(fetch.callsTo('POST /api/documents')[0].body).toEqual({ name: 'New', tags: ['blog'] });
  });

  it("deletes a document after confirmation and says 'Document deleted.'", async () => {
    const { fetch } = renderList({ 'DELETE /api/documents/8': { status: 204 } });
    await screen.findByRole('article', { name: 'Notes' });
    await userEvent.click(within(card('Notes')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this document?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Document deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/documents/8')).toHaveLength(1);
  });
});
