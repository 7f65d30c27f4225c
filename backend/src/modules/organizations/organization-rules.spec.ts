import {
  dayRange,
  isCalendarDay,
  isHostName,
  isMediaSrc,
  normalizeHost,
  slugify,
} from './organization-rules';

describe('organization rules', () => {
  it('makes URL-safe slugs from names, accents and symbols included', () => {
    expect(slugify('Acmé Co.')).toBe('acme-co');
    expect(slugify('  Big   Data -- Labs  ')).toBe('big-data-labs');
    expect(slugify('日本')).toBe('organization');
    expect(slugify('a'.repeat(300)).length).toBe(120);
  });

  it('accepts host names and refuses URLs, IPs and single labels', () => {
    expect(isHostName('app.acme.com')).toBe(true);
    expect(isHostName('acme-co.io')).toBe(true);
    expect(isHostName('localhost')).toBe(false);
    expect(isHostName('10.0.0.1')).toBe(false);
    expect(isHostName('https://acme.com')).toBe(false);
    expect(isHostName('-bad.acme.com')).toBe(false);
    expect(isHostName('acme..com')).toBe(false);
    expect(isHostName(`${'a'.repeat(64)}.com`)).toBe(false);
  });

  it('normalizes a host as the browser reports it', () => {
    expect(normalizeHost(' App.Acme.COM:8080 ')).toBe('app.acme.com');
    expect(normalizeHost('acme.com.')).toBe('acme.com');
  });

  it('accepts uploaded file srcs and http(s) URLs as media, nothing else', () => {
    expect(isMediaSrc('/api/files/content/abc123')).toBe(true);
    expect(isMediaSrc('/api/files/content/abc/video.mp4')).toBe(true);
    expect(isMediaSrc('https://youtu.be/xyz')).toBe(true);
    expect(isMediaSrc('http://cdn.example.com/a.png')).toBe(true);
    expect(isMediaSrc('/api/files/content/../../etc/passwd')).toBe(false);
    expect(isMediaSrc('/etc/passwd')).toBe(false);
    expect(isMediaSrc('javascript:alert(1)')).toBe(false);
    expect(isMediaSrc('ftp://example.com/a.png')).toBe(false);
    expect(isMediaSrc('not a url')).toBe(false);
  });

  it('accepts only real calendar days written YYYY-MM-DD', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2023-02-29')).toBe(false);
    expect(isCalendarDay('2024-13-01')).toBe(false);
    expect(isCalendarDay('2024-1-01')).toBe(false);
    expect(isCalendarDay('yesterday')).toBe(false);
  });

  it('defaults the range to the current month and makes the end day inclusive', () => {
    const range = dayRange(undefined, undefined, new Date('2024-02-14T10:00:00Z'))!;
    expect(range.start_date).toBe('2024-02-01');
    expect(range.end_date).toBe('2024-02-29');
    expect(range.from.toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(range.to.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(dayRange('2024-03-02', '2024-03-01')).toBeNull();
    expect(dayRange('2024-03-01', '2024-03-01')!.to.toISOString()).toBe('2024-03-02T00:00:00.000Z');
  });
});
