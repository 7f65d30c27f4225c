import { assertSameKeys } from '@avatar-studio/shared';
import {
  expectPageExists,
  manifestLabelMismatches,
  renderWithProviders,
  testUser,
} from '@avatar-studio/shared/testing';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import App from './App';
import { en, es } from './i18n';
import { manifest } from './manifest';

describe('org remote', () => {
  it('has the same translation keys in en and es', () => {
    assertSameKeys(en, es, 'org');
  });

  it('publishes menu labels that match its translations', () => {
    expect(manifestLabelMismatches(manifest, 'org', { en, es })).toEqual([]);
  });

  it('keeps the campaign menu for staff even outside an organization, and only that entry', () => {
    expect(manifest.navigation.filter((entry) => entry.alwaysForStaff).map((entry) => entry.path)).toEqual([
      '/organization/campaigns',
    ]);
  });

  it('renders its routes under the shell mount point', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/organization/*" element={<App />} />
      </Routes>,
      { user: testUser(), route: '/organization/no-such-page' },
    );
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });

  it('leads /organization itself (a breadcrumb link) to the organizations list', async () => {
    await expectPageExists(App, '/organization', { mount: manifest.mounts });
    renderWithProviders(
      <Routes>
        {manifest.mounts.map((mount) => (
          <Route key={mount} path={`${mount}/*`} element={<App />} />
        ))}
      </Routes>,
      { user: testUser(), route: '/organization' },
    );
    // The list is a lazy route: its first import compiles the organizations screens, slow in a full parallel run.
    expect(
      await screen.findByRole('heading', { name: 'My organizations' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });
});
