import { filetypeinfo } from 'magic-bytes.js';
import { isUtf8 } from 'node:buffer';
import { inflateRawSync } from 'node:zlib';

export type FileKind = 'image' | 'video' | 'pdf' | 'docx' | 'pptx' | 'text';

export interface DetectedType {
  kind: FileKind;
  /** Content-Type to store and serve. */
  mime: string;
  /** Extension of the storage key. */
  ext: string;
}

export const ALL_KINDS: readonly FileKind[] = ['image', 'video', 'pdf', 'docx', 'pptx', 'text'];

/** Why a zip container was refused, for logs and tests. */
export class ZipRefused extends Error {}

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** Limits for docx/pptx containers: real documents stay far below, zip bombs do not. */
export const ZIP_LIMITS = {
  maxEntries: 5_000,
  maxTotalUncompressed: 200 * 1024 * 1024,
  /** Per entry, only checked above 1 MB uncompressed (small text parts compress very well). */
  maxRatio: 200,
  maxContentTypesBytes: 1024 * 1024,
};

const BY_MAGIC: Record<string, DetectedType> = {
  png: { kind: 'image', mime: 'image/png', ext: 'png' },
  apng: { kind: 'image', mime: 'image/png', ext: 'png' },
  jpg: { kind: 'image', mime: 'image/jpeg', ext: 'jpg' },
  webp: { kind: 'image', mime: 'image/webp', ext: 'webp' },
  gif: { kind: 'image', mime: 'image/gif', ext: 'gif' },
  mp4: { kind: 'video', mime: 'video/mp4', ext: 'mp4' },
  mov: { kind: 'video', mime: 'video/quicktime', ext: 'mov' },
  pdf: { kind: 'pdf', mime: 'application/pdf', ext: 'pdf' },
};
const WEBM: DetectedType = { kind: 'video', mime: 'video/webm', ext: 'webm' };
const TEXT: DetectedType = { kind: 'text', mime: 'text/plain; charset=utf-8', ext: 'txt' };

/**
 * The type of a file from its bytes alone (never its name). Returns null for anything not allowed:
 * executables, archives, HTML, SVG, other Office formats, binary junk.
 */
export function detectFileType(data: Buffer): DetectedType | null {
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return detectOfficeZip(data);
  const guesses = filetypeinfo(data.subarray(0, 4100)).map((g) => g.typename);
  // JSON is text (datasets come as JSON lines): a guess of JSON on plain UTF-8 is typed as text.
  if (guesses.length && !(guesses.every((g) => g === 'Json') && isPlainText(data))) {
    const first = guesses[0];
    if (BY_MAGIC[first]) return BY_MAGIC[first];
    // Matroska and WebM share the EBML header; only WebM (its DocType) is a web video.
    if (first === 'mkv' && isWebm(data)) return WEBM;
    return null;
  }
  return isPlainText(data) ? TEXT : null;
}

/** What a file name's extension claims, for the extensions of the types we accept. */
const CLAIMED_KIND: Record<string, FileKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  gif: 'image',
  mp4: 'video',
  m4v: 'video',
  webm: 'video',
  mov: 'video',
  qt: 'video',
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  txt: 'text',
};
const CLAIMED_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  qt: 'video/quicktime',
};

/**
 * True when the name's extension names one of our types and the content is something else (a PDF or an
 * executable called photo.png): a spoof, refused. Names without such an extension are typed by content alone.
 */
export function nameContradictsContent(name: string, type: DetectedType): boolean {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name.trim())?.[1]?.toLowerCase();
  if (!ext || !CLAIMED_KIND[ext]) return false;
  if (CLAIMED_KIND[ext] !== type.kind) return true;
  return CLAIMED_MIME[ext] !== undefined && CLAIMED_MIME[ext] !== type.mime;
}

/** Valid UTF-8 without NUL bytes (which no text editor writes and most binary formats contain). */
export function isPlainText(data: Buffer): boolean {
  // Native checks without building a string: a 25 MB upload takes milliseconds on the event loop.
  return !data.includes(0) && isUtf8(data);
}

function isWebm(data: Buffer): boolean {
  // EBML DocType element (0x4282), then a size byte, then the type name, within the header.
  const head = data.subarray(0, 64);
  const at = head.indexOf(Buffer.from([0x42, 0x82]));
  return at >= 0 && head.subarray(at + 3, at + 7).toString('latin1') === 'webm';
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

function detectOfficeZip(data: Buffer): DetectedType | null {
  let entries: ZipEntry[];
  try {
    entries = readCentralDirectory(data);
  } catch {
    return null;
  }
  const contentTypes = entries.find((e) => e.name === '[Content_Types].xml');
  if (!contentTypes) return null;
  let xml: string;
  try {
    xml = readEntry(data, contentTypes).toString('utf8');
  } catch {
    return null;
  }
  const hasPart = (prefix: string) => entries.some((e) => e.name.startsWith(prefix));
  // The main part's content type tells a document from a presentation (and refuses macro-enabled variants).
  if (
    xml.includes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml') &&
    /PartName="\/word\//.test(xml) &&
    hasPart('word/')
  ) {
    return { kind: 'docx', mime: DOCX_MIME, ext: 'docx' };
  }
  if (
    xml.includes('application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml') &&
    /PartName="\/ppt\//.test(xml) &&
    hasPart('ppt/')
  ) {
    return { kind: 'pptx', mime: PPTX_MIME, ext: 'pptx' };
  }
  return null;
}

/**
 * Reads the zip's central directory and enforces the zip-bomb limits on what it declares. Zip64 is refused:
 * no document within our upload size needs it.
 */
export function readCentralDirectory(data: Buffer): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(data);
  const count = data.readUInt16LE(eocd + 10);
  const size = data.readUInt32LE(eocd + 12);
  const offset = data.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff || size === 0xffffffff) throw new ZipRefused('zip64');
  if (count > ZIP_LIMITS.maxEntries) throw new ZipRefused('too many entries');
  if (offset + size > eocd) throw new ZipRefused('central directory out of bounds');
  const entries: ZipEntry[] = [];
  let total = 0;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) throw new ZipRefused('bad entry');
    const entry: ZipEntry = {
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      uncompressedSize: data.readUInt32LE(at + 24),
      name: data.toString('utf8', at + 46, at + 46 + data.readUInt16LE(at + 28)),
      localHeaderOffset: data.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.uncompressedSize === 0xffffffff) {
      throw new ZipRefused('zip64');
    }
    total += entry.uncompressedSize;
    if (total > ZIP_LIMITS.maxTotalUncompressed) throw new ZipRefused('too large uncompressed');
    if (
      entry.uncompressedSize > 1024 * 1024 &&
      entry.uncompressedSize > Math.max(entry.compressedSize, 1) * ZIP_LIMITS.maxRatio
    ) {
      throw new ZipRefused('compression ratio');
    }
    entries.push(entry);
    at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return entries;
}

function findEndOfCentralDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const stop = Math.max(0, data.length - 22 - 0xffff);
  for (let i = data.length - 22; i >= stop; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw new ZipRefused('not a zip');
}

/** Inflates one (small) entry, never beyond maxContentTypesBytes whatever its header claims. */
function readEntry(data: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) throw new ZipRefused('bad local header');
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const raw = data.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return raw.subarray(0, ZIP_LIMITS.maxContentTypesBytes);
  if (entry.method !== 8) throw new ZipRefused('unsupported compression');
  return inflateRawSync(raw, { maxOutputLength: ZIP_LIMITS.maxContentTypesBytes });
}
