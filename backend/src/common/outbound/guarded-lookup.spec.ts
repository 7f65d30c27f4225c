import type { LookupAddress } from 'node:dns';
import { OutboundBlockedError, OutboundPolicy } from './address-policy';

const answers: LookupAddress[][] = [];
jest.mock('node:dns', () => ({
  lookup: (
    _host: string,
    _options: unknown,
    callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => setImmediate(() => callback(null, answers.shift() ?? [])),
}));

// Imported after the mock, so the lookup resolves through it.
import { guardedLookup } from './guarded-lookup';

function resolve(host: string, all: boolean): Promise<{ err: Error | null; address: unknown }> {
  const lookup = guardedLookup(new OutboundPolicy([]));
  return new Promise((done) =>
    lookup(host, { all }, (err, address) => done({ err, address: err ? null : address })),
  );
}

describe('guardedLookup', () => {
  beforeEach(() => (answers.length = 0));

  it('hands the socket exactly the addresses it checked, once, so a later DNS answer cannot switch them', async () => {
    answers.push([{ address: '93.184.215.14', family: 4 }], [{ address: '127.0.0.1', family: 4 }]);
    expect(await resolve('rebind.example', true)).toEqual({
      err: null,
      address: [{ address: '93.184.215.14', family: 4 }],
    });
    // The next resolution (the rebinding answer) is refused, not used by the connection made above.
    const second = await resolve('rebind.example', false);
    expect(second.err).toBeInstanceOf(OutboundBlockedError);
  });

  it('refuses a name when any address it resolves to is private', async () => {
    answers.push([
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    const { err } = await resolve('mixed.example', true);
    expect(err).toBeInstanceOf(OutboundBlockedError);
    expect(err!.message).toContain('mixed.example (10.0.0.7) is a private address');
  });

  it('answers one address when the socket asks for one', async () => {
    answers.push([{ address: '2606:4700::1111', family: 6 }]);
    expect(await resolve('v6.example', false)).toEqual({ err: null, address: '2606:4700::1111' });
  });
});
