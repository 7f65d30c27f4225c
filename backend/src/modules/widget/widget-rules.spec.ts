import { normalizeOrigin, startOfUtcDay, storedAccent, widgetKeyOfPath } from './widget-rules';

describe('widget rules', () => {
  it('keeps an origin as the browser sends it and refuses anything more', () => {
    expect(normalizeOrigin('https://www.Example.com')).toBe('https://www.example.com');
    expect(normalizeOrigin(' http://localhost:8080/ ')).toBe('http://localhost:8080');
    expect(normalizeOrigin('https://example.com:443')).toBe('https://example.com');
    expect(normalizeOrigin('https://example.com/page')).toBeNull();
    expect(normalizeOrigin('https://example.com/?a=1')).toBeNull();
    expect(normalizeOrigin('https://user:pw@example.com')).toBeNull();
    expect(normalizeOrigin('ftp://example.com')).toBeNull();
    expect(normalizeOrigin('javascript:alert(1)')).toBeNull();
    expect(normalizeOrigin('example.com')).toBeNull();
  });

  it('reads the widget key of a visitor route, and only of one', () => {
    const key = 'wk_0123456789abcdef01234567';
    expect(widgetKeyOfPath(`/api/widget/${key}/sessions`)).toBe(key);
    expect(widgetKeyOfPath(`/api/widget/${key}/messages?x=1`)).toBe(key);
    expect(widgetKeyOfPath(`/api/widget/${key}`)).toBe(key);
    expect(widgetKeyOfPath(`/api/widgets/${key}`)).toBeNull();
    expect(widgetKeyOfPath(`/api/widget/${key}0/sessions`)).toBeNull();
  });

  it('stores the accent without # in lower case, and counts the day from midnight UTC', () => {
    expect(storedAccent('#FF0000')).toBe('ff0000');
    expect(storedAccent('00aa11')).toBe('00aa11');
    expect(startOfUtcDay(new Date('2026-03-04T23:59:00-05:00')).toISOString()).toBe(
      '2026-03-05T00:00:00.000Z',
    );
  });
});
