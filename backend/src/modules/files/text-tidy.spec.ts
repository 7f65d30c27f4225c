import { MAX_RAW_TEXT_CHARS, tidyText } from './text-tidy';

/** The clean-up as it was written with regexes (quadratic on long blank runs): the reference for small inputs. */
function regexTidy(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/[ \t\u00a0]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

describe('tidyText', () => {
  it('gives the same text as the regex clean-up on random mixes of blanks, line ends and controls', () => {
    const alphabet = [' ', '\t', '\u00a0', '\n', '\r', '\r\n', '\u0001', '\u000b', '\u2028', 'a', 'é', 'b '];
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(random() * 40);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(JSON.stringify(tidyText(text))).toBe(JSON.stringify(regexTidy(text)));
    }
  });

  it('tidies trailing blanks, blank lines and controls', () => {
    expect(tidyText('  Hola \t\r\n\r\n\r\n\r\nfin\u0007 \u00a0\n\n')).toBe('Hola\n\nfin');
  });

  it('cleans a 1 MB run of blanks before text in linear time, keeping the text', () => {
    const text = ' '.repeat(1024 * 1024) + 'end of the line\nnext';
    const started = performance.now();
    expect(tidyText(text)).toBe('end of the line\nnext');
    const inner = 'x' + ' \t'.repeat(1024 * 1024) + 'y';
    // Compared as a boolean: a failing diff of megabyte strings would take the test runner minutes.
    expect(tidyText(inner + ' \n', 3_000_000) === inner).toBe(true);
    // The regex version needs minutes for this; the loop needs well under a second (bound generous for a loaded machine).
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('reads at most MAX_RAW_TEXT_CHARS characters and keeps at most maxChars', () => {
    const text = 'a'.repeat(MAX_RAW_TEXT_CHARS) + 'b'.repeat(10);
    expect(tidyText(text, MAX_RAW_TEXT_CHARS + 100)).toHaveLength(MAX_RAW_TEXT_CHARS);
    expect(tidyText('abc def', 3)).toBe('abc');
  });
});
