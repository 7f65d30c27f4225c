import { transferableBytes } from '../../common/workers/transfer';
import { WorkerPool, WorkerTaskFailed, workerTask } from '../../common/workers/worker-pool';
import type { FileKind } from './file-type';
import { MAX_EXTRACTED_CHARS } from './text-tidy';
import type { ExtractionInput, ExtractionOutput } from './text-extraction.worker';

/** The kinds whose text we can read. */
export const TEXT_KINDS: readonly FileKind[] = ['docx', 'pdf', 'pptx', 'text'];

/** A document could not be read (damaged, encrypted, too demanding...); callers turn it into a 400. */
export class TextExtractionFailed extends Error {}

/** Time limit of one document read: real documents stay far below, PDF and zip bombs do not. */
export const EXTRACTION_LIMITS = { timeoutMs: 30_000 };

const TASK = workerTask(__filename, 'text-extraction.worker');

/**
 * The plain text of a docx, pdf, pptx or UTF-8 text file, whitespace tidied (no trailing spaces, at most one
 * blank line in a row), at most `maxChars` long. Empty when the file holds no text (a scanned PDF, an empty
 * slide deck). The caller has already typed the bytes by content (detectFileType, which checks the zip's
 * declared sizes). Parsing and clean-up run in the worker pool, with its heap cap and a time limit; a full
 * pool answers 503 (server_busy).
 */
export async function extractText(
  pool: WorkerPool,
  data: Buffer,
  kind: FileKind,
  options: ExtractOptions = {},
): Promise<string> {
  return (await extractTextKeepingBytes(pool, data, kind, options)).text;
}

export interface ExtractOptions {
  /** Characters kept (MAX_EXTRACTED_CHARS by default). */
  maxChars?: number;
  /**
   * Hand `data` to the thread without a copy when it owns its memory: `data` is then emptied, and the bytes
   * come back as the result's `data`. A copy of a large upload costs more than its parsing on some hosts.
   */
  handOver?: boolean;
}

/** extractText, also answering the file's bytes (the given buffer, or the same bytes back from the thread). */
export async function extractTextKeepingBytes(
  pool: WorkerPool,
  data: Buffer,
  kind: FileKind,
  { maxChars = MAX_EXTRACTED_CHARS, handOver = false }: ExtractOptions = {},
): Promise<{ text: string; data: Buffer }> {
  if (kind !== 'docx' && kind !== 'pdf' && kind !== 'pptx' && kind !== 'text')
    throw new TextExtractionFailed(`No text can be read from a ${kind} file.`);
  const bytes = transferableBytes(data, handOver);
  let out: ExtractionOutput;
  try {
    out = await pool.run<ExtractionInput, ExtractionOutput>(
      TASK,
      { kind, data: bytes, maxChars },
      { timeoutMs: EXTRACTION_LIMITS.timeoutMs, transfer: [bytes.buffer as ArrayBuffer] },
    );
  } catch (err) {
    if (!(err instanceof WorkerTaskFailed)) throw err;
    throw new TextExtractionFailed(
      err.reason === 'timeout' ? 'Reading the document took too long.' : err.message,
    );
  }
  if ('error' in out) throw new TextExtractionFailed(out.error);
  const back = bytes === data ? Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength) : data;
  return { text: out.text, data: back };
}
