import { screen } from '@testing-library/react';
import { useSession, type SessionStatus } from '../session/SessionProvider';
import { renderWithProviders, testUser } from '../testing';

/** A screen that notes every session status it was rendered with. */
function StatusNotingScreen({ seen }: { seen: SessionStatus[] }) {
  seen.push(useSession().status);
  return <p>the screen</p>;
}

describe('renderWithProviders', () => {
  it.each([
    ['signed in', true, 'signedIn'],
    ['signed out', false, 'signedOut'],
  ] as const)(
    'renders the screen only once the session is known (%s), as the shell does',
    async (_, signedIn, status) => {
      const seen: SessionStatus[] = [];
      renderWithProviders(<StatusNotingScreen seen={seen} />, { user: signedIn ? testUser() : null });
      expect(await screen.findByText('the screen')).toBeInTheDocument();
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([status]));
    },
  );
});
