import {
  FEATURE_FLAGS,
  FEATURES,
  setLanguage,
  type PublishedNavigationEntry,
  type RemotesManifest,
} from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import type { RemoteSource } from '../remotes/RemotesProvider';
import { ShellRoutes } from '../routes';

configure({ asyncUtilTimeout: 5000 });

/** A declared screen as a concrete address (':x' segments filled in). */
const concrete = (screen: string) => screen.replace(/:\w+/g, '7');

/** One sidebar entry per declared screen of every feature, plus one no flag gates. */
const label = (text: string) => ({ en: text, es: text });
const featureEntries: PublishedNavigationEntry[] = FEATURES.flatMap((feature) =>
  feature.screens.map((screen, i) => ({
    labelKey: `test:${feature.flag}.${i}`,
    label: label(`${feature.flag} entry ${i}`),
    path: concrete(screen),
  })),
);
const ungated: PublishedNavigationEntry = {
  labelKey: 'test:chats',
  label: label('Chats'),
  path: '/conversations',
};

const manifest: RemotesManifest = {
  remotes: {
    customer: {
      entry: '/remotes/customer/remoteEntry.js',
      mounts: ['/'],
      navigation: [ungated, ...featureEntries],
    },
    org: {
      entry: '/remotes/org/remoteEntry.js',
      mounts: ['/organization', '/organizations'],
      navigation: [],
    },
  },
};

function RemotePage() {
  return <p>remote page {useLocation().pathname}</p>;
}

const remotes: RemoteSource = {
  manifest: async () => manifest,
  load: async () => ({ default: RemotePage }),
};

/** Every flag on, except `off`. */
const configWith = (off?: string) =>
  Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, flag === off ? 'false' : 'true']));

const withScreens = FEATURES.filter((f) => f.screens.length > 0);

describe('feature flags in the shell', () => {
  afterEach(() => setLanguage('en'));

  it('gates the screens of every feature that has screens', () => {
    expect(withScreens.map((f) => f.flag).sort()).toEqual(
      [
        'avatars_enabled',
        'campaigns_enabled',
        'chatwidget_enabled',
        'documents_enabled',
        'hashtags_enabled',
        'organizations_enabled',
        'super_fetch',
        'templates_enabled',
        'topics_enabled',
        'tutorials_enabled',
      ].sort(),
    );
  });

  describe.each(withScreens.map((f) => [f.flag, f] as const))('%s', (flag, feature) => {
    it.each(feature.screens.map((s) => [concrete(s)]))(
      'off: %s says the feature is switched off, and its menu entries are gone',
      async (path) => {
        renderWithProviders(<ShellRoutes remotes={remotes} />, {
          user: testUser(),
          route: path,
          config: configWith(flag),
        });
        expect(
          await screen.findByRole('heading', { name: 'This feature is switched off' }),
        ).toBeInTheDocument();
        expect(
          screen.getByText(
            `The ${feature.name.en} feature is switched off in this app. Ask an administrator if you need it.`,
          ),
        ).toBeInTheDocument();
        expect(screen.queryByText('Page not found.')).not.toBeInTheDocument();
        expect(screen.queryByText(/^remote page/)).not.toBeInTheDocument();
        expect(await screen.findByRole('link', { name: 'Chats' })).toBeInTheDocument();
        for (const i of feature.screens.keys())
          expect(screen.queryByRole('link', { name: `${flag} entry ${i}` })).not.toBeInTheDocument();
      },
    );

    it.each(feature.screens.map((s) => [concrete(s)]))(
      'on: %s opens the page, and its menu entries are there',
      async (path) => {
        renderWithProviders(<ShellRoutes remotes={remotes} />, {
          user: testUser(),
          route: path,
          config: configWith(),
        });
        expect(await screen.findByText(`remote page ${path}`)).toBeInTheDocument();
        for (const i of feature.screens.keys())
          expect(await screen.findByRole('link', { name: `${flag} entry ${i}` })).toHaveAttribute(
            'href',
            concrete(feature.screens[i]),
          );
      },
    );
  });

  it('says so in Spanish too', async () => {
    setLanguage('es');
    renderWithProviders(<ShellRoutes remotes={remotes} />, {
      user: testUser({ lang: 'es' }),
      route: '/templates/create-template',
      config: configWith('templates_enabled'),
    });
    expect(await screen.findByRole('heading', { name: 'Esta función está desactivada' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'La función Plantillas está desactivada en esta aplicación. Pide a un administrador que la active si la necesitas.',
      ),
    ).toBeInTheDocument();
  });

  it('switches campaigns off with organizations, the flag they require', async () => {
    renderWithProviders(<ShellRoutes remotes={remotes} />, {
      user: testUser(),
      route: '/organization/campaigns',
      config: { ...configWith('organizations_enabled'), campaigns_enabled: 'true' },
    });
    expect(await screen.findByRole('heading', { name: 'This feature is switched off' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'campaigns_enabled entry 0' })).not.toBeInTheDocument();
  });

  it('asks nothing about organizations while they are switched off', async () => {
    const { fetch } = renderWithProviders(<ShellRoutes remotes={remotes} />, {
      user: testUser({ default_organization: 4 }),
      route: '/conversations',
      config: configWith('organizations_enabled'),
    });
    expect(await screen.findByText('remote page /conversations')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.path.startsWith('/api/organizations'))).toEqual([]);
    expect(fetch.calls.filter((c) => c.query.has('organization_id'))).toEqual([]);
  });
});
