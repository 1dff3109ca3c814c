// Which hosts of a URL name this machine, or a neighbour only it can reach without routing
// (link-local): the targets a request sent on someone else's behalf must not reach unasked.
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';

/** Loopback, "this host" (0.0.0.0/8, `::`: Linux connects those to itself) and link-local ranges. */
const LOCAL_RANGES = new net.BlockList();
LOCAL_RANGES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_RANGES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_RANGES.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL_RANGES.addAddress('::1', 'ipv6');
LOCAL_RANGES.addAddress('::', 'ipv6');
LOCAL_RANGES.addSubnet('fe80::', 10, 'ipv6');

/** A URL's hostname as compared: no brackets, no trailing dot, lower case. */
function bare(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** True for `localhost` and its subdomains, which resolvers answer with a loopback address (RFC 6761). */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * True when a URL's hostname is a loopback, unspecified or link-local address, or `localhost`.
 * Literal only: a DNS name that resolves to such an address is not looked up here.
 */
function isLocalHostname(hostname: string): boolean {
  const host = bare(hostname);
  if (isLocalhostName(host)) return true;
  const family = net.isIP(host);
  return family !== 0 && LOCAL_RANGES.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * True when a URL's hostname reaches this machine: a local address (isLocalHostname), the
 * machine's own name, or an address of one of its interfaces.
 */
export function isThisMachine(hostname: string): boolean {
  const host = bare(hostname);
  if (isLocalHostname(host)) return true;
  const name = os.hostname().toLowerCase();
  if (host === name || host === `${name}.local` || host.split('.')[0] === name) return true;
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) if (a.address.toLowerCase() === host) return true;
  }
  return false;
}

/** The port a URL's requests go to: its own, or its scheme's default. */
export function portOf(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** Resolves a host name to its addresses. */
export type Lookup = (hostname: string) => Promise<string[]>;

/** A name that has not resolved by then counts by its text alone: a check must not hang on DNS. */
const LOOKUP_MS = 2000;

const systemLookup: Lookup = (hostname) => Promise.race([dns.promises.lookup(hostname, { all: true }).then((found) => found.map((a) => a.address)), new Promise<string[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_MS).unref())]);

/**
 * True when a host name that is not an address resolves to this machine (an /etc/hosts alias, a
 * public name such as 127.0.0.1.nip.io); a name that does not resolve, false.
 */
export async function resolvesToThisMachine(hostname: string, lookup: Lookup = systemLookup): Promise<boolean> {
  const host = bare(hostname);
  if (net.isIP(host) !== 0) return false;
  const addresses = await lookup(host).catch(() => [] as string[]);
  return addresses.some((a) => isThisMachine(a));
}
