import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of the allow-list: a host name matched exactly, or an address range matched after resolution. */
export type AllowEntry = { kind: 'host'; host: string } | { kind: 'range'; range: [Address, number] };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/;

/**
 * Parses one allow-list entry (`localhost`, `minio.internal`, `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`);
 * null when it is none of these.
 */
export function parseAllowEntry(raw: string): AllowEntry | null {
  const value = raw
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (!value) return null;
  if (value.includes('/')) {
    if (!ipaddr.isValidCIDR(value)) return null;
    return { kind: 'range', range: ipaddr.parseCIDR(value) };
  }
  if (ipaddr.isValid(value)) {
    const address = ipaddr.parse(value);
    return { kind: 'range', range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  }
  return HOST_NAME.test(value) ? { kind: 'host', host: value.replace(/\.$/, '') } : null;
}

/** Why an address is not public (ipaddr.js's range name), or null when it is an ordinary public unicast address. */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 address it carries.
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/** An outbound request the policy refuses; its message says which address and how to allow it. */
export class OutboundBlockedError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `${host === address ? address : `${host} (${address})`} is a ${range} address; the server does not ` +
        'connect to private, loopback or link-local addresses unless OUTBOUND_ALLOW names them',
    );
  }
}

/**
 * Which addresses outbound requests may reach: public unicast ones, and whatever OUTBOUND_ALLOW names (a
 * host name by its exact name, an address or CIDR range after DNS resolution).
 */
export class OutboundPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges: [Address, number][] = [];

  constructor(allow: readonly string[]) {
    for (const raw of allow) {
      const entry = parseAllowEntry(raw);
      if (!entry) throw new Error(`Not a host name, address or CIDR range: "${raw}"`);
      if (entry.kind === 'host') this.hosts.add(entry.host);
      else this.ranges.push(entry.range);
    }
  }

  /** Whether the allow-list names this host, so any address it resolves to is fine. */
  allowsHost(host: string): boolean {
    return this.hosts.has(normalizeHost(host));
  }

  /** Throws OutboundBlockedError when `address` (reached through `host`) may not be connected to. */
  checkAddress(host: string, address: string): void {
    if (this.allowsHost(host)) return;
    const range = nonPublicRange(address);
    if (range === null) return;
    if (range !== 'invalid') {
      const parsed = ipaddr.process(address);
      for (const [network, bits] of this.ranges) {
        const candidates = [parsed, ipaddr.parse(address)];
        if (candidates.some((a) => a.kind() === network.kind() && a.match(network, bits))) return;
      }
    }
    throw new OutboundBlockedError(normalizeHost(host), address, range);
  }
}

/** A URL's hostname as DNS and the allow-list see it: lowercase, without IPv6 brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}
