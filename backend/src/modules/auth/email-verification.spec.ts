import {
  emailTag,
  readVerificationToken,
  signVerificationToken,
  VERIFY_EMAIL_TTL_MS,
} from './email-verification';

describe('email verification tokens', () => {
  const secret = 'x'.repeat(40);

  it('reads back the user and the address tag of a token it signed', () => {
    const token = signVerificationToken(secret, 42, 'Ana@Example.com');
    expect(readVerificationToken(secret, token)).toEqual({
      user_id: 42,
      emailTag: emailTag('ana@example.com'),
    });
  });

  it('refuses a token signed with another secret or altered', () => {
    const token = signVerificationToken(secret, 42, 'ana@example.com');
    expect(readVerificationToken('y'.repeat(40), token)).toBe('invalid');
    const [body, sig] = token.split('.');
    const forged = Buffer.from(Buffer.from(body, 'base64url').toString().replace('42.', '43.')).toString(
      'base64url',
    );
    expect(readVerificationToken(secret, `${forged}.${sig}`)).toBe('invalid');
    expect(readVerificationToken(secret, 'garbage')).toBe('invalid');
  });

  it('answers expired once the lifetime has passed', () => {
    const now = Date.now();
    const token = signVerificationToken(secret, 7, 'a@b.co', now);
    expect(readVerificationToken(secret, token, now + VERIFY_EMAIL_TTL_MS + 1000)).toBe('expired');
  });
});
