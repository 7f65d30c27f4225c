import { inlineStatement, isInlineValue } from './unit-of-work';

describe('inlineStatement', () => {
  it('writes whole numbers, booleans, null and plain names in place of the parameters', () => {
    expect(
      inlineStatement('SELECT $1, $2, $3, $4, $10', [42, true, null, 'message:12', 0, 0, 0, 0, 0, -7]).sql,
    ).toBe("SELECT 42, TRUE, NULL, 'message:12', -7");
    expect(inlineStatement('SELECT $1', ['enhance:0b6c2f1e-4a5d-4c1e-9f3a-2d7e8b9c0a1f']).sql).toBe(
      "SELECT 'enhance:0b6c2f1e-4a5d-4c1e-9f3a-2d7e8b9c0a1f'",
    );
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses the number %p', (value) => {
    expect(isInlineValue(value)).toBe(false);
    expect(() => inlineStatement('SELECT $1', [value])).toThrow(TypeError);
  });

  it.each(["it's", 'a b', 'x\\', '$1', 'é', 'x'.repeat(121)])('refuses the text %p', (value) => {
    expect(isInlineValue(value)).toBe(false);
    expect(() => inlineStatement('SELECT $1', [value])).toThrow(TypeError);
  });

  it('refuses a parameter without a value', () => {
    expect(() => inlineStatement('SELECT $1, $2', [1])).toThrow(TypeError);
  });
});
