import { notifications } from '@mantine/notifications';
import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import { AvatarsPage } from './AvatarsPage';
import { avatar, page } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

function renderList(route = '/avatars', routes: MockRoutes = {}, user = testUser()) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars" element={<AvatarsPage />} />
        <Route path="/avatars/community" element={<AvatarsPage />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user,
      route,
      routes: {
        'GET /api/avatars': page([avatar()]),
        'GET /api/avatars/public/all': page([
          avatar({ avatar_id: 6, name: 'Community poet', can_manage: false }),
        ]),
        ...routes,
      },
    },
  );
}

describe('Avatars list', () => {
  it('shows my avatars as cards linking to their page, with no delete for a customer', async () => {
    renderList();
    expect(await screen.findByRole('heading', { name: 'My Avatars' })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Copywriter' });
    expect(link).toHaveAttribute('href', '/avatars/5');
    expect(screen.getByText('Writes ads')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('searches after typing settles (debounced), not on each keystroke', async () => {
    const { fetch } = renderList();
    const ui = userEvent.setup();
    await screen.findByRole('link', { name: 'Copywriter' });
    await ui.type(screen.getByRole('textbox', { name: 'Search' }), 'copy');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/avatars').some((c) => c.query.get('query') === 'copy')).toBe(true),
    );
    expect(fetch.callsTo('GET /api/avatars').some((c) => c.query.get('query') === 'co')).toBe(false);
  });

  it('shows the community view when the path contains community', async () => {
    const { fetch } = renderList('/avatars/community');
    expect(await screen.findByRole('heading', { name: 'Community avatars' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Community poet' })).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/avatars/public/all')).toHaveLength(1);
  });

  it('adds an avatar: the name is required, then it opens the new avatar', async () => {
    const { fetch } = renderList('/avatars', {
      'POST /api/avatars': { status: 201, body: { avatar: avatar({ avatar_id: 42, name: 'Poet' }) } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Add avatar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add avatar' });
    await ui.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('You must add a name to your avatar.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/avatars')).toHaveLength(0);
    await ui.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Poet');
    await ui.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/avatars/42'));
    expect(fetch.callsTo('POST /api/avatars')[0].body).toEqual({ name: 'Poet', description: '' });
  });

  it('shows the server’s premium sentence when creating is refused with 412', async () => {
    renderList('/avatars', {
      'POST /api/avatars': {
        status: 412,
        body: { message: 'This is a premium feature. Please, upgrade your account.', code: 'no_access' },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Add avatar' }));
    await ui.type(await screen.findByRole('textbox', { name: 'Name' }), 'Poet');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('This is a premium feature. Please, upgrade your account.'),
    ).toBeInTheDocument();
  });

  it('lets a staff admin delete an avatar after confirming', async () => {
    const { fetch } = renderList(
      '/avatars',
      { 'DELETE /api/avatars/5': { status: 204 } },
      testUser({ staff: { staff_id: 1, role: 'admin' } as never }),
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete Copywriter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this avatar?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/avatars/5')).toHaveLength(1);
  });

  it('shows the out-of-credits notice to a user without access', async () => {
    const { fetch } = renderList('/avatars', {}, testUser({ has_access: false }));
    expect(await screen.findByRole('heading', { name: /credits|words|subscription/i })).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/avatars')).toHaveLength(0);
  });
});
