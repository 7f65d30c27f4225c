import { sha256 } from '../../common/crypto/secret-box';
import {
  generateApiKey,
  isHttpUrl,
  isImageSrc,
  isValidBirthday,
  isValidPhone,
  maskApiKey,
  normalizeEmail,
  shapePhone,
} from './user-fields';

describe('phone rules', () => {
  it('accepts 10 digits written with separators', () => {
    for (const phone of [
      '5512345678',
      '55 1234 5678',
      '(555) 123-4567',
      '555.123.4567',
      '+5512345678',
      ' 555-123-4567 ',
    ]) {
      expect(isValidPhone(phone)).toBe(true);
    }
  });

  it('refuses other digit counts, letters and runs of separators', () => {
    for (const phone of [
      '',
      '12345',
      '55123456789',
      '+52 55 1234 5678',
      '555-CALL-NOW',
      '555---123-4567',
      5512345678,
    ]) {
      expect(isValidPhone(phone)).toBe(false);
    }
  });

  it('shapes a phone to its digits, cut to 10', () => {
    expect(shapePhone('(555) 123-4567')).toBe('5551234567');
    expect(shapePhone('1-555-123-4567-99')).toBe('1555123456');
  });
});

describe('birthday rule', () => {
  const today = new Date('2025-06-15T12:00:00Z');

  it('accepts real past dates written YYYY-MM-DD', () => {
    expect(isValidBirthday('1990-02-28', today)).toBe(true);
    expect(isValidBirthday('2000-02-29', today)).toBe(true);
    expect(isValidBirthday('2025-06-15', today)).toBe(true);
  });

  it('refuses impossible, future, ancient and differently written dates', () => {
    for (const value of [
      '1990-02-30',
      '2023-02-29',
      '1990-13-01',
      '2025-06-16',
      '1899-12-31',
      '15/06/1990',
      '1990-6-1',
      19900101,
    ]) {
      expect(isValidBirthday(value, today)).toBe(false);
    }
  });
});

describe('emails and URLs', () => {
  it('lowercases and trims emails', () => {
    expect(normalizeEmail('  Ana.Perez@Example.COM ')).toBe('ana.perez@example.com');
  });

  it('accepts only http(s) URLs as webhook URLs', () => {
    expect(isHttpUrl('https://hooks.zapier.com/hooks/catch/1/abc')).toBe(true);
    expect(isHttpUrl('http://example.com')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('not a url')).toBe(false);
  });

  it('accepts an image src that is an http(s) URL or a path on this site', () => {
    expect(isImageSrc('/api/files/abc/content')).toBe(true);
    expect(isImageSrc('https://cdn.example.com/a.png')).toBe(true);
    expect(isImageSrc('//evil.example.com/a.png')).toBe(false);
    expect(isImageSrc('data:image/png;base64,AAAA')).toBe(false);
  });
});

describe('personal API keys', () => {
  it('are as_ + 32 random bytes, kept only as sha256 and last 4', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).toMatch(/^as_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(sha256(a.key));
    expect(a.last4).toBe(a.key.slice(-4));
  });

  it('are shown masked', () => {
    expect(maskApiKey('Ab9_')).toBe('as_…Ab9_');
    expect(maskApiKey(null)).toBeNull();
  });
});
