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

  it('writes instants in UTC and lists of whole numbers as array literals', () => {
    expect(
      inlineStatement('SELECT $1, $2, $3', [new Date('2026-11-27T10:00:00+02:00'), [3, -1, 2], []]).sql,
    ).toBe("SELECT '2026-11-27T08:00:00.000Z', '{3,-1,2}', '{}'");
  });

  it.each([[[1, 2.5]], [['1']], [new Date(Number.NaN)]])('refuses %p', (value) => {
    expect(isInlineValue(value)).toBe(false);
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
