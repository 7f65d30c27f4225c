import { detectFileType } from './file-type';
import { makeDocx, makePdf, makePptx } from './testing/document-builders';
import { DOCX, makeZip } from './testing/sample-files';
import { WorkerPool } from '../../common/workers/worker-pool';
import { extractText, TextExtractionFailed } from './text-extraction';

describe('extractText', () => {
  const pool = WorkerPool.create({ size: 2, queueLimit: 16 });
  afterAll(() => pool.close());

  it('reads the paragraphs of a docx', async () => {
    const data = await makeDocx(['Quarterly report', 'Sales grew by 12% — ¡bien!']);
    expect(detectFileType(data)?.kind).toBe('docx');
    const text = await extractText(pool, data, 'docx');
    expect(text).toBe('Quarterly report\n\nSales grew by 12% — ¡bien!');
  });

  it('reads every page of a pdf without page markers', async () => {
    const data = await makePdf([['Hello PDF world', 'Second line'], ['Page two text']]);
    expect(detectFileType(data)?.kind).toBe('pdf');
    const text = await extractText(pool, data, 'pdf');
    expect(text).toContain('Hello PDF world\nSecond line');
    expect(text).toContain('Page two text');
    expect(text.indexOf('Second line')).toBeLessThan(text.indexOf('Page two text'));
    expect(text).not.toMatch(/-- \d+ of \d+ --/);
  });

  it('reads pptx slides in slide-number order, one line per paragraph, entities decoded', async () => {
    const slides = Array.from({ length: 10 }, (_, i) => [`Slide ${i + 1} title`]);
    slides[0].push('Fish &amp; chips &lt;3');
    const data = await makePptx(slides);
    expect(detectFileType(data)?.kind).toBe('pptx');
    const text = await extractText(pool, data, 'pptx');
    const lines = text.split('\n').filter((l) => l);
    expect(lines.slice(0, 3)).toEqual(['Slide 1 title', 'Fish & chips <3', 'Slide 2 title']);
    expect(lines[lines.length - 1]).toBe('Slide 10 title');
  });

  it('reads UTF-8 text, dropping a byte-order mark and tidying blank lines and trailing spaces', async () => {
    const data = Buffer.from('\uFEFFHola, ¿qué tal?   \r\n\r\n\r\n\r\nAdiós\t\n');
    expect(await extractText(pool, data, 'text')).toBe('Hola, ¿qué tal?\n\nAdiós');
  });

  it('answers an empty text for a pdf without text', async () => {
    const data = await makePdf([[]]);
    expect(await extractText(pool, data, 'pdf')).toBe('');
  });

  it('fails with TextExtractionFailed on a damaged document or a kind without text', async () => {
    await expect(
      extractText(pool, Buffer.from('PK\u0003\u0004 not really a zip'), 'docx'),
    ).rejects.toBeInstanceOf(TextExtractionFailed);
    await expect(extractText(pool, Buffer.from('%PDF-1.4\ngarbage only\n'), 'pdf')).rejects.toBeInstanceOf(
      TextExtractionFailed,
    );
    await expect(extractText(pool, Buffer.from('x'), 'image')).rejects.toBeInstanceOf(TextExtractionFailed);
  });

  it('refuses a docx whose part inflates far beyond its declared size, before inflating it', async () => {
    const bomb = makeZip([
      { name: '[Content_Types].xml', data: readZipEntry(DOCX, '[Content_Types].xml') },
      // 256 MB of markup declared as 1 KB: passes the checks on declared sizes.
      { name: 'word/document.xml', data: Buffer.alloc(256 * 1024 * 1024, 0x20), declaredSize: 1024 },
    ]);
    expect(detectFileType(bomb)?.kind).toBe('docx');
    // Stopped while inflating, at the declared size (not by a later check, after the memory was taken).
    await expect(extractText(pool, bomb, 'docx')).rejects.toThrow(
      new TextExtractionFailed('The document is damaged, or its parts are larger than they declare.'),
    );
  }, 60_000);
});

/** The stored bytes of one entry of a zip made by makeZip (deflated). */
function readZipEntry(zip: Buffer, name: string): Buffer {
  const at = zip.indexOf(Buffer.from(name));
  const compressed = zip.readUInt32LE(at - 30 + 18);
  const start = at + Buffer.byteLength(name);
  return require('node:zlib').inflateRawSync(zip.subarray(start, start + compressed)) as Buffer;
}
