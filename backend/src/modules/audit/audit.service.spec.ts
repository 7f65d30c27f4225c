import { sanitizeDetails } from './audit.service';

describe('audit details', () => {
  it('drops keys that could hold a secret, whatever their case', () => {
    expect(
      sanitizeDetails({
        words: 5,
        link: 'https://x/reset?token=abc',
        Token: 'abc',
        password: 'p',
        api_key: 'as_1',
        apiKey: 'as_2',
        secret_value: 's',
        settings: ['stripe_private_key'],
      }),
    ).toEqual({ words: 5, settings: ['stripe_private_key'] });
  });

  it('keeps only small flat values: short strings, short arrays of scalars, no nested objects', () => {
    const out = sanitizeDetails({
      long: 'x'.repeat(500),
      when: new Date('2026-01-02T03:04:05Z'),
      nested: { a: 1 },
      list: [1, 'a', { b: 2 }, ...Array.from({ length: 60 }, (_, i) => i)],
    });
    expect((out.long as string).length).toBe(200);
    expect(out.when).toBe('2026-01-02T03:04:05.000Z');
    expect(out.nested).toBeUndefined();
    expect((out.list as unknown[]).length).toBe(50);
    expect((out.list as unknown[]).slice(0, 3)).toEqual([1, 'a', 0]);
  });

  it('replaces details that are still too large with a marker', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(100)]));
    expect(sanitizeDetails(many)).toEqual({ truncated: true });
  });
});
