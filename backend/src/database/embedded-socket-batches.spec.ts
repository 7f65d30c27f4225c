import { completeMessagesLength } from './embedded-socket-batches';

/** A protocol message: its type byte, its length (itself included) and its payload. */
function message(type: string, payload: string): Buffer {
  const body = Buffer.from(payload);
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

function startup(): Buffer {
  const body = Buffer.from('user\0postgres\0\0');
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, body]);
}

describe('completeMessagesLength', () => {
  const parse = message('P', '\0SELECT $1\0\0\0');
  const bind = message('B', '\0\0\0\0\0\x01\0\0\0\x013\0\0');
  const sync = message('S', '');

  it('takes every complete message at the front', () => {
    const all = Buffer.concat([parse, bind, sync]);
    expect(completeMessagesLength(all)).toBe(all.length);
  });

  it('stops before a message that has not fully arrived, and takes none when the first has not', () => {
    const cut = Buffer.concat([parse, bind, sync.subarray(0, 3)]);
    expect(completeMessagesLength(cut)).toBe(parse.length + bind.length);
    expect(completeMessagesLength(parse.subarray(0, parse.length - 1))).toBe(0);
    expect(completeMessagesLength(Buffer.alloc(0))).toBe(0);
  });

  it('takes a startup message alone', () => {
    const opening = startup();
    expect(completeMessagesLength(Buffer.concat([opening, parse]))).toBe(opening.length);
    expect(completeMessagesLength(opening.subarray(0, opening.length - 1))).toBe(0);
  });
});
