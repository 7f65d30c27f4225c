import { openingStatement } from './unit-of-work';

describe('openingStatement', () => {
  it('writes whole numbers into the statement', () => {
    expect(openingStatement([42, 7], (a, b) => `SELECT ${a} + ${b}`).sql).toBe('SELECT 42 + 7');
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses %p', (value) => {
    expect(() => openingStatement([value], (a) => `SELECT ${a}`)).toThrow(TypeError);
  });

  it('refuses text passed as a number', () => {
    const text = '1; DROP TABLE users' as unknown as number;
    expect(() => openingStatement([text], (a) => `SELECT ${a}`)).toThrow(TypeError);
  });
});
