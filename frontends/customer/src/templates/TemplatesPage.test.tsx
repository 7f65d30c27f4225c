import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import {
  expectPageExists,
  renderWithProviders,
  testUser,
  type MockRoutes,
} from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { TemplatesPage } from './TemplatesPage';
import { template, templatePage } from './testkit';
import App from '../App';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const mine = template();
const othersPrivate = template({ template_id: 12, user_id: 2, name: 'Their template', tags: 'sales' });
const othersEditable = template({
  template_id: 13,
  user_id: 2,
  name: 'Shared template',
  editable: true,
  tags: '',
});

function renderBrowse(route = '/templates', routes: MockRoutes = {}, user = testUser()) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/templates" element={<TemplatesPage tab="all" />} />
        <Route path="/templates/types" element={<TemplatesPage tab="type" />} />
        <Route path="/templates/types/:type" element={<TemplatesPage tab="type" />} />
        <Route path="/templates/tags" element={<TemplatesPage tab="tags" />} />
        <Route path="/templates/tags/:tag" element={<TemplatesPage tab="tags" />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user,
      route,
      routes: {
        'GET /api/templates': templatePage([mine, othersPrivate, othersEditable]),
        'GET /api/templates/tags': { body: { tags: [{ tag: 'blog', templates: 3 }], total: 1 } },
        'GET /api/templates/types': { body: { types: [{ type: 'Writing', templates: 2 }], total: 1 } },
        ...routes,
      },
    },
  );
}

const card = (name: string) => screen.getByRole('article', { name });
const path = () => screen.getByTestId('path').textContent;

describe('Template page', () => {
  it('shows cards with name, description and one tag, asking for page 1 of the newest', async () => {
    const { fetch } = renderBrowse();
    expect(await screen.findByText('Blog post')).toBeInTheDocument();
    expect(within(card('Blog post')).getByText('Writes a blog post')).toBeInTheDocument();
    expect(within(card('Blog post')).getByText('blog')).toBeInTheDocument();
    expect(within(card('Blog post')).queryByText('seo')).not.toBeInTheDocument();
    const query = fetch.callsTo('GET /api/templates')[0].query;
    expect(query.get('page')).toBe('1');
    expect(query.get('sortBy')).toBe('createdAt_desc');
  });

  it('offers edit and delete to the owner and on editable templates, not on another user’s', async () => {
    renderBrowse();
    await screen.findByText('Blog post');
    expect(within(card('Blog post')).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/templates/edit-template/11',
    );
    await expectPageExists(App, '/templates/edit-template/11');
    expect(within(card('Blog post')).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(within(card('Shared template')).getByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(within(card('Their template')).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(card('Their template')).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('lets a staff admin edit any template', async () => {
    renderBrowse('/templates', {}, testUser({ staff: { staff_id: 1, role: 'admin' } }));
    await screen.findByText('Their template');
    expect(within(card('Their template')).getByRole('link', { name: 'Edit' })).toBeInTheDocument();
  });

  it('drills into a tag from the tags tab and Back returns to the tag list', async () => {
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates/tag/blog': templatePage([mine]),
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(screen.getByRole('tab', { name: 'Tags' }));
    expect(path()).toBe('/templates/tags');
    await ui.click(await screen.findByRole('link', { name: /blog/ }));
    expect(path()).toBe('/templates/tags/blog');
    expect(await screen.findByText('Tag: blog')).toBeInTheDocument();
    expect(await screen.findByText('Blog post')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/templates/tag/blog')).toHaveLength(1);
    await ui.click(screen.getByRole('link', { name: 'Back' }));
    expect(path()).toBe('/templates/tags');
    expect(await screen.findByText('3 templates')).toBeInTheDocument();
  });

  it('drills into a type from the type tab and Back returns to the type list', async () => {
    const { fetch } = renderBrowse('/templates/types', {
      'GET /api/templates/type/Writing': templatePage([]),
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('link', { name: /Writing/ }));
    expect(path()).toBe('/templates/types/Writing');
    // An empty drill-in list.
    expect(await screen.findByText('No templates available.')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/templates/type/Writing')).toHaveLength(1);
    await ui.click(screen.getByRole('link', { name: 'Back' }));
    expect(path()).toBe('/templates/types');
    expect(await screen.findByText('2 templates')).toBeInTheDocument();
  });

  it.each([
    ['/templates', "There aren't any templates"],
    ['/templates/tags', "There aren't any Tags"],
    ['/templates/types', "There aren't any Types"],
  ])('shows the empty text on %s', async (route, text) => {
    renderBrowse(route, {
      'GET /api/templates': templatePage([]),
      'GET /api/templates/tags': { body: { tags: [], total: 0 } },
      'GET /api/templates/types': { body: { types: [], total: 0 } },
    });
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('says no templates are available when a filter finds none', async () => {
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates': (call) => templatePage(call.query.get('favorites') === 'true' ? [] : [mine]),
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(screen.getByRole('switch', { name: 'Favorites' }));
    expect(await screen.findByText('No templates available.')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/templates').at(-1)!.query.get('favorites')).toBe('true');
  });

  it('toggles a favorite with POST /api/templates/favorite and fills the star', async () => {
    let favorite = false;
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates': () => templatePage([{ ...mine, favorite }]),
      'POST /api/templates/favorite': () => {
        favorite = !favorite;
        return { body: { favorite } };
      },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(within(card('Blog post')).getByRole('button', { name: 'Add to favorites' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/templates/favorite')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/templates/favorite')[0].body).toEqual({ template_id: 11 });
    expect(
      await within(card('Blog post')).findByRole('button', { name: 'Remove from favorites' }),
    ).toBeInTheDocument();
  });

  it('searches (debounced), sorts and filters by language through the query', async () => {
    const { fetch } = renderBrowse();
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.type(screen.getByLabelText('Search'), 'blog');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/templates').some((c) => c.query.get('query') === 'blog')).toBe(true),
    );
    expect(fetch.callsTo('GET /api/templates').some((c) => c.query.get('query') === 'bl')).toBe(false);
    await ui.click(screen.getByRole('textbox', { name: 'Sort' }));
    await ui.click(await screen.findByRole('option', { name: 'A-Z' }));
    await ui.click(screen.getByRole('textbox', { name: 'Language' }));
    await ui.click(await screen.findByRole('option', { name: 'Spanish' }));
    await waitFor(() => {
      const last = fetch.callsTo('GET /api/templates').at(-1)!.query;
      expect(last.get('sortBy')).toBe('name_asc');
      expect(last.get('language')).toBe('es');
      expect(last.get('query')).toBe('blog');
    });
  });

  it('starts again on page 1 after a tab change', async () => {
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates': (call) => templatePage([mine], 30, Number(call.query.get('page'))),
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(fetch.callsTo('GET /api/templates').at(-1)!.query.get('page')).toBe('2'));
    await waitFor(() => expect(screen.getByRole('button', { name: '2' })).toHaveAttribute('data-active'));
    await ui.click(screen.getByRole('tab', { name: 'Tags' }));
    await screen.findByText('3 templates');
    await ui.click(screen.getByRole('tab', { name: 'All' }));
    await screen.findByText('Blog post');
    expect(screen.getByRole('button', { name: '1' })).toHaveAttribute('data-active');
    expect(screen.getByRole('button', { name: '2' })).not.toHaveAttribute('data-active');
  });

  it('deletes a template after confirmation', async () => {
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates': templatePage([mine]),
      'DELETE /api/templates/11': { status: 204 },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(within(card('Blog post')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this template?' });
    expect(fetch.callsTo('DELETE /api/templates/11')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/templates/11')).toHaveLength(1));
    expect(await screen.findByText('Template deleted.')).toBeInTheDocument();
  });

  it('uses a template in a new conversation named after it', async () => {
    const { fetch } = renderBrowse('/templates', {
      'GET /api/templates': templatePage([mine]),
      'POST /api/conversations': { status: 201, body: { conversation: { conversation_id: 7 } } },
    });
    const ui = userEvent.setup();
    await screen.findByText('Blog post');
    await ui.click(within(card('Blog post')).getByRole('button', { name: 'Use' }));
    await waitFor(() => expect(path()).toBe('/templates/apply-template/11/7'));
    expect(fetch.callsTo('POST /api/conversations')[0].body).toEqual({ name: 'Blog post' });
  });
});
