import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RemoteSource } from '../remotes/RemotesProvider';
import { ShellRoutes } from '../routes';
import { customerOnly, renderShell } from './render-shell';

// The signed-in and signed-out halves load lazily; a busy machine needs more than the default second.
configure({ asyncUtilTimeout: 5000 });

describe('login', () => {
  it('says the email or password is incorrect when the server refuses them', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/login', {
      routes: {
        'POST /api/auth/login': {
          status: 401,
          body: { message: 'Invalid credentials', code: 'invalid_credentials' },
        },
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /email/i }), ' Ada@Example.com ');
    await user.type(screen.getByLabelText(/^password/i), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email or password is incorrect, please try again.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/login')[0].body).toEqual({
      email: 'ada@example.com',
      password: 'wrong-password',
    });
  });

  it('signs in and leaves the login path for /', async () => {
    const user = userEvent.setup();
    const signedIn = testUser();
    const { fetch } = renderShell('/login', {
      routes: {
        'POST /api/auth/login': {
          body: { access_token: 'a', refresh_token: 'r', expires_in: 900, user: signedIn },
        },
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /email/i }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(fetch.callsTo('POST /api/auth/login')).toHaveLength(1);
  });

  it('shows the create-account link only when sign-up is enabled', async () => {
    renderShell('/login', { config: { signup_enabled: 'false' } });
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/recovery',
    );
    expect(screen.queryByRole('link', { name: 'Create account' })).not.toBeInTheDocument();
  });

  it('toggles the password visibility from the keyboard', async () => {
    const user = userEvent.setup();
    renderShell('/login');
    const password = await screen.findByLabelText(/^password/i);
    expect(password).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Show or hide the password' });
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'text');
  });

  it('puts the sign-in screens under /auth when a landing page is enabled', async () => {
    renderShell('/somewhere', { config: { landing_enabled: 'true' } });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/auth/login');
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/auth/signup');
  });

  it('loads the server-rendered landing page at / and /latam, once, clearing the signed-in hint', async () => {
    const navigate = jest.fn();
    (await import('@avatar-studio/shared')).setNavigator(navigate);
    sessionStorage.clear();
    document.cookie = 'signed_in=1; path=/';
    const config = { landing_enabled: 'true', spanish_enabled: 'true' };
    const first = renderShell('/', { config });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(document.cookie).not.toContain('signed_in=1');
    first.unmount();
    // The server answered the app again within seconds: the login page shows instead of another reload.
    renderShell('/latam', { config });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/auth/login');
    expect(navigate).toHaveBeenCalledTimes(1);
    sessionStorage.clear();
  });

  it('sets the signed-in hint cookie while a session is held', async () => {
    document.cookie = 'signed_in=; path=/; max-age=0';
    renderShell('/', { user: testUser() });
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(document.cookie).toContain('signed_in=1');
  });

  it('sends a signed-in user who opens a login path to /', async () => {
    renderShell('/auth/login', { user: testUser() });
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });
});

describe('sign-up', () => {
  it('shows the spec messages for invalid fields and a clear one for mismatched passwords', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/signup');
    await user.type(await screen.findByRole('textbox', { name: /^email/i }), 'not-an-email');
    await user.type(screen.getByLabelText(/^password/i), '123');
    await user.type(screen.getByLabelText(/^confirm password/i), '124');
    await user.type(screen.getByRole('textbox', { name: /^phone/i }), '12345');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Last name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Email is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Password must be 6 characters long.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getByText('Phone number is invalid.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/signup')).toHaveLength(0);
  });

  it('sends the Other free text as the reason, the phone as 10 digits, and signs in', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/signup', {
      routes: {
        'POST /api/auth/signup': {
          status: 201,
          body: { access_token: 'a', refresh_token: 'r', expires_in: 900, user: testUser() },
        },
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /^name/i }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /^last name/i }), 'Lovelace');
    await user.type(screen.getByRole('textbox', { name: /^email/i }), 'Ada@Example.com');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.type(screen.getByLabelText(/^confirm password/i), 'secret1');
    await user.type(screen.getByRole('textbox', { name: /^phone/i }), '(555) 123-4567');
    expect(screen.queryByRole('textbox', { name: /tell us how/i })).not.toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /how did you hear/i }));
    await user.click(await screen.findByRole('option', { name: 'Other' }));
    await user.type(await screen.findByRole('textbox', { name: /tell us how/i }), 'A podcast');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/signup')[0].body).toEqual({
      name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      password: 'secret1',
      confirm_password: 'secret1',
      phone: '5551234567',
      signup_reason: 'A podcast',
    });
  });

  it('tells an existing user to log in on 412', async () => {
    const user = userEvent.setup();
    renderShell('/signup', {
      routes: {
        'POST /api/auth/signup': { status: 412, body: { message: 'exists', code: 'email_exists' } },
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /^name/i }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /^last name/i }), 'Lovelace');
    await user.type(screen.getByRole('textbox', { name: /^email/i }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.type(screen.getByLabelText(/^confirm password/i), 'secret1');
    await user.type(screen.getByRole('textbox', { name: /^phone/i }), '5551234567');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('You already have an account, please login.')).toBeInTheDocument();
  });
});

describe('recovery', () => {
  async function requestLink(reply: { status: number; body?: unknown }) {
    const user = userEvent.setup();
    const { fetch } = renderShell('/recovery', { routes: { 'POST /api/auth/recovery': reply } });
    await user.type(await screen.findByRole('textbox', { name: /email/i }), '  Ada@Example.COM ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    return fetch;
  }

  it('explains that no account has that email on 404', async () => {
    const fetch = await requestLink({ status: 404, body: { message: 'nope', code: 'account_not_found' } });
    expect(
      await screen.findByText(
        'We did not found any account with this email. Could your account be under a different email?',
      ),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/recovery')[0].body).toEqual({ email: 'ada@example.com' });
  });

  it('gives the generic text for any other failure', async () => {
    await requestLink({ status: 429, body: { message: 'slow down', code: 'rate_limited' } });
    expect(
      await screen.findByText('There was an error with your request, please try again later.'),
    ).toBeInTheDocument();
  });

  it('links back to the login page', async () => {
    renderShell('/recovery');
    expect(await screen.findByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });
});

describe('reset password', () => {
  it('saves the new password with the token from the link and returns to login', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/auth/reset-password?token=abc123', {
      routes: { 'POST /api/auth/reset-password': { body: {} } },
    });
    await user.type(await screen.findByLabelText(/^new password/i), 'newsecret');
    await user.type(screen.getByLabelText(/^confirm password/i), 'newsecret');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
    expect(fetch.callsTo('POST /api/auth/reset-password')[0].body).toEqual({
      token: 'abc123',
      password: 'newsecret',
    });
  });
});

describe('remote loading when signed out', () => {
  it('the sign-in page reads no manifest and loads no remote', async () => {
    const asked: string[] = [];
    const counting: RemoteSource = {
      manifest: async () => {
        asked.push('manifest');
        return customerOnly.manifest();
      },
      load: async (name) => {
        asked.push(name);
        return customerOnly.load(name);
      },
    };
    renderWithProviders(<ShellRoutes remotes={counting} />, { route: '/login' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
