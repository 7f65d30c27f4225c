import { deflateRawSync } from 'node:zlib';

/** Small real files of each kind, for unit and API tests (not used by the app). */

/** A valid 1x1 transparent PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(64),
]);
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.from('0e0000003001009d012a0100010002003425a400037000feedc80000', 'hex'),
]);
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
export const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('free'),
]);
/** EBML header with DocType "webm". */
export const WEBM = Buffer.from(
  '1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701',
  'hex',
);
/** EBML header with DocType "matroska" (not a web format). */
export const MKV = Buffer.from(
  '1a45dfa3a34286810142f7810142f2810442f38108428288' + Buffer.from('matroska').toString('hex'),
  'hex',
);
/** A Windows executable header. */
export const EXE = Buffer.concat([
  Buffer.from('4d5a90000300000004000000ffff0000b8', 'hex'),
  Buffer.alloc(100),
]);
export const TEXT = Buffer.from('Hola, ¿qué tal? Plain UTF-8 text.\n');

export interface ZipInput {
  name: string;
  data: Buffer;
  /** Claim a different uncompressed size in the headers (to fake a bomb). */
  declaredSize?: number;
}

/** A minimal zip writer (deflate, no CRC check needed by our reader). */
export function makeZip(entries: ZipInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = deflateRawSync(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function contentTypes(part: string, mainType: string): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/${part}" ContentType="${mainType}"/></Types>`,
  );
}

export const DOCX = makeZip([
  {
    name: '[Content_Types].xml',
    data: contentTypes(
      'word/document.xml',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    ),
  },
  { name: 'word/document.xml', data: Buffer.from('<w:document><w:body>Hello</w:body></w:document>') },
]);

export const PPTX = makeZip([
  {
    name: '[Content_Types].xml',
    data: contentTypes(
      'ppt/presentation.xml',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    ),
  },
  { name: 'ppt/presentation.xml', data: Buffer.from('<p:presentation/>') },
]);

/** A zip that is not an Office document. */
export const PLAIN_ZIP = makeZip([{ name: 'readme.txt', data: Buffer.from('hello') }]);

/** A docx whose headers declare a huge uncompressed part. */
export const DOCX_BOMB = makeZip([
  {
    name: '[Content_Types].xml',
    data: contentTypes(
      'word/document.xml',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    ),
  },
  { name: 'word/document.xml', data: Buffer.alloc(10_000, 0x20), declaredSize: 3_000_000_000 },
]);
