import { expectPageExists } from '@avatar-studio/shared/testing';
import App from '../../App';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@avatar-studio/shared';
import { membership, renderOrg, resetNotifications, staff, userIn } from './render';

afterEach(resetNotifications);

const acme = membership(10, 'Acme', 'Manager');
const globex = membership(20, 'Globex', 'Member');
const initech = membership(30, 'Initech', 'Admin', { thumbnail: '/api/files/content/initech.png' });

describe('My organizations (/organizations)', () => {
  it('shows the admin-panel and settings buttons to a Manager and not to a Member', async () => {
    renderOrg('/organizations', { user: userIn(null), memberships: [acme, globex] });

    const acmeCard = await screen.findByTestId('organization-10');
    expect(within(acmeCard).getByText('Acme')).toBeInTheDocument();
    expect(within(acmeCard).getByText('Acme tagline')).toBeInTheDocument();
    expect(within(acmeCard).getByRole('button', { name: 'Admin panel' })).toBeInTheDocument();
    expect(within(acmeCard).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/organizations/organization-settings/10',
    );
    await expectPageExists(App, '/organizations/organization-settings/10', { mount: '/organizations' });

    const globexCard = screen.getByTestId('organization-20');
    expect(within(globexCard).getByText('Globex')).toBeInTheDocument();
    expect(within(globexCard).queryByRole('button', { name: 'Admin panel' })).not.toBeInTheDocument();
    expect(within(globexCard).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('shows the thumbnail, or a placeholder when there is none', async () => {
    renderOrg('/organizations', { user: userIn(null), memberships: [acme, initech] });
    expect(await screen.findByRole('img', { name: 'Initech thumbnail' })).toHaveAttribute(
      'src',
      '/api/files/content/initech.png',
    );
    expect(screen.queryByRole('img', { name: 'Acme thumbnail' })).not.toBeInTheDocument();
  });

  it('makes a clicked card the current organization', async () => {
    const user = userEvent.setup();
    renderOrg('/organizations', { user: userIn(10), memberships: [acme, globex] });

    const acmeCard = await screen.findByTestId('organization-10');
    expect(within(acmeCard).getByText('Current')).toBeInTheDocument();
    await user.click(within(screen.getByTestId('organization-20')).getByText('Globex tagline'));

    expect(await within(screen.getByTestId('organization-20')).findByText('Current')).toBeInTheDocument();
    expect(within(acmeCard).queryByText('Current')).not.toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.organizationId)).toBe('20');
    expect(screen.getByRole('button', { name: 'Work in Globex' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('opens the admin panel of the chosen organization', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations', {
      user: userIn(null),
      memberships: [acme, initech],
      routes: {
        'GET /api/organizations/30/users': { body: { users: [], total: 0, page: 1, limit: 25 } },
      },
    });
    await user.click(
      within(await screen.findByTestId('organization-30')).getByRole('button', { name: 'Admin panel' }),
    );
    expect(await screen.findByRole('heading', { name: 'User administration' })).toBeInTheDocument();
    expect(screen.getByText('Initech')).toBeInTheDocument();
    await waitFor(() => expect(fetch.callsTo('GET /api/organizations/30/users')).toHaveLength(1));
    expect(fetch.callsTo('GET /api/organizations/30/users')[0].query.get('organization_id')).toBe('30');
  });

  it('offers Create organization to staff only', async () => {
    renderOrg('/organizations', { user: userIn(null, staff('manager')), memberships: [acme] });
    expect(await screen.findByRole('link', { name: 'Create organization' })).toHaveAttribute(
      'href',
      '/organizations/organization-settings',
    );
    await expectPageExists(App, '/organizations/organization-settings', { mount: '/organizations' });
  });

  it('does not offer Create organization to a customer', async () => {
    renderOrg('/organizations', { user: userIn(null), memberships: [initech] });
    expect(await screen.findByTestId('organization-30')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create organization' })).not.toBeInTheDocument();
  });

  it('searches by name after the user stops typing', async () => {
    const user = userEvent.setup();
    const { fetch } = renderOrg('/organizations', {
      user: userIn(null),
      memberships: [acme, globex],
      routes: {
        'GET /api/organizations': ({ query }) => ({
          body: { organizations: query.get('query') === 'glo' ? [globex] : [acme, globex] },
        }),
      },
    });
    await screen.findByTestId('organization-10');
    await user.type(screen.getByRole('searchbox', { name: 'Search organizations' }), 'glo');
    await waitFor(() => expect(screen.queryByTestId('organization-10')).not.toBeInTheDocument(), {
      timeout: 2000,
    });
    expect(screen.getByTestId('organization-20')).toBeInTheDocument();
    const searches = fetch.callsTo('GET /api/organizations').filter((c) => c.query.get('query'));
    expect(searches.map((c) => c.query.get('query'))).toEqual(['glo']);
  });
});
