/**
 * Whitespace clean-up of text read from a user's file, in time linear in its length whatever the input: a
 * backtracking regex such as /[ \t]+$/gm rescans a long run of blanks from every position (quadratic), so the
 * one step that needs a run is a hand-written loop and the remaining regexes match one or two fixed characters.
 */

/** Characters read from a file before any clean-up (later ones are dropped): bounds the work of one file. */
export const MAX_RAW_TEXT_CHARS = 4_000_000;
/** Characters of clean text kept from one file. */
export const MAX_EXTRACTED_CHARS = 1_000_000;

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0xa0;
/** Where a line ends for trailing blanks, as `$` in a multiline regex (\r is already \n by then). */
const isLineEnd = (c: number) => c === 0x0a || c === 0x2028 || c === 0x2029;

/**
 * The text with \r\n and \r as \n, control characters other than tab and newline removed, no blanks (space,
 * tab, no-break space) at line ends, at most one blank line in a row, trimmed, and at most `maxChars` long.
 * Only the first MAX_RAW_TEXT_CHARS characters are read.
 */
export function tidyText(raw: string, maxChars = MAX_EXTRACTED_CHARS): string {
  let text = raw.length > MAX_RAW_TEXT_CHARS ? raw.slice(0, MAX_RAW_TEXT_CHARS) : raw;
  // Each of these matches one or two fixed characters at a time: linear.
  text = text.replace(/\r\n?/g, '\n');
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  text = collapseBlankLines(dropTrailingBlanks(text)).trim();
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/** Removes every run of blanks that ends a line or the text; one pass. */
export function dropTrailingBlanks(text: string): string {
  const parts: string[] = [];
  let kept = 0; // text[kept..] is not yet copied
  let run = -1; // start of the current run of blanks, or -1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) {
      if (run < 0) run = i;
    } else {
      if (run >= 0 && isLineEnd(c)) {
        parts.push(text.slice(kept, run));
        kept = i;
      }
      run = -1;
    }
  }
  parts.push(text.slice(kept, run >= 0 ? run : text.length));
  return parts.join('');
}

/** Three or more newlines in a row become two; one pass. */
export function collapseBlankLines(text: string): string {
  const parts: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== 0x0a) {
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && text.charCodeAt(end) === 0x0a) end++;
    if (end - i > 2) {
      parts.push(text.slice(kept, i + 2));
      kept = end;
    }
    i = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}
