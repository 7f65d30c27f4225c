import { DomainError } from '../../common/errors/domain-error';
import {
  REPEATED_FIELDS,
  deriveFields,
  joinOptions,
  normalizeTags,
  placeholders,
  splitOptions,
  type FieldError,
} from './template-rules';

describe('select options', () => {
  it('writes each option followed by a slash and reads by dropping the piece after the final slash', () => {
    expect(joinOptions(['a', 'b'])).toBe('a/b/');
    expect(splitOptions('a/b/')).toEqual(['a', 'b']);
    expect(splitOptions('a/b')).toEqual(['a']);
    expect(splitOptions('')).toEqual([]);
    expect(splitOptions(null)).toEqual([]);
  });
});

describe('placeholders', () => {
  it('lists bracket names once, in order of first appearance, trimmed, skipping blanks', () => {
    expect(placeholders('[b] [ a ] [b] [] [ ] [c]')).toEqual(['b', 'a', 'c']);
  });
});

describe('deriveFields', () => {
  it('flags a repeated name in the given fields once', () => {
    const errors: FieldError[] = [];
    deriveFields('[x]', [{ name: 'x' }, { name: 'x' }, { name: 'x' }], [], errors);
    expect(errors).toEqual([{ field: 'content', message: REPEATED_FIELDS }]);
  });

  it('keeps previous settings for names still in the content', () => {
    const previous = [{ name: 'x', label: 'X', type: 'number' as const, options: '', order: 1 }];
    expect(deriveFields('[y] [x]', undefined, previous)).toEqual([
      { name: 'y', label: 'y', type: 'text', options: '', order: 1 },
      { name: 'x', label: 'X', type: 'number', options: '', order: 2 },
    ]);
  });
});

describe('normalizeTags', () => {
  it('splits, trims and deduplicates, and refuses more than 20', () => {
    expect(normalizeTags(' a, b ,,a')).toEqual(['a', 'b']);
    expect(() => normalizeTags(Array.from({ length: 21 }, (_, i) => `t${i}`))).toThrow(DomainError);
  });
});
