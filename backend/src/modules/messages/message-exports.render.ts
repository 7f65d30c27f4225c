import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  ShadingType,
  TextRun,
} from 'docx';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import { Block, markdownToBlocks, Run } from './markdown-document';

/** The formats a message can be exported to. */
export type ExportFormat = 'pdf' | 'word';

/** A message's markdown as a PDF or Word file (runs in a pool thread, see message-exports.worker). */
export function renderExport(format: ExportFormat, markdown: string): Promise<Buffer> {
  const blocks = markdownToBlocks(markdown);
  return format === 'pdf' ? renderPdf(blocks) : renderDocx(blocks);
}

/**
 * Liberation Sans (metric-compatible with Arial, Latin/Greek/Cyrillic) ships with pdfjs-dist, which pdf-parse
 * depends on; the PDF's 14 standard fonts only know Windows-1252. Used when present, else Helvetica.
 */
const LIBERATION = (() => {
  try {
    const dir = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
    const files = {
      regular: join(dir, 'LiberationSans-Regular.ttf'),
      bold: join(dir, 'LiberationSans-Bold.ttf'),
      italic: join(dir, 'LiberationSans-Italic.ttf'),
      boldItalic: join(dir, 'LiberationSans-BoldItalic.ttf'),
    };
    return Object.values(files).every((f) => existsSync(f)) ? files : null;
  } catch {
    return null;
  }
})();

const PDF_SIZES = { body: 11, code: 9.5, heading: { 1: 20, 2: 16, 3: 13 } } as const;
const INDENT = 18;

// ---------------------------------------------------------------------------------------------- PDF

type PdfDoc = InstanceType<typeof PDFDocument>;

function renderPdf(blocks: Block[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: 'Message', Creator: 'Avatar Studio' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    if (LIBERATION) {
      doc.registerFont('body', LIBERATION.regular);
      doc.registerFont('body-bold', LIBERATION.bold);
      doc.registerFont('body-italic', LIBERATION.italic);
      doc.registerFont('body-bold-italic', LIBERATION.boldItalic);
    }
    try {
      const left = doc.page.margins.left;
      const width = () => doc.page.width - doc.page.margins.left - doc.page.margins.right;
      blocks.forEach((block, i) => {
        if (i) doc.moveDown(block.type === 'list_item' ? 0.2 : 0.6);
        switch (block.type) {
          case 'heading':
            if (i) doc.moveDown(0.3);
            writeRuns(doc, block.runs, PDF_SIZES.heading[block.level], left, width(), true);
            break;
          case 'paragraph': {
            const x = left + (block.quote ? INDENT : 0);
            writeRuns(doc, block.runs, PDF_SIZES.body, x, width() - (x - left), false);
            break;
          }
          case 'list_item': {
            const x = left + INDENT * (block.depth + 1);
            const runs = block.marker ? [{ text: `${block.marker} ` }, ...block.runs] : block.runs;
            writeRuns(doc, runs, PDF_SIZES.body, x, width() - (x - left), false);
            break;
          }
          case 'code':
            doc
              .font('Courier')
              .fontSize(PDF_SIZES.code)
              .fillColor('#333333')
              .text(breakLongWords(winAnsi(block.text)) || ' ', left + INDENT / 2, doc.y, {
                width: width() - INDENT / 2,
              })
              .fillColor('black');
            break;
          case 'rule': {
            const y = doc.y + 4;
            doc
              .moveTo(left, y)
              .lineTo(left + width(), y)
              .lineWidth(0.5)
              .strokeColor('#999999')
              .stroke();
            doc.y = y + 4;
            break;
          }
        }
      });
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

function writeRuns(doc: PdfDoc, runs: Run[], size: number, x: number, width: number, bold: boolean): void {
  const parts = runs.filter((r) => r.text);
  if (!parts.length) {
    doc.fontSize(size).text(' ', x, doc.y, { width });
    return;
  }
  parts.forEach((run, i) => {
    const continued = i < parts.length - 1;
    doc.font(pdfFont(run, bold)).fontSize(run.code ? size * 0.92 : size);
    const text = breakLongWords(run.code || !LIBERATION ? winAnsi(run.text) : run.text);
    if (i === 0) doc.text(text, x, doc.y, { width, continued, lineGap: 2 });
    else doc.text(text, { continued });
  });
}

function pdfFont(run: Run, headingBold: boolean): string {
  if (run.code) return 'Courier';
  const bold = headingBold || run.bold;
  if (LIBERATION)
    return bold && run.italic ? 'body-bold-italic' : bold ? 'body-bold' : run.italic ? 'body-italic' : 'body';
  return bold && run.italic
    ? 'Helvetica-BoldOblique'
    : bold
      ? 'Helvetica-Bold'
      : run.italic
        ? 'Helvetica-Oblique'
        : 'Helvetica';
}

/**
 * pdfkit wraps a word wider than the line one character at a time, in quadratic time (65000 characters without
 * a space take minutes): such words are cut into pieces that are placed on lines of their own.
 */
const LONG_WORD = /\S{50,}/g;
function breakLongWords(text: string): string {
  return text.replace(LONG_WORD, (word) => word.match(/.{1,50}/gsu)!.join('\n'));
}

/** The standard fonts only encode Windows-1252: other characters become '?' rather than garbage. */
function winAnsi(text: string): string {
  const extra = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
  return Array.from(text, (ch) => {
    const code = ch.codePointAt(0)!;
    return code === 10 ||
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      extra.includes(ch)
      ? ch
      : '?';
  }).join('');
}

// ---------------------------------------------------------------------------------------------- Word

function renderDocx(blocks: Block[]): Promise<Buffer> {
  const children = blocks.map(docxParagraph);
  const doc = new Document({
    creator: 'Avatar Studio',
    title: 'Message',
    styles: { default: { document: { run: { font: 'Calibri', size: 22 } } } },
    sections: [{ children: children.length ? children : [new Paragraph('')] }],
  });
  return Packer.toBuffer(doc);
}

const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;

function docxParagraph(block: Block): Paragraph {
  switch (block.type) {
    case 'heading':
      return new Paragraph({ heading: HEADINGS[block.level], children: docxRuns(block.runs) });
    case 'paragraph':
      return new Paragraph({
        children: docxRuns(block.runs),
        ...(block.quote
          ? {
              indent: { left: 567 },
              border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
            }
          : {}),
        spacing: { after: 120 },
      });
    case 'list_item': {
      // Markers are written as text so that numbering restarts and start numbers ("3.") stay as written.
      const left = 360 * (block.depth + 1) + 360;
      return new Paragraph({
        alignment: AlignmentType.LEFT,
        indent: block.marker ? { left, hanging: 360 } : { left },
        spacing: { after: 60 },
        children: block.marker
          ? [new TextRun(`${block.marker}\t`), ...docxRuns(block.runs)]
          : docxRuns(block.runs),
        tabStops: [{ type: 'left', position: left }],
      });
    }
    case 'code':
      return new Paragraph({
        shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F3F3F3' },
        spacing: { after: 120 },
        children: block.text
          .split('\n')
          .map(
            (line, i) => new TextRun({ text: line, font: 'Courier New', size: 19, break: i ? 1 : undefined }),
          ),
      });
    case 'rule':
      return new Paragraph({
        border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } },
        children: [],
      });
  }
}

function docxRuns(runs: Run[]): TextRun[] {
  const out: TextRun[] = [];
  for (const run of runs) {
    run.text.split('\n').forEach((piece, i) => {
      out.push(
        new TextRun({
          text: piece,
          bold: run.bold,
          italics: run.italic,
          font: run.code ? 'Courier New' : undefined,
          break: i ? 1 : undefined,
        }),
      );
    });
  }
  return out;
}
