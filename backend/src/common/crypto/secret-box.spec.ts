import { SecretBox, isMasked, maskSecret } from './secret-box';

describe('SecretBox', () => {
  it('round-trips a secret and never stores it in clear', () => {
    const box = new SecretBox('x'.repeat(40));
    const stored = box.encrypt('sk-live-123456');
    expect(stored).not.toContain('sk-live');
    expect(box.decrypt(stored)).toBe('sk-live-123456');
  });

  it('refuses a value encrypted under another secret', () => {
    const stored = new SecretBox('a'.repeat(40)).encrypt('secret');
    expect(() => new SecretBox('b'.repeat(40)).decrypt(stored)).toThrow();
  });

  it('masks to at most the last 4 characters', () => {
    expect(maskSecret('sk-abcdefghijkl')).toBe('••••••••ijkl');
    expect(maskSecret('short')).toBe('••••••••');
    expect(maskSecret(null)).toBeNull();
    expect(isMasked(maskSecret('sk-abcdefghijkl'))).toBe(true);
  });
});
