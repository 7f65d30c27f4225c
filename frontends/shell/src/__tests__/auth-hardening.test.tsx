import { testUser } from '@avatar-studio/shared/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderShell } from './render-shell';

const CHALLENGE = { two_factor_required: true, challenge_token: 'ch-1', expires_in: 300 };

async function passwordStep(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByRole('textbox', { name: /email/i }), 'boss@example.com');
  await user.type(screen.getByLabelText(/^password/i), 'secret1');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('two-factor sign-in step', () => {
  it('asks for the code after the password, then signs in with the challenge and the code', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/login', {
      routes: {
        'POST /api/auth/login': { body: CHALLENGE },
        'POST /api/auth/login/2fa': {
          body: { access_token: 'a', refresh_token: 'r', expires_in: 900, user: testUser() },
        },
      },
    });
    await passwordStep(user);
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Authentication code/), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/login/2fa')[0].body).toEqual({
      challenge_token: 'ch-1',
      code: '123456',
    });
  });

  it('says a wrong code is wrong and keeps the step open; a short code is refused without a call', async () => {
    const user = userEvent.setup();
    const { fetch } = renderShell('/login', {
      routes: {
        'POST /api/auth/login': { body: CHALLENGE },
        'POST /api/auth/login/2fa': {
          status: 401,
          body: { message: 'wrong', code: 'invalid_two_factor_code' },
        },
      },
    });
    await passwordStep(user);
    await user.type(await screen.findByLabelText(/Authentication code/), '12');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code has 6 digits.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/login/2fa')).toHaveLength(0);
    await user.type(screen.getByLabelText(/Authentication code/), '3456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('This code is not right. Type the code your app shows now.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
  });

  it('says a code already used is spent and keeps the step open', async () => {
    const user = userEvent.setup();
    renderShell('/login', {
      routes: {
        'POST /api/auth/login': { body: CHALLENGE },
        'POST /api/auth/login/2fa': {
          status: 401,
          body: { message: 'used', code: 'two_factor_code_used' },
        },
      },
    });
    await passwordStep(user);
    await user.type(await screen.findByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText(
        'This code was used already. Wait for the next code your app shows, then type it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Authentication code/)).toHaveValue('');
  });

  it('goes back to the password when the challenge has expired', async () => {
    const user = userEvent.setup();
    renderShell('/login', {
      routes: {
        'POST /api/auth/login': { body: CHALLENGE },
        'POST /api/auth/login/2fa': {
          status: 401,
          body: { message: 'expired', code: 'invalid_two_factor_challenge' },
        },
      },
    });
    await passwordStep(user);
    await user.type(await screen.findByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('This sign-in step has expired. Please go back and sign in again.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^password/i)).toHaveValue('');
  });

  it('says the account is locked for a while after too many failures', async () => {
    const user = userEvent.setup();
    renderShell('/login', {
      routes: {
        'POST /api/auth/login': {
          status: 429,
          body: { message: 'Too many failed sign-ins', code: 'login_locked', retry_after: 32 },
        },
      },
    });
    await passwordStep(user);
    expect(await screen.findByText(/Too many failed sign-ins for this account/)).toBeInTheDocument();
  });
});

describe('email verification page', () => {
  it('verifies the address from the link when signed out, and says so', async () => {
    const { fetch } = renderShell('/auth/verify-email?token=tok-1', {
      routes: {
        'POST /api/auth/verify-email': {
          body: { email: 'ada@example.com', email_verified_at: '2026-01-01T00:00:00.000Z' },
        },
      },
    });
    expect(await screen.findByText('Thank you: ada@example.com is verified.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/auth/verify-email')).toEqual([
      expect.objectContaining({ body: { token: 'tok-1' } }),
    ]);
    expect(screen.getByRole('link', { name: 'Go to login' })).toBeInTheDocument();
  });

  it('stays on the page for a signed-in user and links to Settings', async () => {
    renderShell('/auth/verify-email?token=tok-2', {
      user: testUser({ email_verified: false }),
      routes: {
        'POST /api/auth/verify-email': {
          body: { email: 'ada@example.com', email_verified_at: '2026-01-01T00:00:00.000Z' },
        },
      },
    });
    expect(await screen.findByText('Thank you: ada@example.com is verified.')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/auth/verify-email');
    expect(screen.getByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', '/settings');
  });

  it('says when the link has expired', async () => {
    renderShell('/auth/verify-email?token=old', {
      routes: {
        'POST /api/auth/verify-email': {
          status: 400,
          body: { message: 'expired', code: 'verification_link_expired' },
        },
      },
    });
    expect(
      await screen.findByText('This verification link has expired. Ask for a new one from Settings.'),
    ).toBeInTheDocument();
  });
});

describe('staff admin who must enrol two-factor', () => {
  it('is sent to Settings from any other page', async () => {
    renderShell('/chats', {
      user: testUser({ staff: { staff_id: 1, role: 'admin' }, two_factor_required: true }),
    });
    expect(await screen.findByText('customer home')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/settings$/);
  });
});
