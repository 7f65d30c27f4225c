import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { normalizeHost, OutboundPolicy } from './address-policy';

/**
 * A `lookup` for sockets (http.request, agents, the AWS SDK's handler) that resolves the host once, refuses the
 * connection when any address it resolves to is not allowed, and hands the socket exactly the addresses it
 * checked, so a second DNS answer (rebinding) can never switch the connection to another address.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, found) => {
      if (err) return callback(err, '', 0);
      const addresses = found as LookupAddress[];
      try {
        if (addresses.length === 0)
          throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        for (const a of addresses) policy.checkAddress(hostname, a.address);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Checks a host that is an address literal (sockets skip `lookup` for those); host names pass through. */
export function checkLiteralHost(policy: OutboundPolicy, host: string): void {
  const bare = normalizeHost(host);
  if (ipaddr.isValid(bare)) policy.checkAddress(bare, bare);
}

/** Resolves a host the way a connection would and checks every address; throws what the connection would. */
export async function checkHost(policy: OutboundPolicy, host: string): Promise<void> {
  const bare = normalizeHost(host);
  if (policy.allowsHost(bare)) return;
  if (ipaddr.isValid(bare)) return policy.checkAddress(bare, bare);
  const lookup = guardedLookup(policy);
  await new Promise<void>((resolve, reject) =>
    lookup(bare, { all: true }, (err) => (err ? reject(err) : resolve())),
  );
}
