import { DomainError } from '../../common/errors/domain-error';
import { normalizeModel, normalizeTags } from './conversation-rules';

describe('normalizeTags', () => {
  it('splits, trims, drops empty pieces and repeats from a comma string', () => {
    expect(normalizeTags(' a, b ,,a,c, ')).toEqual(['a', 'b', 'c']);
  });

  it('treats commas inside array items as separators', () => {
    expect(normalizeTags(['x,y', ' y ', 'z'])).toEqual(['x', 'y', 'z']);
  });

  it('gives no tags for null, undefined and an empty string', () => {
    expect(normalizeTags(null)).toEqual([]);
    expect(normalizeTags(undefined)).toEqual([]);
    expect(normalizeTags('')).toEqual([]);
  });

  it('refuses a tag over 100 characters and more than 20 tags', () => {
    expect(() => normalizeTags('a'.repeat(101))).toThrow(DomainError);
    expect(normalizeTags('a'.repeat(100))).toHaveLength(1);
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(() => normalizeTags(many)).toThrow('A conversation can have at most 20 tags.');
    expect(normalizeTags(many.slice(0, 20))).toHaveLength(20);
  });
});

describe('normalizeModel', () => {
  it('maps Unset and null to null and keeps undefined as "unchanged"', () => {
    expect(normalizeModel('Unset')).toBeNull();
    expect(normalizeModel(null)).toBeNull();
    expect(normalizeModel(undefined)).toBeUndefined();
    expect(normalizeModel('gpt-4o-mini')).toBe('gpt-4o-mini');
  });
});
