import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessionStore, setNavigator, useSession, ViewingAsBanner } from '@avatar-studio/shared';
import { contrast, paletteColor, renderWithProviders, testUser } from '@avatar-studio/shared/testing';

const customer = testUser({ user_id: 9, name: 'Viv', last_name: 'Customer' } as never);
const exchanged = {
  access_token: 'customer-access',
  refresh_token: 'customer-refresh',
  expires_in: 900,
  user: customer,
  session_expires_at: '2026-03-05T12:15:00.000Z',
};

function Screen() {
  const { status, user } = useSession();
  return (
    <>
      <ViewingAsBanner />
      <p>{status === 'signedIn' ? `signed in as ${user?.name}` : status}</p>
    </>
  );
}

afterEach(() => {
  notifications.clean();
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe("A tab viewing a customer's account", () => {
  it('exchanges the code once, keeps the customer session to this tab, shows the banner and exits', async () => {
    window.history.replaceState(null, '', '/#view-as=one-time_code');
    const navigate = jest.fn();
    setNavigator(navigate);
    const { fetch } = renderWithProviders(<Screen />, {
      user: customer,
      routes: { 'POST /api/auth/impersonation': { body: exchanged } },
    });
    expect(await screen.findByText('Viewing as Viv Customer')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/impersonation')[0].body).toEqual({ code: 'one-time_code' });
    // The code leaves the address bar; the admin's own session (shared storage) is untouched.
    expect(window.location.hash).toBe('');
    expect(localStorage.getItem('access_token')).toBe('test-access');
    expect(sessionStorage.getItem('access_token')).toBe('customer-access');
    expect(sessionStore.getAccessToken()).toBe('customer-access');
    expect(screen.getByText('signed in as Viv')).toBeInTheDocument();
    // White on the banner's colour and that colour on the white Exit button both read at 4.5:1 (axe).
    const banner = screen.getByText('Viewing as Viv Customer').closest<HTMLElement>('[role="status"]')!;
    expect(banner.style.getPropertyValue('--alert-color')).toBe('var(--mantine-color-white)');
    const exitButton = screen.getByRole('button', { name: 'Exit' });
    for (const colour of [
      banner.style.getPropertyValue('--alert-bg'),
      exitButton.style.getPropertyValue('--button-color'),
    ])
      expect(contrast(paletteColor(colour), '#ffffff')).toBeGreaterThanOrEqual(4.5);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Exit' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/admin/users/9'));
    expect(fetch.callsTo('POST /api/auth/logout')[0].body).toEqual({ refresh_token: 'customer-refresh' });
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('access_token')).toBe('test-access');
  });

  it('leaves the tab as it was when the code was used already', async () => {
    window.history.replaceState(null, '', '/#view-as=spent');
    renderWithProviders(<Screen />, {
      user: customer,
      routes: {
        'POST /api/auth/impersonation': {
          status: 401,
          body: {
            statusCode: 401,
            code: 'impersonation_code_invalid',
            message:
              'This link to open the account was used already or is not valid. Open it again from the back office.',
          },
        },
      },
    });
    expect(await screen.findByText(/was used already or is not valid/)).toBeInTheDocument();
    expect(screen.queryByText(/Viewing as/)).not.toBeInTheDocument();
    expect(sessionStorage.length).toBe(0);
    expect(sessionStore.getAccessToken()).toBe('test-access');
  });
});
