import { countWords } from '../ai/words';
import { WordLimit } from './word-limit';

describe('WordLimit', () => {
  it('passes text within the limit unchanged, across pieces split inside words', () => {
    const limit = new WordLimit(3);
    expect(['one tw', 'o thr', 'ee'].map((p) => limit.take(p)).join('')).toBe('one two three');
    expect(limit.reached).toBe(false);
  });

  it('cuts before the first word over the limit and then passes nothing', () => {
    const limit = new WordLimit(2);
    const out = ['one ', 'two three', ' four'].map((p) => limit.take(p)).join('');
    expect(out).toBe('one two ');
    expect(countWords(out)).toBe(2);
    expect(limit.reached).toBe(true);
  });

  it('lets nothing through with a limit of 0 words but leading spaces', () => {
    const limit = new WordLimit(0);
    expect(limit.take('  hi')).toBe('  ');
    expect(limit.reached).toBe(true);
  });
});
