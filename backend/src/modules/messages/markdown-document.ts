import MarkdownIt from 'markdown-it';
type Token = MarkdownIt.Token;

/** A run of text with one formatting. `\n` inside `text` is a hard line break. */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

/**
 * What the PDF and Word writers render: a flat list of blocks. List items carry their marker ('•', '3.') and
 * depth; a later paragraph of the same item has marker null. Quotes are paragraphs with `quote`.
 */
export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; runs: Run[] }
  | { type: 'paragraph'; runs: Run[]; quote?: boolean }
  | { type: 'list_item'; depth: number; marker: string | null; ordered: boolean; runs: Run[] }
  | { type: 'code'; text: string }
  | { type: 'rule' };

// Raw HTML is shown as text (never interpreted); tables and strikethrough as in the chat's rendering.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });

interface ListState {
  ordered: boolean;
  next: number;
}

/** Parses markdown (as the AI writes it) into blocks; anything unknown degrades to its text. */
export function markdownToBlocks(markdown: string): Block[] {
  const tokens = md.parse(markdown, {});
  const blocks: Block[] = [];
  const lists: ListState[] = [];
  let quote = 0;
  // The marker of the list item being read, consumed by its first paragraph.
  let pendingMarker: string | null = null;
  let heading: 1 | 2 | 3 | null = null;
  let tableRow: Run[][] | null = null;
  let cellHeader = false;

  for (const token of tokens) {
    switch (token.type) {
      case 'heading_open':
        heading = Math.min(3, Number(token.tag.slice(1))) as 1 | 2 | 3;
        break;
      case 'heading_close':
        heading = null;
        break;
      case 'bullet_list_open':
        lists.push({ ordered: false, next: 0 });
        break;
      case 'ordered_list_open':
        lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        pendingMarker = list?.ordered ? `${list.next++}.` : '•';
        break;
      }
      case 'list_item_close':
        // An item with no paragraph of its own (e.g. only a nested list) still shows its marker.
        if (pendingMarker !== null) {
          pushListItem(blocks, lists, pendingMarker, []);
          pendingMarker = null;
        }
        break;
      case 'blockquote_open':
        quote++;
        break;
      case 'blockquote_close':
        quote--;
        break;
      case 'tr_open':
        tableRow = [];
        break;
      case 'th_open':
      case 'td_open':
        cellHeader = token.type === 'th_open';
        break;
      case 'tr_close':
        if (tableRow) blocks.push({ type: 'paragraph', runs: joinCells(tableRow) });
        tableRow = null;
        break;
      case 'inline': {
        let runs = inlineRuns(token.children ?? []);
        if (tableRow) {
          tableRow.push(cellHeader ? runs.map((r) => ({ ...r, bold: true })) : runs);
        } else if (heading) {
          blocks.push({ type: 'heading', level: heading, runs });
        } else if (lists.length) {
          pushListItem(blocks, lists, pendingMarker, runs);
          pendingMarker = null;
        } else {
          if (quote) runs = runs.map((r) => ({ ...r, italic: true }));
          blocks.push(quote ? { type: 'paragraph', runs, quote: true } : { type: 'paragraph', runs });
        }
        break;
      }
      case 'fence':
      case 'code_block':
        blocks.push({ type: 'code', text: token.content.replace(/\n$/, '') });
        break;
      case 'hr':
        blocks.push({ type: 'rule' });
        break;
      case 'html_block':
        blocks.push({ type: 'paragraph', runs: [{ text: token.content.replace(/\n$/, '') }] });
        break;
      default:
        break;
    }
  }
  return blocks;
}

function pushListItem(blocks: Block[], lists: ListState[], marker: string | null, runs: Run[]): void {
  const list = lists[lists.length - 1];
  blocks.push({ type: 'list_item', depth: lists.length - 1, marker, ordered: list?.ordered ?? false, runs });
}

function joinCells(cells: Run[][]): Run[] {
  const runs: Run[] = [];
  cells.forEach((cell, i) => {
    if (i) runs.push({ text: ' | ' });
    runs.push(...cell);
  });
  return runs;
}

/** Inline tokens as runs: bold, italic and code kept, links as their text (then the address when it differs). */
function inlineRuns(children: Token[]): Run[] {
  const runs: Run[] = [];
  let bold = 0;
  let italic = 0;
  let href: string | null = null;
  let linkText = '';
  const add = (text: string, code = false) => {
    if (!text) return;
    if (href !== null) linkText += text;
    const run: Run = { text };
    if (bold) run.bold = true;
    if (italic) run.italic = true;
    if (code) run.code = true;
    const last = runs[runs.length - 1];
    if (last && !!last.bold === !!run.bold && !!last.italic === !!run.italic && !!last.code === !!run.code) {
      last.text += text;
    } else {
      runs.push(run);
    }
  };
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'html_inline':
        add(child.content);
        break;
      case 'code_inline':
        add(child.content, true);
        break;
      case 'strong_open':
        bold++;
        break;
      case 'strong_close':
        bold--;
        break;
      case 'em_open':
        italic++;
        break;
      case 'em_close':
        italic--;
        break;
      case 'softbreak':
        add(' ');
        break;
      case 'hardbreak':
        add('\n');
        break;
      case 'image':
        add(child.content || String(child.attrGet('alt') ?? ''));
        break;
      case 'link_open':
        href = String(child.attrGet('href') ?? '');
        linkText = '';
        break;
      case 'link_close': {
        const url = href;
        href = null;
        if (url && url !== linkText && `mailto:${linkText}` !== url) add(` (${url})`);
        break;
      }
      default:
        break;
    }
  }
  return runs;
}

/** The plain text of runs (for names, tests and fallbacks). */
export function runsText(runs: Run[]): string {
  return runs.map((r) => r.text).join('');
}
