import { assertSameKeys } from '@avatar-studio/shared';
import { manifestLabelMismatches, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import App from './App';
import { en, es } from './i18n';
import { manifest } from './manifest';

describe('customer remote', () => {
  it('has the same translation keys in en and es', () => {
    assertSameKeys(en, es, 'customer');
  });

  it('publishes menu labels that match its translations', () => {
    expect(manifestLabelMismatches(manifest, 'customer', { en, es })).toEqual([]);
  });

  it('renders its routes under the shell mount point', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/*" element={<App />} />
      </Routes>,
      { user: testUser(), route: '/no-such-page' },
    );
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
