import { detectFileType, nameContradictsContent, readCentralDirectory, ZIP_LIMITS } from './file-type';
import {
  DOCX,
  DOCX_BOMB,
  EXE,
  GIF,
  JPEG,
  makeZip,
  MKV,
  MP4,
  PDF,
  PLAIN_ZIP,
  PNG,
  PPTX,
  TEXT,
  WEBM,
  WEBP,
} from './testing/sample-files';

describe('detectFileType', () => {
  it.each([
    ['png', PNG, 'image/png', 'png'],
    ['jpeg', JPEG, 'image/jpeg', 'jpg'],
    ['gif', GIF, 'image/gif', 'gif'],
    ['webp', WEBP, 'image/webp', 'webp'],
    ['mp4', MP4, 'video/mp4', 'mp4'],
    ['webm', WEBM, 'video/webm', 'webm'],
    ['pdf', PDF, 'application/pdf', 'pdf'],
    ['docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['pptx', PPTX, 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
    ['text', TEXT, 'text/plain; charset=utf-8', 'txt'],
  ])('recognises %s by its content', (_name, data, mime, ext) => {
    expect(detectFileType(data)).toMatchObject({ mime, ext });
  });

  it.each([
    ['an executable', EXE],
    ['a Matroska video', MKV],
    ['a plain zip', PLAIN_ZIP],
    ['a zip bomb dressed as docx', DOCX_BOMB],
    ['binary with NUL bytes', Buffer.from([0x41, 0x00, 0x42, 0x43])],
    ['invalid UTF-8', Buffer.from([0x41, 0xff, 0xfe, 0x42])],
  ])('refuses %s', (_name, data) => {
    expect(detectFileType(data)).toBeNull();
  });

  it('refuses a docx with more entries than allowed', () => {
    const many = makeZip(
      Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({
        name: i === 0 ? '[Content_Types].xml' : `word/part${i}.xml`,
        data: Buffer.from('x'),
      })),
    );
    expect(() => readCentralDirectory(many)).toThrow('too many entries');
    expect(detectFileType(many)).toBeNull();
  });

  it('refuses a macro-enabled Word document', () => {
    const docm = makeZip([
      {
        name: '[Content_Types].xml',
        data: Buffer.from(
          '<Types><Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>',
        ),
      },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]);
    expect(detectFileType(docm)).toBeNull();
  });

  it('accepts an empty file as text', () => {
    expect(detectFileType(Buffer.alloc(0))?.kind).toBe('text');
  });

  it('types JSON lines (a dataset) as text', () => {
    const jsonl = Buffer.from(
      '{"prompt":"Hi","completion":"Hello"}\n{"prompt":"Bye","completion":"Later"}\n',
    );
    expect(detectFileType(jsonl)).toMatchObject({ kind: 'text', mime: 'text/plain; charset=utf-8' });
  });
});

describe('nameContradictsContent', () => {
  const pdf = detectFileType(PDF)!;
  const png = detectFileType(PNG)!;

  it.each(['photo.png', 'photo.JPG', 'notes.txt', 'deck.pptx'])('flags PDF content named %s', (name) => {
    expect(nameContradictsContent(name, pdf)).toBe(true);
  });

  it('flags a PNG named .gif (same kind, other format)', () => {
    expect(nameContradictsContent('a.gif', png)).toBe(true);
  });

  it.each(['report.pdf', 'report', 'report.PDF', 'weird.name.bin'])(
    'accepts PDF content named %s',
    (name) => {
      expect(nameContradictsContent(name, pdf)).toBe(false);
    },
  );
});
