import {
  assertSameKeys,
  type PublishedNavigationEntry,
  type RemoteModule,
  type RemoteName,
  type RemotesManifest,
} from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { buildBreadcrumb, titleCase } from '../layout/breadcrumb';
import { en, es } from '../i18n';
import type { RemoteSource } from '../remotes/RemotesProvider';
import { ShellRoutes } from '../routes';

// The signed-in and signed-out halves load lazily; a busy machine needs more than the default second.
configure({ asyncUtilTimeout: 5000 });

describe('shell translations', () => {
  it('has the same keys in en and es', () => {
    assertSameKeys(en, es, 'shell');
  });
});

describe('breadcrumb rule (001 §2)', () => {
  it('drops numeric segments and title-cases the rest', () => {
    expect(buildBreadcrumb('/organization/admin-panel/users/12')).toEqual({
      kind: 'trail',
      items: [
        { label: 'Organization', to: '/organization' },
        { label: 'Admin Panel', to: '/organization/admin-panel' },
        { label: 'Users', to: null },
      ],
    });
    expect(titleCase('user_workflows')).toBe('User Workflows');
  });

  it('shows only a Back link when two or fewer segments remain', () => {
    expect(buildBreadcrumb('/avatars/12')).toEqual({ kind: 'back', parent: '/avatars' });
    expect(buildBreadcrumb('/templates/apply-template/3/4')).toEqual({
      kind: 'back',
      parent: '/templates/apply-template/3',
    });
  });

  it('is hidden at home and on the listed routes', () => {
    expect(buildBreadcrumb('/')).toEqual({ kind: 'hidden' });
    expect(buildBreadcrumb('/avatars', ['/avatars'])).toEqual({ kind: 'hidden' });
  });
});

const label = (text: string) => ({ en: text, es: text });
const navigation: PublishedNavigationEntry[] = [
  { labelKey: 'test:avatars', label: label('Avatars'), path: '/avatars', flag: 'avatars_enabled' },
  { labelKey: 'test:topics', label: label('Topics'), path: '/topics', flag: 'topics_enabled' },
  {
    labelKey: 'test:staff',
    label: label('Staff'),
    path: '/admin/staff',
    menu: 'admin',
    permission: 'staff.manage',
  },
];

const manifest: RemotesManifest = {
  remotes: {
    customer: { entry: '/remotes/customer/remoteEntry.js', mounts: ['/'], navigation },
    admin: { entry: '/remotes/admin/remoteEntry.js', mounts: ['/admin'], navigation: [], audience: 'staff' },
    org: {
      entry: '/remotes/org/remoteEntry.js',
      mounts: ['/organization', '/organizations'],
      navigation: [],
    },
  },
};

/** Remotes from the manifest above; `loaded` records which remotes' code was asked for. */
function loaderWith(
  overrides: Partial<Record<string, () => Promise<RemoteModule>>> = {},
): RemoteSource & { loaded: RemoteName[] } {
  const loaded: RemoteName[] = [];
  return {
    loaded,
    manifest: async () => manifest,
    load: (name) => {
      loaded.push(name);
      return overrides[name]?.() ?? Promise.resolve({ default: () => <p>{name} remote</p> });
    },
  };
}

describe('signed-in layout', () => {
  it('mounts the remote that owns the path, under the breadcrumb', async () => {
    renderWithProviders(<ShellRoutes remotes={loaderWith()} />, {
      user: testUser(),
      route: '/organization/admin-panel/users/7',
    });
    expect(await screen.findByText('org remote')).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Admin Panel' })).toHaveAttribute(
      'href',
      '/organization/admin-panel',
    );
    expect(within(crumbs).getByText('Users')).toHaveAttribute('aria-current', 'page');
  });

  it('builds the sidebar from the remotes, keeping entries whose flag is on', async () => {
    const remotes = loaderWith();
    renderWithProviders(<ShellRoutes remotes={remotes} />, {
      user: testUser(),
      route: '/avatars/3',
      config: { topics_enabled: 'false' },
    });
    expect(await screen.findByText('customer remote')).toBeInTheDocument();
    // Only the remote that owns the page downloads its code; the menus come from the manifest.
    expect(remotes.loaded).toEqual(['customer']);
    expect(await screen.findByRole('link', { name: 'Avatars' })).toHaveAttribute('href', '/avatars');
    expect(screen.queryByRole('link', { name: 'Topics' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    // Admin menu entries need the staff role.
    expect(screen.queryByRole('button', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('shows the Admin menu to a staff admin', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShellRoutes remotes={loaderWith()} />, {
      user: testUser({ staff: { staff_id: 1, role: 'admin' } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Admin' }));
    expect(await screen.findByRole('menuitem', { name: 'Staff' })).toHaveAttribute('href', '/admin/staff');
  });

  it("mounts the staff-only admin remote for staff; a customer at /admin gets the customer remote's page and never the admin code", async () => {
    const forCustomer = loaderWith();
    const first = renderWithProviders(<ShellRoutes remotes={forCustomer} />, {
      user: testUser(),
      route: '/admin/users',
    });
    expect(await screen.findByText('customer remote')).toBeInTheDocument();
    expect(forCustomer.loaded).toEqual(['customer']);
    first.unmount();

    const forStaff = loaderWith();
    renderWithProviders(<ShellRoutes remotes={forStaff} />, {
      user: testUser({ staff: { staff_id: 1, role: 'manager' } }),
      route: '/admin/users',
    });
    expect(await screen.findByText('admin remote')).toBeInTheDocument();
    expect(forStaff.loaded).toEqual(['admin']);
  });

  it('shows an error panel with Retry when the remotes manifest cannot be read', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const remotes: RemoteSource = {
      manifest: async () => {
        if (++attempts === 1) throw new Error('The remotes manifest answered 503');
        return manifest;
      },
      load: async (name) => ({ default: () => <p>{name} remote</p> }),
    };
    renderWithProviders(<ShellRoutes remotes={remotes} />, { user: testUser(), route: '/conversations' });
    expect(await screen.findByText('The remotes manifest answered 503')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('customer remote')).toBeInTheDocument();
  });

  it('shows an error panel with Retry for a remote that fails, and loads it on retry', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const loader = loaderWith({
      admin: () =>
        ++attempts === 1
          ? Promise.reject(new Error('remoteEntry.js failed to load'))
          : Promise.resolve({ default: () => <p>admin remote</p> }),
    });
    renderWithProviders(<ShellRoutes remotes={loader} />, {
      user: testUser({ staff: { staff_id: 1, role: 'admin' } }),
      route: '/admin/staff',
    });
    expect(await screen.findByText('This section could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('remoteEntry.js failed to load')).toBeInTheDocument();
    // The rest of the shell stays usable.
    expect(screen.getByRole('button', { name: 'User menu' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('admin remote')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('catches a remote that throws while rendering and offers Retry', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    let broken = true;
    function Flaky() {
      if (broken) throw new Error('render failed');
      return <p>customer ok</p>;
    }
    const user = userEvent.setup();
    renderWithProviders(
      <ShellRoutes remotes={loaderWith({ customer: async () => ({ default: Flaky }) })} />,
      {
        user: testUser(),
      },
    );
    expect(await screen.findByText('render failed')).toBeInTheDocument();
    broken = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('customer ok')).toBeInTheDocument();
  });

  it('switches between Personal and an organization from the header', async () => {
    const user = userEvent.setup();
    const { fetch } = renderWithProviders(<ShellRoutes remotes={loaderWith()} />, {
      user: testUser(),
      memberships: [
        {
          organization_id: 4,
          name: 'Acme',
          slug: 'acme',
          tagline: null,
          thumbnail: null,
          domain: null,
          user_type: { user_type_id: 2, name: 'Manager' },
        },
      ],
    });
    const switcher = await screen.findByRole('textbox', { name: 'Workspace' });
    expect(switcher).toHaveValue('Personal');
    await user.click(switcher);
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    await waitFor(() => expect(switcher).toHaveValue('Acme'));
    expect(localStorage.getItem('organization_id')).toBe('4');
    fetch.calls.length = 0;
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  });

  it('offers the language chooser from the user menu and stores the choice', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShellRoutes remotes={loaderWith()} />, { user: testUser() });
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    expect(screen.getByRole('menuitem', { name: 'Billing' })).toHaveAttribute('href', '/billing');
    await user.click(screen.getByRole('menuitem', { name: 'Language' }));
    await user.click(await screen.findByRole('button', { name: 'Español' }));
    expect(localStorage.getItem('lang')).toBe('es');
    expect(await screen.findByRole('button', { name: 'Menú de usuario' })).toBeInTheDocument();
    const { setLanguage } = await import('@avatar-studio/shared');
    await setLanguage('en');
  });

  it('signs out from the user menu: ends the server session, clears storage, goes to /', async () => {
    const user = userEvent.setup();
    const navigate = jest.fn();
    (await import('@avatar-studio/shared')).setNavigator(navigate);
    const { fetch } = renderWithProviders(<ShellRoutes remotes={loaderWith()} />, { user: testUser() });
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(fetch.callsTo('POST /api/auth/logout')[0].body).toEqual({ refresh_token: 'test-refresh' });
    expect(localStorage.length).toBe(0);
  });
});
