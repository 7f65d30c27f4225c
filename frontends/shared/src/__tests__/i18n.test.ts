import { assertSameKeys, commonEn, commonEs, translationKeyDiff } from '@avatar-studio/shared';

describe('translations', () => {
  it('common has the same keys in en and es', () => {
    assertSameKeys(commonEn, commonEs, 'common');
  });

  it('reports keys missing on either side', () => {
    expect(translationKeyDiff({ a: 'A', b: { c: 'C' } }, { a: 'A', d: 'D' })).toEqual({
      missingInEs: ['b.c'],
      missingInEn: ['d'],
    });
    expect(() => assertSameKeys({ a: 'A' }, {})).toThrow(/Missing in es: \[a\]/);
  });
});
