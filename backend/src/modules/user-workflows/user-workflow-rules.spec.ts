import { DomainError } from '../../common/errors/domain-error';
import { parseValues, requireValues, VALUES_FORMAT } from './user-workflow-rules';

const failure = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
  }
  throw new Error('expected a DomainError');
};

describe('parseValues', () => {
  it('reads the comma string: the first "=" separates name and value, both trimmed', () => {
    expect(parseValues(' topic = cats , formula=a=b,, tone=formal ,')).toEqual({
      topic: 'cats',
      formula: 'a=b',
      tone: 'formal',
    });
    expect(parseValues('')).toEqual({});
  });

  it('reads an object of texts, numbers as text', () => {
    expect(parseValues({ ' topic ': ' cats ', n: 3 })).toEqual({ topic: 'cats', n: '3' });
  });

  it('refuses a piece without "=" or without a name, and non-text values', () => {
    expect(failure(() => parseValues('topic=cats, tone')).message).toBe(VALUES_FORMAT);
    expect(failure(() => parseValues('=cats')).code).toBe('invalid_values');
    expect(failure(() => parseValues({ topic: ['a'] })).code).toBe('invalid_values');
    expect(failure(() => parseValues(42)).code).toBe('invalid_values');
  });
});

describe('requireValues', () => {
  it('names every field without a value', () => {
    const err = failure(() => requireValues(['a', 'b', 'c'], { a: 'x', b: '' }));
    expect(err).toMatchObject({ status: 400, code: 'missing_values', details: { missing: ['b', 'c'] } });
    expect(err.message).toBe('Every field needs a value. Missing: b, c.');
  });

  it('keeps the needed values in field order and drops the others', () => {
    expect(Object.entries(requireValues(['b', 'a'], { a: '1', z: '9', b: '2' }))).toEqual([
      ['b', '2'],
      ['a', '1'],
    ]);
  });
});
