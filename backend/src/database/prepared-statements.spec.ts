import { MAX_PREPARED_STATEMENTS, prepared, preparedName } from './prepared-statements';

describe('prepared', () => {
  it('answers the text unchanged and gives each text one name of its own', () => {
    const a = 'SELECT 1 WHERE $1::int > 0 /* a */';
    const b = 'SELECT 2 WHERE $1::int > 0 /* b */';
    expect(prepared(a)).toBe(a);
    expect(prepared(b)).toBe(b);
    expect(prepared(a)).toBe(a);
    expect(preparedName(a)).toMatch(/^prepared_\d+$/);
    expect(preparedName(a)).not.toBe(preparedName(b));
    expect(preparedName('SELECT 3 /* never marked */')).toBeUndefined();
  });

  it('stops naming texts past the limit, which then run unprepared', () => {
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 5; i++) prepared(`SELECT ${i} /* limit */`);
    const named = Array.from({ length: MAX_PREPARED_STATEMENTS + 5 }, (_, i) =>
      preparedName(`SELECT ${i} /* limit */`),
    ).filter((name) => name !== undefined);
    expect(new Set(named).size).toBe(named.length);
    expect(named.length).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
    expect(preparedName(`SELECT ${MAX_PREPARED_STATEMENTS + 4} /* limit */`)).toBeUndefined();
    expect(prepared('SELECT 99 /* past the limit */')).toBe('SELECT 99 /* past the limit */');
  });
});
