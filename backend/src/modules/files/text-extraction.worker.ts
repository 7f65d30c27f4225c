/**
 * Runs in a thread of the worker pool (see common/workers): reads the text of one document and tidies it, so
 * that neither the parsing nor the clean-up of a user's file ever runs on the event loop. Libraries: pdf-parse
 * (pdf.js), mammoth (docx), jszip (pptx: <a:t> runs of ppt/slides/slideN.xml in slide order, one line per
 * paragraph). Only plain values cross the thread boundary.
 */
import { inflateRawSync } from 'node:zlib';
import { returnWithTransfer } from '../../common/workers/transfer';
import { readCentralDirectory } from './file-type';
import { MAX_RAW_TEXT_CHARS, tidyText } from './text-tidy';

export interface ExtractionInput {
  kind: 'docx' | 'pdf' | 'pptx' | 'text';
  data: Uint8Array;
  maxChars: number;
}

/** `data` is the input's bytes, handed back. */
export type ExtractionOutput = ({ text: string } | { error: string }) & { data: Uint8Array };

export const ZIP_BOMB = 'The document is damaged, or its parts are larger than they declare.';

export default async function extract({ kind, data, maxChars }: ExtractionInput): Promise<ExtractionOutput> {
  let result: { text: string } | { error: string };
  try {
    const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    result = { text: tidyText(await read(kind, buffer), maxChars) };
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
  }
  return returnWithTransfer({ ...result, data }, [data.buffer as ArrayBuffer]);
}

async function read(kind: ExtractionInput['kind'], data: Buffer): Promise<string> {
  switch (kind) {
    case 'text':
      return decodeUtf8Start(data);
    case 'docx':
      checkInflatedSizes(data);
      return capped(await docx(data));
    case 'pptx':
      checkInflatedSizes(data);
      return capped(await pptx(data));
    case 'pdf':
      return capped(await pdf(data));
  }
}

/** The first MAX_RAW_TEXT_CHARS characters' worth of UTF-8 (a character cut at the end is left out), no BOM. */
function decodeUtf8Start(data: Buffer): string {
  // At most 3 bytes per UTF-16 unit, so this many bytes always hold the characters kept.
  const bytes = data.subarray(0, MAX_RAW_TEXT_CHARS * 3);
  const text = new TextDecoder('utf-8').decode(bytes, { stream: bytes.length < data.length });
  return capped(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

function capped(text: string): string {
  return text.length > MAX_RAW_TEXT_CHARS ? text.slice(0, MAX_RAW_TEXT_CHARS) : text;
}

/**
 * detectFileType bounded what the zip's entries declare; this checks that each one really inflates to no more
 * than it declares (zlib stops at the limit, so a bomb never gets the memory it asks for).
 */
function checkInflatedSizes(data: Buffer): void {
  let entries: ReturnType<typeof readCentralDirectory>;
  try {
    entries = readCentralDirectory(data);
  } catch {
    throw new Error(ZIP_BOMB);
  }
  for (const entry of entries) {
    const at = entry.localHeaderOffset;
    if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) throw new Error(ZIP_BOMB);
    const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const raw = data.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.uncompressedSize) throw new Error(ZIP_BOMB);
      continue;
    }
    if (entry.method !== 8) throw new Error(ZIP_BOMB);
    try {
      inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch {
      throw new Error(ZIP_BOMB);
    }
  }
}

async function pdf(data: Buffer): Promise<string> {
  const { PDFParse } = (await import('pdf-parse')) as typeof import('pdf-parse');
  const parser = new PDFParse({ data });
  try {
    // No "-- 1 of 3 --" page markers: pages are separated by a blank line.
    return (await parser.getText({ pageJoiner: '' })).text;
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

async function docx(data: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')) as typeof import('mammoth');
  return (await mammoth.extractRawText({ buffer: data })).value;
}

async function pptx(data: Buffer): Promise<string> {
  const { default: JSZip } = (await import('jszip')) as { default: typeof import('jszip') };
  const zip = await JSZip.loadAsync(data);
  const slides = Object.keys(zip.files)
    // Anchored at both ends, on a zip entry name: linear.
    .map((name) => ({ name, n: /^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] }))
    .filter((s): s is { name: string; n: string } => s.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  const parts: string[] = [];
  for (const slide of slides) {
    const xml = await zip.file(slide.name)!.async('string');
    const paragraphs = xml.split('</a:p>').map((p) => textRuns(p).map(decodeXml).join(''));
    parts.push(paragraphs.filter((p) => p.trim()).join('\n'));
  }
  return parts.filter((p) => p).join('\n\n');
}

/** The texts of the `<a:t>` / `<a:t attr…>` elements of a slide paragraph, by scanning (linear). */
function textRuns(xml: string): string[] {
  const runs: string[] = [];
  let at = xml.indexOf('<a:t');
  while (at >= 0) {
    const after = xml.charCodeAt(at + 4);
    // `<a:t>` or `<a:t` followed by whitespace and attributes; not `<a:tab>`, `<a:tbl>`…
    if (after === 0x3e || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d) {
      const open = xml.indexOf('>', at);
      if (open < 0) break;
      const close = xml.indexOf('<', open + 1);
      if (close < 0) break;
      if (xml.startsWith('</a:t>', close)) runs.push(xml.slice(open + 1, close));
      at = xml.indexOf('<a:t', close);
    } else at = xml.indexOf('<a:t', at + 4);
  }
  return runs;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  // Each match starts at "&" and cannot contain another "&": every character is read at most twice.
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const e = entity.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e];
  });
}
