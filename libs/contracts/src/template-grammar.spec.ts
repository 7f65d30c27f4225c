import {
  parsePlaceholders,
  placeholderOccurrences,
  replacePlaceholders,
  scanPlaceholders,
} from './template-grammar';

/** The grammar as it was written as a regex (backtracking): the reference the scanner must equal. */
const REGEX = /\[([^[\]]+?)(?:\[([^[\]]*)\])?\]/g;

function regexMatches(content: string) {
  return Array.from(content.matchAll(REGEX), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    rawName: m[1],
    rawOptions: m[2] ?? null,
  }));
}

describe('template placeholder scanner', () => {
  it('finds exactly the matches of the regex grammar on random bracket soups', () => {
    const alphabet = ['[', ']', '[', ']', 'a', 'b', ' ', '/', '\n', '[[', ']]'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 5000; n++) {
      const length = Math.floor(random() * 30);
      const content = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(scanPlaceholders(content)).toEqual(regexMatches(content));
      expect(replacePlaceholders(content, (m) => `<${m.rawName}>`)).toBe(
        content.replace(REGEX, (_, name: string) => `<${name}>`),
      );
    }
  });

  it('reads both forms, trims names and options, keeps first appearances', () => {
    expect(placeholderOccurrences('[ a ] [b[x/ y /]] [] [ ] [c[]] [a]')).toEqual([
      { name: 'a', options: null },
      { name: 'b', options: ['x', 'y'] },
      { name: 'c', options: null },
      { name: 'a', options: null },
    ]);
    expect(parsePlaceholders('[a[1/2]] [a[3]] [b]')).toEqual([
      { name: 'a', options: ['1', '2'] },
      { name: 'b', options: null },
    ]);
  });

  it('parses 1 MB of bracket runs (adversarial for a backtracking grammar) in well under a second', () => {
    const inputs = [
      '[' + 'a'.repeat(1024 * 1024),
      '[a['.repeat(350_000),
      ('[' + 'x'.repeat(100) + '[' + 'y'.repeat(100)).repeat(5000),
      '[ '.repeat(512 * 1024),
    ];
    for (const content of inputs) {
      const started = Date.now();
      parsePlaceholders(content);
      replacePlaceholders(content, () => '');
      // Milliseconds in practice; the bound is generous for a loaded machine.
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('deduplicates 140,000 distinct placeholders (1 MB) in linear time', () => {
    const content = Array.from({ length: 140_000 }, (_, i) => `[p${i}]`).join('');
    const started = Date.now();
    const found = parsePlaceholders(content);
    // Searching a list for each name took minutes here; a map takes well under a second, but allocating 140,000
    // results is slow on a loaded host, so the bound is wider than for the bracket runs.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(found).toHaveLength(140_000);
    expect(found[139_999]).toEqual({ name: 'p139999', options: null });
  });
});
