import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is public. ipaddr.js names every special range (loopback, private,
 * link-local, carrier-grade NAT, unique-local, multicast, reserved, IPv4 inside IPv6...), so
 * anything it does not call plain `unicast` is refused: a service that fetches URLs its callers
 * name must not become their way into the network it runs in.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'unicast';
}

/** A URL whose host is, or resolves to, an address that is not public. */
export class PrivateAddressError extends Error {
  readonly code = 'MURMUR_PRIVATE_ADDRESS';
  /** No later try reaches another address: a delivery is not tried again. */
  readonly final = true;
  constructor() {
    super('the address is not a public one');
    this.name = 'PrivateAddressError';
  }
}

/** Whether the host of `url` is an IP literal that is not public (no lookup needed). */
export function isPrivateLiteral(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) && !isPublicAddress(host);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `dns.lookup` for sockets that may reach public addresses only: every address a name resolves
 * to is checked, and the connection is refused when one is not public (a name that resolves to
 * both would otherwise let the socket pick the private one). The check is on the address the
 * socket connects to, so a name that resolves differently on a second lookup gains nothing.
 */
export function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(new PrivateAddressError() as NodeJS.ErrnoException, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}
