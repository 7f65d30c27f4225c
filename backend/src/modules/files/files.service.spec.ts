import { cleanName, contentDisposition, parseRange } from './files.service';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
  ])('reads %s of a %i byte file', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([undefined, 'bytes=200-300', 'bytes=9-1', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-'])(
    'ignores %s (the whole file is sent)',
    (header) => {
      expect(parseRange(header, 100)).toBeNull();
    },
  );
});

describe('cleanName', () => {
  it('drops any path and control characters', () => {
    expect(cleanName('../../etc/pass\u0000wd', null)).toBe('passwd');
    expect(cleanName('C:\\Users\\me\\photo.png', null)).toBe('photo.png');
  });

  it('never leaves the name empty', () => {
    expect(cleanName('  ', { kind: 'image', mime: 'image/png', ext: 'png' })).toBe('file.png');
  });
});

describe('contentDisposition', () => {
  it('keeps quotes out of the header and the real name in filename*', () => {
    expect(contentDisposition('attachment', 'a"b é.pdf')).toBe(
      `attachment; filename="a_b _.pdf"; filename*=UTF-8''a%22b%20%C3%A9.pdf`,
    );
  });
});
