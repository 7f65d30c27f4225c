import { nonPublicRange, OutboundBlockedError, OutboundPolicy, parseAllowEntry } from './address-policy';

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'accepts public %s',
    (address) => {
      expect(nonPublicRange(address)).toBeNull();
    },
  );
});

describe('OutboundPolicy', () => {
  it('lets the allow-list name a host, an address or a range, and nothing more', () => {
    const policy = new OutboundPolicy(['minio.internal', '127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    expect(() => policy.checkAddress('minio.internal', '192.168.0.5')).not.toThrow();
    expect(() => policy.checkAddress('anything', '127.0.0.1')).not.toThrow();
    expect(() => policy.checkAddress('anything', '::ffff:127.0.0.1')).not.toThrow();
    expect(() => policy.checkAddress('anything', '10.9.8.7')).not.toThrow();
    expect(() => policy.checkAddress('anything', 'fd00::5')).not.toThrow();
    expect(() => policy.checkAddress('anything', '127.0.0.2')).toThrow(OutboundBlockedError);
    expect(() => policy.checkAddress('minio.internal.evil.com', '192.168.0.5')).toThrow(OutboundBlockedError);
    expect(() => policy.checkAddress('anything', '169.254.169.254')).toThrow(/linkLocal/);
  });

  it('refuses everything non-public with no allow-list', () => {
    const policy = new OutboundPolicy([]);
    expect(() => policy.checkAddress('localhost', '127.0.0.1')).toThrow(
      'localhost (127.0.0.1) is a loopback address',
    );
    expect(() => policy.checkAddress('example.com', '93.184.215.14')).not.toThrow();
  });

  it('parses only hosts, addresses and ranges', () => {
    expect(parseAllowEntry('[::1]')).toMatchObject({ kind: 'range' });
    expect(parseAllowEntry('Minio.Internal.')).toEqual({ kind: 'host', host: 'minio.internal' });
    for (const bad of ['http://x', '10.0.0.0/33', 'a b', '', 'x/y']) expect(parseAllowEntry(bad)).toBeNull();
  });
});
