import { DomainError } from '../errors/domain-error';
import { IdPipe, MAX_ID } from './id-param';

describe('IdPipe', () => {
  const pipe = new IdPipe();

  it('reads whole numbers from 1 to the int ceiling', () => {
    expect(pipe.transform('1')).toBe(1);
    expect(pipe.transform(String(MAX_ID))).toBe(MAX_ID);
  });

  it('accepts a number already converted by the global validation pipe, with the same rules', () => {
    expect(pipe.transform(42)).toBe(42);
    expect(() => pipe.transform(Number.NaN)).toThrow(DomainError);
    expect(() => pipe.transform(1.5)).toThrow(DomainError);
  });

  it.each(['0', '-1', '1.5', 'abc', '', ' 1', '1e3', String(MAX_ID + 1), '99999999999'])(
    'answers 400 invalid_id for %j',
    (value) => {
      expect(() => pipe.transform(value)).toThrow(DomainError);
      try {
        pipe.transform(value);
      } catch (err) {
        expect((err as DomainError).code).toBe('invalid_id');
      }
    },
  );
});
