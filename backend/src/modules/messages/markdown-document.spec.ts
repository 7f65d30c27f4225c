import { Block, markdownToBlocks, runsText } from './markdown-document';

/** The text of a block that has runs ('' for code and rules). */
const textOf = (block: Block) => ('runs' in block ? runsText(block.runs) : '');

describe('markdownToBlocks', () => {
  it('keeps headings (deeper ones as level 3) and paragraphs with bold, italic and code runs', () => {
    const blocks = markdownToBlocks(
      '# Title\n\n## Part\n\n#### Deep\n\nSome **bold**, *italic*, ***both*** and `code`.\nNext line.',
    );
    expect(blocks.slice(0, 3)).toEqual([
      { type: 'heading', level: 1, runs: [{ text: 'Title' }] },
      { type: 'heading', level: 2, runs: [{ text: 'Part' }] },
      { type: 'heading', level: 3, runs: [{ text: 'Deep' }] },
    ]);
    expect(blocks[3]).toEqual({
      type: 'paragraph',
      runs: [
        { text: 'Some ' },
        { text: 'bold', bold: true },
        { text: ', ' },
        { text: 'italic', italic: true },
        { text: ', ' },
        { text: 'both', bold: true, italic: true },
        { text: ' and ' },
        { text: 'code', code: true },
        { text: '. Next line.' },
      ],
    });
  });

  it('numbers ordered lists from their start, bullets nested lists, and marks only the first paragraph of an item', () => {
    const blocks = markdownToBlocks('3. three\n4. four\n   - inner\n\n   more of four\n\n- a\n- b');
    expect(
      blocks.map((b) => (b.type === 'list_item' ? [b.depth, b.marker, runsText(b.runs)] : b.type)),
    ).toEqual([
      [0, '3.', 'three'],
      [0, '4.', 'four'],
      [1, '•', 'inner'],
      [0, null, 'more of four'],
      [0, '•', 'a'],
      [0, '•', 'b'],
    ]);
  });

  it('keeps fenced code as one block, rules, quotes, tables as rows and links with their address', () => {
    const blocks = markdownToBlocks(
      '```ts\nconst a = 1;\n  return a;\n```\n\n---\n\n> quoted\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\nSee [docs](https://example.com) or <https://x.org>.',
    );
    expect(blocks[0]).toEqual({ type: 'code', text: 'const a = 1;\n  return a;' });
    expect(blocks[1]).toEqual({ type: 'rule' });
    expect(blocks[2]).toEqual({ type: 'paragraph', quote: true, runs: [{ text: 'quoted', italic: true }] });
    expect(blocks[3]).toEqual({
      type: 'paragraph',
      runs: [{ text: 'A', bold: true }, { text: ' | ' }, { text: 'B', bold: true }],
    });
    expect(textOf(blocks[4])).toBe('1 | 2');
    expect(textOf(blocks[5])).toBe('See docs (https://example.com) or https://x.org.');
  });

  it('shows raw HTML as text and keeps hard line breaks', () => {
    const blocks = markdownToBlocks('<b>not bold</b>\n\nline one  \nline two');
    expect(textOf(blocks[0])).toBe('<b>not bold</b>');
    expect(textOf(blocks[1])).toBe('line one\nline two');
  });
});
