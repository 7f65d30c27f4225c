import { assertSameKeys } from '@avatar-studio/shared';
import {
  manifestLabelMismatches,
  renderWithProviders,
  testUser,
  expectPageExists,
} from '@avatar-studio/shared/testing';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import App from './App';
import { en, es } from './i18n';
import { manifest } from './manifest';

describe('admin remote', () => {
  it('has the same translation keys in en and es', () => {
    assertSameKeys(en, es, 'admin');
  });

  it('publishes menu labels that match its translations', () => {
    expect(manifestLabelMismatches(manifest, 'admin', { en, es })).toEqual([]);
  });

  it('renders its routes under the shell mount point', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/admin/*" element={<App />} />
      </Routes>,
      { user: testUser(), route: '/admin/no-such-page' },
    );
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });

  it('leads /admin itself (a breadcrumb link) to a back-office page', async () => {
    await expectPageExists(App, '/admin', {
      mount: '/admin',
      user: testUser({ staff: { staff_id: 1, role: 'manager' } }),
    });
  });
});
