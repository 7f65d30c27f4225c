import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { inflateRaw } from 'node:zlib';
import { readCentralDirectory, type FileKind } from './file-type';

const inflateRawAsync = promisify(inflateRaw);

/** The kinds whose text we can read. */
export const TEXT_KINDS: readonly FileKind[] = ['docx', 'pdf', 'pptx', 'text'];

/** A document could not be read (damaged, encrypted, too demanding...); callers turn it into a 400. */
export class TextExtractionFailed extends Error {}

/** Limits of one document read: real documents stay far below, PDF and zip bombs do not. */
export const EXTRACTION_LIMITS = { timeoutMs: 30_000, maxHeapMb: 512 };

/**
 * The plain text of a docx, pdf, pptx or UTF-8 text file, whitespace tidied (no trailing spaces, at most one
 * blank line in a row). Empty when the file holds no text (a scanned PDF, an empty slide deck). The caller has
 * already typed the bytes by content (detectFileType, which checks the zip's declared sizes).
 */
export async function extractText(data: Buffer, kind: FileKind): Promise<string> {
  switch (kind) {
    case 'text':
      return tidy(data.toString('utf8').replace(/^\uFEFF/, ''));
    case 'docx':
    case 'pptx':
      await checkInflatedSizes(data);
      return tidy(await inWorker(kind, data));
    case 'pdf':
      return tidy(await inWorker(kind, data));
    default:
      throw new TextExtractionFailed(`No text can be read from a ${kind} file.`);
  }
}

const ZIP_BOMB = 'The document is damaged, or its parts are larger than they declare.';

/**
 * detectFileType bounded what the zip's entries declare; this checks that each one really inflates to no more
 * than it declares (zlib stops at the limit, so a bomb never gets the memory it asks for), on the thread pool.
 */
async function checkInflatedSizes(data: Buffer): Promise<void> {
  let entries: ReturnType<typeof readCentralDirectory>;
  try {
    entries = readCentralDirectory(data);
  } catch {
    throw new TextExtractionFailed(ZIP_BOMB);
  }
  for (const entry of entries) {
    const at = entry.localHeaderOffset;
    if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50)
      throw new TextExtractionFailed(ZIP_BOMB);
    const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const raw = data.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.uncompressedSize) throw new TextExtractionFailed(ZIP_BOMB);
      continue;
    }
    if (entry.method !== 8) throw new TextExtractionFailed(ZIP_BOMB);
    try {
      await inflateRawAsync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch {
      throw new TextExtractionFailed(ZIP_BOMB);
    }
  }
}

/**
 * Documents are parsed in a worker thread with a time and heap cap: parsing is CPU-heavy, and a hostile file
 * (a zip entry that inflates far beyond what it declares, a PDF that never ends) must fail alone instead of
 * stalling or exhausting the server. pdf.js also loads its own worker with a dynamic import, which needs a real
 * Node context. Libraries: pdf-parse (pdf.js), mammoth (docx), jszip (pptx: <a:t> runs of ppt/slides/slideN.xml
 * in slide order, one line per paragraph).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { kind, data, modules } = workerData;

function decodeXml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\\d+|amp|lt|gt|quot|apos);/gi, (_, entity) => {
    const e = entity.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e];
  });
}

async function pdf() {
  const { PDFParse } = require(modules.pdf);
  const parser = new PDFParse({ data });
  try {
    // No "-- 1 of 3 --" page markers: pages are separated by a blank line.
    return (await parser.getText({ pageJoiner: '' })).text;
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

async function docx() {
  const mammoth = require(modules.mammoth);
  return (await mammoth.extractRawText({ buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) })).value;
}

async function pptx() {
  const JSZip = require(modules.jszip);
  const zip = await JSZip.loadAsync(data);
  const slides = Object.keys(zip.files)
    .map((name) => ({ name, n: (/^ppt\\/slides\\/slide(\\d+)\\.xml$/.exec(name) || [])[1] }))
    .filter((s) => s.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  const parts = [];
  for (const slide of slides) {
    const xml = await zip.file(slide.name).async('string');
    const paragraphs = xml
      .split(/<\\/a:p>/)
      .map((p) => Array.from(p.matchAll(/<a:t(?:\\s[^>]*)?>([^<]*)<\\/a:t>/g), (m) => decodeXml(m[1])).join(''));
    parts.push(paragraphs.filter((p) => p.trim()).join('\\n'));
  }
  return parts.filter((p) => p).join('\\n\\n');
}

(async () => {
  try {
    const text = await ({ pdf, docx, pptx })[kind]();
    parentPort.postMessage({ text });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
})();`;

const MODULES = (() => {
  const resolve = (name: string) => {
    try {
      return require.resolve(name);
    } catch {
      return name;
    }
  };
  return { pdf: resolve('pdf-parse'), mammoth: resolve('mammoth'), jszip: resolve('jszip') };
})();

function inWorker(kind: 'docx' | 'pdf' | 'pptx', data: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const bytes = new Uint8Array(data);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { kind, data: bytes, modules: MODULES },
      transferList: [bytes.buffer],
      resourceLimits: { maxOldGenerationSizeMb: EXTRACTION_LIMITS.maxHeapMb },
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new TextExtractionFailed('Reading the document took too long.'))),
      EXTRACTION_LIMITS.timeoutMs,
    );
    worker.on('message', (m: { text?: string; error?: string }) =>
      finish(() =>
        m.error !== undefined ? reject(new TextExtractionFailed(m.error)) : resolve(m.text ?? ''),
      ),
    );
    // Also the heap cap: ERR_WORKER_OUT_OF_MEMORY.
    worker.on('error', (err) => finish(() => reject(new TextExtractionFailed(err.message))));
    worker.on('exit', (code) =>
      finish(() => reject(new TextExtractionFailed(`The document reader stopped (exit code ${code}).`))),
    );
  });
}

function tidy(text: string): string {
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
