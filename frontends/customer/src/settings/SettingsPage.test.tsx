import { notifications } from '@mantine/notifications';
import { currentLanguage, registerTranslations, setLanguage, useSession } from '@avatar-studio/shared';
import { expectPageExists, renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { en, es } from '../i18n';
import { SettingsPage as Page } from './SettingsPage';
import App from '../App';

registerTranslations('customer', { en, es });
// The first render of a file loads Mantine and the providers: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

/** Like the shell: the remote's screen mounts once the session and its organization are settled. */
function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}
const SettingsPage = () => (
  <SignedIn>
    <Page />
  </SignedIn>
);

afterEach(async () => {
  // Mantine keeps notifications in a module store: start every test without the last one's.
  notifications.clean();
  await setLanguage('en');
});

const user = testUser;

/** Types the current password in the key dialog and confirms. */
async function confirmCreate(ui: ReturnType<typeof userEvent.setup>, title: string, button: string) {
  const dialog = await screen.findByRole('dialog', { name: title });
  await ui.type(within(dialog).getByLabelText('Current password'), 'my-password');
  await ui.click(within(dialog).getByRole('button', { name: button }));
}

describe('Settings', () => {
  it('shows the saved values and a link to the tutorial', async () => {
    renderWithProviders(<SettingsPage />, {
      user: user({
        zappier_webhook_url: 'https://hooks.example.com/a',
        manual_mode: true,
        api_key: 'as_…9f3c',
      }),
    });
    expect(await screen.findByLabelText('Integration webhook URL')).toHaveValue(
      'https://hooks.example.com/a',
    );
    expect(screen.getByRole('switch', { name: 'Manual mode' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Dark mode' })).not.toBeChecked();
    expect(screen.getByLabelText('Current key')).toHaveValue('as_…9f3c');
    expect(screen.getByRole('link', { name: /Watch the tutorial/ })).toHaveAttribute('href', '/tutorials/1');
    await expectPageExists(App, '/tutorials/1');
  });

  it('saves the settings with PUT /api/users and confirms', async () => {
    const saved = user({ zappier_webhook_url: 'https://hooks.example.com/new', manual_mode: true });
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'PUT /api/users': { body: { user: saved } } },
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Integration webhook URL'), 'https://hooks.example.com/new');
    await ui.click(screen.getByRole('switch', { name: 'Manual mode' }));
    await ui.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users')).toHaveLength(1);
    expect(fetch.callsTo('PUT /api/users')[0].body).toEqual({
      zappier_webhook_url: 'https://hooks.example.com/new',
      lang: 'en',
      manual_mode: true,
      dark_mode: false,
    });
  });

  it('refuses a webhook URL that is not http(s) without calling the server', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, { user: user() });
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Integration webhook URL'), 'ftp://example.com');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The webhook URL must be an http or https URL.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users')).toHaveLength(0);
  });

  it('shows the server message when saving fails', async () => {
    renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: {
        'PUT /api/users': {
          status: 422,
          body: { statusCode: 422, message: 'Your settings could not be saved.', code: 'x', error: 'x' },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your settings could not be saved.')).toBeInTheDocument();
  });

  it('switches the interface language at once and saves it as user.lang', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'PUT /api/users': { body: { user: user({ lang: 'es' }) } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByText('Español'));

    expect(await screen.findByRole('button', { name: 'Guardar' })).toBeInTheDocument();
    expect(currentLanguage()).toBe('es');
    expect(localStorage.getItem('lang')).toBe('es');

    await ui.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración guardada.')).toBeInTheDocument();
    expect(fetch.callsTo('PUT /api/users')[0].body).toMatchObject({ lang: 'es' });
  });

  it('applies dark mode at once and saves it', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'PUT /api/users': { body: { user: user({ dark_mode: true }) } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('switch', { name: 'Dark mode' }));
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    expect(fetch.callsTo('PUT /api/users')).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings saved.');
    expect(fetch.callsTo('PUT /api/users')[0].body).toMatchObject({ dark_mode: true });
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  it('restores the saved theme when the page is left without saving', async () => {
    function Harness() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown(false)}>
            Leave
          </button>
          {shown ? <SettingsPage /> : null}
        </>
      );
    }
    const { fetch } = renderWithProviders(<Harness />, { user: user() });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('switch', { name: 'Dark mode' }));
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    await ui.click(screen.getByRole('button', { name: 'Leave' }));
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light'),
    );
    expect(fetch.callsTo('PUT /api/users')).toHaveLength(0);
  });
});

describe('Settings: API key', () => {
  it('generates a key, shows it once with a copy button, then only the masked key', async () => {
    let withKey = false;
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: {
        'POST /api/users/api-key': () => {
          withKey = true;
          return { status: 201, body: { api_key: 'as_live_0123456789abcdef9f3c' } };
        },
      },
    });
    fetch.route({
      'GET /api/users': () => ({ body: { user: user(withKey ? { api_key: 'as_…9f3c' } : {}) } }),
    });
    const ui = userEvent.setup();
    // After setup: user-event installs its own clipboard stub.
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(await screen.findByLabelText('Current key')).toHaveAttribute(
      'placeholder',
      'You have no API key.',
    );
    await ui.click(screen.getByRole('button', { name: 'Generate key' }));
    await confirmCreate(ui, 'Generate an API key', 'Generate key');

    const full = await screen.findByRole('textbox', { name: 'Your new API key' });
    expect(full).toHaveValue('as_live_0123456789abcdef9f3c');
    expect(screen.getByText('Copy this key now: it is shown only once. Keep it secret.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Current key')).toHaveValue('as_…9f3c'));
    expect(fetch.callsTo('POST /api/users/api-key')).toHaveLength(1);

    await ui.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('as_live_0123456789abcdef9f3c');
    expect(await screen.findByText('Copied to clipboard.')).toBeInTheDocument();

    await ui.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Your new API key' })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('as_live_0123456789abcdef9f3c')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Current key')).toHaveValue('as_…9f3c');
  });

  it('says so when the clipboard refuses the copy', async () => {
    renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'POST /api/users/api-key': { status: 201, body: { api_key: 'as_live_key' } } },
    });
    const ui = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: jest.fn().mockRejectedValue(new Error('denied')) },
      configurable: true,
    });
    await ui.click(await screen.findByRole('button', { name: 'Generate key' }));
    await confirmCreate(ui, 'Generate an API key', 'Generate key');
    await screen.findByRole('textbox', { name: 'Your new API key' });
    await ui.click(screen.getByRole('button', { name: 'Copy' }));
    expect(
      await screen.findByText('Unable to copy content to clipboard. Please copy manually.'),
    ).toBeInTheDocument();
  });

  it('asks before replacing an existing key', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user({ api_key: 'as_…1111' }),
      routes: { 'POST /api/users/api-key': { status: 201, body: { api_key: 'as_live_new' } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Generate new key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a new API key?' });
    expect(within(dialog).getByText(/Your current key stops working at once/)).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/api-key')).toHaveLength(0);
    await confirmCreate(ui, 'Generate a new API key?', 'Generate new key');
    expect(await screen.findByRole('textbox', { name: 'Your new API key' })).toHaveValue('as_live_new');
  });

  it('revokes the key after confirmation', async () => {
    let revoked = false;
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user({ api_key: 'as_…1111' }),
      routes: {
        'DELETE /api/users/api-key': () => {
          revoked = true;
          return { status: 204 };
        },
      },
    });
    fetch.route({
      'GET /api/users': () => ({ body: { user: user(revoked ? {} : { api_key: 'as_…1111' }) } }),
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Revoke key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke your API key?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('API key revoked.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/users/api-key')).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('Current key')).toHaveValue(''));
    expect(screen.getByRole('button', { name: 'Generate key' })).toBeInTheDocument();
  });
});

describe('Settings: API key lifetime, staff use and password', () => {
  it('sends the current password and the lifetime chosen (90 days unless changed)', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'POST /api/users/api-key': { status: 201, body: { api_key: 'as_k' } } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Generate key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an API key' });
    expect(within(dialog).getByRole('textbox', { name: 'Valid for' })).toHaveValue('90 days');
    expect(within(dialog).queryByRole('checkbox', { name: 'For staff use' })).not.toBeInTheDocument();
    await ui.click(within(dialog).getByRole('textbox', { name: 'Valid for' }));
    await ui.click(await within(dialog).findByRole('option', { name: '365 days' }));
    await ui.type(within(dialog).getByLabelText('Current password'), 'my-password');
    await ui.click(within(dialog).getByRole('button', { name: 'Generate key' }));
    await screen.findByRole('textbox', { name: 'Your new API key' });
    expect(fetch.callsTo('POST /api/users/api-key')[0].body).toEqual({
      password: 'my-password',
      expires_in_days: 365,
      staff: false,
    });
  });

  it('asks for the password before calling the server, and says so when it is wrong', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: {
        'POST /api/users/api-key': {
          status: 403,
          body: {
            statusCode: 403,
            code: 'password_incorrect',
            message: 'Your current password is not correct. Please type it again.',
            error: 'Forbidden',
          },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Generate key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an API key' });
    await ui.click(within(dialog).getByRole('button', { name: 'Generate key' }));
    expect(
      await within(dialog).findByText('Please type your current password to confirm.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/users/api-key')).toHaveLength(0);
    await ui.type(within(dialog).getByLabelText('Current password'), 'typo');
    await ui.click(within(dialog).getByRole('button', { name: 'Generate key' }));
    expect(
      await within(dialog).findByText('Your current password is not correct. Please type it again.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your new API key' })).not.toBeInTheDocument();
  });

  it('offers staff a key for staff use, and shows the expiry and kind of the current key', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user({
        staff: { staff_id: 1, role: 'manager' },
        api_key: 'as_…1111',
        api_key_expires_at: '2026-03-04T10:00:00.000Z',
        api_key_staff: true,
      }),
      routes: { 'POST /api/users/api-key': { status: 201, body: { api_key: 'as_staff' } } },
    });
    const ui = userEvent.setup();
    expect(await screen.findByTestId('api-key-expiry')).toHaveTextContent('Expires on Mar 04 2026');
    expect(screen.getByText('Staff key')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Generate new key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a new API key?' });
    await ui.click(within(dialog).getByRole('checkbox', { name: 'For staff use' }));
    await ui.type(within(dialog).getByLabelText('Current password'), 'pw');
    await ui.click(within(dialog).getByRole('button', { name: 'Generate new key' }));
    await screen.findByRole('textbox', { name: 'Your new API key' });
    expect(fetch.callsTo('POST /api/users/api-key')[0].body).toEqual({
      password: 'pw',
      expires_in_days: 90,
      staff: true,
    });
  });
});

describe('Settings: security', () => {
  it('signs out everywhere after confirmation, then leaves', async () => {
    const navigate = jest.fn();
    (await import('@avatar-studio/shared')).setNavigator(navigate);
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'POST /api/auth/logout-all': { status: 204 }, 'POST /api/auth/logout': { status: 204 } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(fetch.callsTo('POST /api/auth/logout-all')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(fetch.callsTo('POST /api/auth/logout-all')).toHaveLength(1);
  });

  it('deletes the account only with the current password', async () => {
    const navigate = jest.fn();
    (await import('@avatar-studio/shared')).setNavigator(navigate);
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: { 'DELETE /api/users': { status: 204 }, 'POST /api/auth/logout': { status: 204 } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(
      await within(dialog).findByText('Please type your current password to confirm.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/users')).toHaveLength(0);
    await ui.type(within(dialog).getByLabelText('Current password'), 'my-password');
    await ui.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(fetch.callsTo('DELETE /api/users')[0].body).toEqual({ password: 'my-password' });
  });

  it('keeps the account and points to Billing while a subscription still renews', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user(),
      routes: {
        'DELETE /api/users': {
          status: 409,
          body: {
            statusCode: 409,
            code: 'subscription_renewing',
            message: 'Your subscription still renews. Cancel it in Billing first, then delete your account.',
            error: 'Conflict',
          },
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await ui.type(within(dialog).getByLabelText('Current password'), 'my-password');
    await ui.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(
      await within(dialog).findByText(
        'Your subscription still renews. Cancel it in Billing first, then delete your account.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Go to Billing' })).toHaveAttribute('href', '/billing');
    expect(fetch.callsTo('DELETE /api/users')).toHaveLength(1);
    expect(fetch.callsTo('POST /api/auth/logout')).toHaveLength(0);
  });

  it('tells an unverified user and sends the link again on request', async () => {
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: user({ email_verified: false }),
      routes: { 'POST /api/auth/verify-email/resend': { body: {} } },
    });
    const ui = userEvent.setup();
    expect(await screen.findByText('Your email address is not verified')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(
      await screen.findByText('We sent a new verification link to ada@example.com.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/verify-email/resend')).toHaveLength(1);
  });

  it('shows no verification notice once the address is verified', async () => {
    renderWithProviders(<SettingsPage />, { user: user() });
    await screen.findByRole('button', { name: 'Sign out everywhere' });
    expect(screen.queryByText('Your email address is not verified')).not.toBeInTheDocument();
  });
});

describe('Settings: staff two-factor sign-in', () => {
  const staff = () => user({ staff: { staff_id: 1, role: 'admin' } });

  it('is not offered to customers', async () => {
    renderWithProviders(<SettingsPage />, { user: user() });
    await screen.findByRole('button', { name: 'Sign out everywhere' });
    expect(screen.queryByText('Two-factor sign-in')).not.toBeInTheDocument();
  });

  it('enrols: shows the key to type in, then turns on with a code from the app', async () => {
    let enabled = false;
    const { fetch } = renderWithProviders(<SettingsPage />, {
      user: staff(),
      routes: {
        'POST /api/auth/2fa/setup': {
          body: {
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
            otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
          },
        },
        'POST /api/auth/2fa/enable': (call) =>
          (call.body as { code: string }).code === '123456'
            ? ((enabled = true), { body: {} })
            : {
                status: 400,
                body: {
                  statusCode: 400,
                  code: 'invalid_two_factor_code',
                  message: 'wrong',
                  error: 'Bad Request',
                },
              },
      },
    });
    fetch.route({
      'GET /api/users': () => ({ body: { user: user({ ...staff(), two_factor_enabled: enabled }) } }),
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    await ui.type(screen.getByLabelText('Authentication code'), '12');
    await ui.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The code has 6 digits.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/2fa/enable')).toHaveLength(0);
    await ui.clear(screen.getByLabelText('Authentication code'));
    await ui.type(screen.getByLabelText('Authentication code'), '654321');
    await ui.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(
      await screen.findByText('This code is not right. Type the code your app shows now.'),
    ).toBeInTheDocument();
    await ui.clear(screen.getByLabelText('Authentication code'));
    await ui.type(screen.getByLabelText('Authentication code'), '123456');
    await ui.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Two-factor sign-in is on.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Turn off two-factor sign-in' })).toBeInTheDocument(),
    );
  });

  it('tells a staff admin who must enrol that it is required', async () => {
    renderWithProviders(<SettingsPage />, {
      user: user({ staff: { staff_id: 1, role: 'admin' }, two_factor_required: true }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Staff admins must turn on two-factor sign-in before using the back office.',
    );
  });
});
