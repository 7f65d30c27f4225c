import {
  type DatabaseNotification,
  hearNotifications,
  NotificationListeners,
  NotificationReader,
} from './embedded-notifications';

/** One server message: its type byte, its length (counting itself), its body. */
function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setUint32(1, body.length + 4);
  out.set(body, 5);
  return out;
}

function notification(channel: string, payload: string, pid = 42): Uint8Array {
  const text = new TextEncoder().encode(`${channel}\0${payload}\0`);
  const body = new Uint8Array(4 + text.length);
  new DataView(body.buffer).setUint32(0, pid);
  body.set(text, 4);
  return message('A', body);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What a COMMIT that notified answers: CommandComplete, two notifications, ReadyForQuery, around a big row. */
const answer = concat([
  message('C', new TextEncoder().encode('COMMIT\0')),
  notification('principal_changed', '17'),
  message('D', new Uint8Array(20_000).fill(0x41)),
  notification('principal_changed', 'ünïcode'),
  message('Z', new TextEncoder().encode('I')),
]);

function read(chunks: Uint8Array[]): DatabaseNotification[] {
  const heard: DatabaseNotification[] = [];
  const reader = new NotificationReader((n) => heard.push(n));
  for (const chunk of chunks) reader.push(chunk);
  return heard;
}

describe('NotificationReader', () => {
  const expected = [
    { channel: 'principal_changed', payload: '17' },
    { channel: 'principal_changed', payload: 'ünïcode' },
  ];

  it('finds the notifications among the other messages, skipping a row full of their type byte', () => {
    expect(read([answer])).toEqual(expected);
  });

  it('finds the same whatever the chunks are cut at', () => {
    for (let cut = 1; cut < answer.length; cut += cut < 80 ? 1 : 997) {
      expect(read([answer.subarray(0, cut), answer.subarray(cut)])).toEqual(expected);
    }
    expect(read(Array.from(answer, (byte) => Uint8Array.of(byte)))).toEqual(expected);
  });

  it('ignores a notification without its ending zero bytes and reads on', () => {
    const broken = message('A', new Uint8Array([0, 0, 0, 1, 0x61, 0x62]));
    expect(read([concat([broken, notification('x', '1')])])).toEqual([{ channel: 'x', payload: '1' }]);
  });
});

describe('hearNotifications', () => {
  it('reads every answer on its way to its client, which still gets every byte', async () => {
    const db = {
      async execProtocolRawStream(_message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) {
        options.onRawData(answer.subarray(0, 30));
        options.onRawData(answer.subarray(30));
      },
    };
    const heard: DatabaseNotification[] = [];
    const listen = hearNotifications(db);
    listen(() => {
      throw new Error('a listener failing');
    });
    listen((n) => heard.push(n));
    const received: Uint8Array[] = [];
    await db.execProtocolRawStream(new Uint8Array(), { onRawData: (data) => received.push(data) });
    expect(concat(received)).toEqual(answer);
    expect(heard.map((n) => n.payload)).toEqual(['17', 'ünïcode']);
  });
});

describe('NotificationListeners', () => {
  const sample: DatabaseNotification = { channel: 'principal_changed', payload: '7' };

  it('runs every listener, reports one that throws, and stops calling a removed one', () => {
    const failures: unknown[] = [];
    const listeners = new NotificationListeners((err) => failures.push(err));
    const heard: string[] = [];
    listeners.add(() => {
      throw new Error('a listener failing');
    });
    const remove = listeners.add((n) => heard.push(`first ${n.payload}`));
    listeners.add((n) => heard.push(`second ${n.payload}`));
    listeners.deliver(sample);
    remove();
    listeners.deliver(sample);
    expect(heard).toEqual(['first 7', 'second 7', 'second 7']);
    expect(failures.map((err) => (err as Error).message)).toEqual([
      'a listener failing',
      'a listener failing',
    ]);
  });
});
