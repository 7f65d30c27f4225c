import { DomainError } from '../../common/errors/domain-error';
import {
  missingValues,
  readField,
  parsePlaceholders,
  renderTemplate,
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

describe('embedded options [name[a/b/c]]', () => {
  it('reads the name and its options, deduplicated by name', () => {
    expect(parsePlaceholders('Write a [tone[formal/ casual /]] post about [topic], [tone]')).toEqual([
      { name: 'tone', options: ['formal', 'casual'] },
      { name: 'topic', options: null },
    ]);
  });

  it('derives a select field with those options, the first being the default', () => {
    const [tone, topic] = deriveFields('A [tone[formal/casual]] text on [topic]', undefined).map(readField);
    expect(tone).toMatchObject({
      name: 'tone',
      type: 'select',
      options: ['formal', 'casual'],
      value: 'formal',
    });
    expect(topic).toMatchObject({ name: 'topic', type: 'text', options: [] });
  });
});

describe('applying values', () => {
  it('replaces both placeholder forms and leaves unknown names as written', () => {
    expect(
      renderTemplate('A [tone[formal/casual]] text on [topic] for [who]', {
        tone: 'casual',
        topic: ' cats ',
      }),
    ).toBe('A casual text on cats for [who]');
  });

  it('lists every name whose value is missing or blank', () => {
    expect(missingValues(['a', 'b', 'c', 'd'], { a: 'x', b: '  ', d: 3 })).toEqual(['b', 'c', 'd']);
  });
});
