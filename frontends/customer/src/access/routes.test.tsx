import { expectPageExists, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import App from '../App';
import { manifest } from '../manifest';

const { navigation } = manifest;

configure({ asyncUtilTimeout: 5000 });

function renderAt(route: string, hasAccess = false) {
  return renderWithProviders(
    <Routes>
      <Route path="/*" element={<App />} />
    </Routes>,
    { user: testUser({ has_access: hasAccess }), route },
  );
}

describe('customer routes of the account screens', () => {
  it.each(['/upgrade', '/sorry'])('shows the out-of-credits notice at %s', async (route) => {
    renderAt(route);
    expect(await screen.findByRole('heading', { name: "Oops! You're out of credits." })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expectPageExists(App, '/pricing');
  });

  it('shows the out-of-credits notice at / to a user without access', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: "Oops! You're out of credits." })).toBeInTheDocument();
  });

  it('sends a user with access from / to their chats', async () => {
    renderAt('/', true);
    expect(await screen.findByRole('heading', { name: 'Chats' })).toBeInTheDocument();
  });

  it('serves Settings at /settings', async () => {
    renderAt('/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it('serves My Profile at /profile', async () => {
    renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeInTheDocument();
  });

  it('puts My Profile and Settings in the user menu', () => {
    expect(navigation.filter((e) => e.menu === 'user').map((e) => e.path)).toEqual(
      expect.arrayContaining(['/profile', '/settings']),
    );
  });
});
