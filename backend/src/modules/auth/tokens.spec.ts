import { randomToken, resetPasswordLink } from './tokens';

describe('auth tokens', () => {
  it('are 32 random bytes in base64url', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
  });

  it('build the reset-password link of the UI screen', () => {
    expect(resetPasswordLink('https://app.example.com/', 'a-b_c')).toBe(
      'https://app.example.com/auth/reset-password?token=a-b_c',
    );
  });
});
