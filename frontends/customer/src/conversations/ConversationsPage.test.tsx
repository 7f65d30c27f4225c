import { notifications } from '@mantine/notifications';
import { registerTranslations, useOrganization, type Membership } from '@avatar-studio/shared';
import { expectPageExists, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { useQueryClient } from '@tanstack/react-query';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { en, es } from '../i18n';
import { ConversationsPage } from './ConversationsPage';
import { CurrentPath, SignedIn, conversation } from './testkit';
import App from '../App';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const page = (conversations = [conversation()]) => ({
  body: { conversations, total: conversations.length, page: 1, limit: 20 },
});

function renderList(route = '/conversations', routes = {}) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/conversations" element={<ConversationsPage />} />
        <Route path="/conversation/tags/:tag" element={<ConversationsPage />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    { user: testUser(), route, routes: { 'GET /api/conversations': page(), ...routes } },
  );
}

describe('Chats list', () => {
  it('shows the cards with name, up to 3 tags and last used, newest created first and not archived', async () => {
    const { fetch } = renderList();
    expect(await screen.findByText('Blog ideas')).toBeInTheDocument();
    expect(screen.getByText('blog')).toBeInTheDocument();
    expect(screen.getByText('drafts')).toBeInTheDocument();
    expect(screen.queryByText('later')).not.toBeInTheDocument();
    expect(screen.getByText(/^Last used /)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Blog ideas/ })).toHaveAttribute('href', '/conversations/7');
    await expectPageExists(App, '/conversations/7');
    const query = fetch.callsTo('GET /api/conversations')[0].query;
    expect(query.get('sortBy')).toBe('createdAt_desc');
    expect(query.get('archived')).toBe('false');
    expect(query.get('query')).toBeNull();
  });

  it('searches (debounced) and sorts through the query', async () => {
    const { fetch } = renderList();
    const ui = userEvent.setup();
    await screen.findByText('Blog ideas');
    await ui.type(screen.getByLabelText('Search'), 'blog');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/conversations').some((c) => c.query.get('query') === 'blog')).toBe(true),
    );
    // Only the settled text is searched, not each keystroke.
    expect(fetch.callsTo('GET /api/conversations').some((c) => c.query.get('query') === 'bl')).toBe(false);

    await ui.click(screen.getByRole('textbox', { name: 'Sort' }));
    await ui.click(await screen.findByRole('option', { name: 'Z-A' }));
    await waitFor(() => {
      const last = fetch.callsTo('GET /api/conversations').at(-1)!.query;
      expect(last.get('sortBy')).toBe('name_desc');
      expect(last.get('query')).toBe('blog');
    });

    await ui.click(screen.getByRole('switch', { name: 'Archived' }));
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/conversations').at(-1)!.query.get('archived')).toBe('true'),
    );
  });

  it('shows tag cards with counts linking to the tag route', async () => {
    renderList('/conversations', {
      'GET /api/conversations/tags': { body: { tags: [{ tag: 'blog', conversations: 2 }], total: 1 } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog ideas');
    await ui.click(screen.getByText('Tags'));
    expect(await screen.findByText('2 conversations')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /blog/ })).toHaveAttribute('href', '/conversation/tags/blog');
    await expectPageExists(App, '/conversation/tags/blog');
  });

  it('lists the conversations of one tag at /conversation/tags/{tag}', async () => {
    const { fetch } = renderList('/conversation/tags/blog');
    expect(await screen.findByRole('heading', { name: 'Tag: blog' })).toBeInTheDocument();
    await screen.findByText('Blog ideas');
    expect(fetch.callsTo('GET /api/conversations')[0].query.get('tags')).toBe('blog');
  });

  it('creates a conversation with tags and model, then opens it', async () => {
    const { fetch } = renderList('/conversations', {
      'POST /api/conversations': {
        status: 201,
        body: { conversation: conversation({ conversation_id: 42 }) },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog ideas');
    await ui.click(screen.getByRole('button', { name: 'Add conversation' }));
    await ui.type(await screen.findByRole('textbox', { name: 'Name' }), 'Launch plan');
    await ui.type(screen.getByRole('textbox', { name: 'Tags' }), 'work,q3,');
    await ui.click(screen.getByRole('textbox', { name: 'Model' }));
    await ui.click(await screen.findByRole('option', { name: 'grok-2-latest' }));
    await ui.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/conversations/42'));
    expect(fetch.callsTo('POST /api/conversations')[0].body).toEqual({
      name: 'Launch plan',
      tags: ['work', 'q3'],
      model: 'grok-2-latest',
    });
  });

  it('goes to /sorry when starting a conversation answers 412 (no access)', async () => {
    const { fetch } = renderList('/conversations', {
      'POST /api/conversations': {
        status: 412,
        body: {
          statusCode: 412,
          message: 'Creating more content with the product requires an active subscription.',
          code: 'no_access',
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog ideas');
    await ui.click(screen.getByRole('button', { name: 'Add conversation' }));
    await ui.type(await screen.findByRole('textbox', { name: 'Name' }), 'Launch plan');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
    expect(fetch.callsTo('POST /api/conversations')).toHaveLength(1);
  });

  it("shows the server's message when the name is missing", async () => {
    renderList('/conversations', {
      'POST /api/conversations': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Conversation name is required.',
          code: 'validation',
          errors: [{ field: 'name', message: 'Conversation name is required.' }],
        },
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog ideas');
    await ui.click(screen.getByRole('button', { name: 'Add conversation' }));
    await ui.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Conversation name is required.')).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/conversations');
  });
});

describe('Chats list: organization scope', () => {
  const acme: Membership = {
    organization_id: 2,
    name: 'Acme',
    slug: 'acme',
    tagline: null,
    thumbnail: null,
    domain: null,
    user_type: { user_type_id: 3, name: 'Member' },
  };
  let choose: (id: number | null) => void = () => {};
  let cachedKeys: () => unknown[][] = () => [];
  function Switcher() {
    choose = useOrganization().choose;
    const queryClient = useQueryClient();
    cachedKeys = () =>
      queryClient
        .getQueryCache()
        .findAll({ queryKey: ['conversations'] })
        .map((q) => [...q.queryKey]);
    return null;
  }

  it('never shows the conversations of the previous scope after switching organization', async () => {
    let answerAcme: (reply: { body: unknown }) => void = () => {};
    const { fetch } = renderWithProviders(
      <SignedIn>
        <Switcher />
        <Routes>
          <Route path="/conversations" element={<ConversationsPage />} />
        </Routes>
      </SignedIn>,
      {
        user: testUser(),
        route: '/conversations',
        memberships: [acme],
        routes: {
          'GET /api/conversations': (call) =>
            call.query.get('organization_id') === '2'
              ? new Promise((resolve) => {
                  answerAcme = resolve;
                })
              : page([conversation({ name: 'Personal notes' })]),
        },
      },
    );
    expect(await screen.findByText('Personal notes')).toBeInTheDocument();
    act(() => choose(2));
    await waitFor(() =>
      expect(
        fetch.callsTo('GET /api/conversations').some((c) => c.query.get('organization_id') === '2'),
      ).toBe(true),
    );
    // While the organization's list loads, the personal one is gone.
    expect(screen.queryByText('Personal notes')).not.toBeInTheDocument();
    act(() => answerAcme(page([conversation({ conversation_id: 8, name: 'Acme launch' })])));
    expect(await screen.findByText('Acme launch')).toBeInTheDocument();
    expect(screen.queryByText('Personal notes')).not.toBeInTheDocument();
    // Each scope's data lives under its own key, so no response of one scope can land in the other's.
    expect(cachedKeys().map((key) => key[1])).toEqual(expect.arrayContaining(['personal', 2]));
  });
});
