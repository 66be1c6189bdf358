/**
 * Where HTTP tasks may connect (WORKFLOW_HTTP_ALLOW): a comma-separated list of
 *  - host patterns: `api.example.com` (that host), `*.example.com` (its subdomains, not itself), `*` (any host);
 *  - IP addresses and CIDR ranges: `203.0.113.7`, `10.1.0.0/16`, `::1`, `fd00::/8`;
 *  - any of these behind `http://` (`http://127.0.0.1`, `http://*.internal.test`): the destination is allowed AND may
 *    be called over plain HTTP. Without such an entry only `https://` endpoints are called, as Step Functions
 *    requires (a plain-HTTP request would send the connection's credential in clear).
 * A destination is allowed when its host matches a host pattern (or, for an IP literal, an address entry) AND every
 * address it is connected to is public, or covered by an address entry. Loopback, private, link-local,
 * carrier-grade NAT, unique-local, multicast and other special ranges are refused unless an entry lists them, so
 * `*` still cannot reach the gateway's own network. The check is made on the resolved address the socket then
 * connects to (no second lookup a DNS rebinding could answer differently).
 */
import { BlockList, isIP } from 'node:net';

/** Ranges that are not the public internet (IANA special-purpose registries). */
const SPECIAL_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const SPECIAL_V6 = [
  // `::` itself and the deprecated IPv4-compatible block (`::127.0.0.1`)
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const special = new BlockList();
for (const [a, p] of SPECIAL_V4) special.addSubnet(a, p, 'ipv4');
for (const [a, p] of SPECIAL_V6) special.addSubnet(a, p, 'ipv6');

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export interface AllowList {
  /** The entries as configured (for messages). */
  readonly entries: readonly string[];
  hostAllowed(host: string): boolean;
  /** Whether a URL host may be called over plain http:// (an `http://` entry matches it). */
  plainHttpAllowed(host: string): boolean;
  /** Why a resolved address may not be connected to, or null when it may. */
  addressProblem(address: string): string | null;
}

/** `::ffff:127.0.0.1` is 127.0.0.1: an IPv4-mapped address is checked as the IPv4 address it carries. */
function unmap(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  // the hex form URLs normalise to (`[::ffff:127.0.0.1]` becomes `::ffff:7f00:1`)
  const h = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!h) return address;
  const hi = parseInt(h[1], 16);
  const lo = parseInt(h[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function family(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

interface HostMatcher {
  exact: Set<string>;
  suffixes: string[];
  any: boolean;
  addresses: BlockList;
  hasAddresses: boolean;
}

const matcher = (): HostMatcher => ({ exact: new Set(), suffixes: [], any: false, addresses: new BlockList(), hasAddresses: false });

/** Add one entry (without its `http://`) to a matcher; throws an Error naming a bad entry. */
function addEntry(m: HostMatcher, e: string, shown: string): void {
  if (e === '*') {
    m.any = true;
    return;
  }
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(e);
  const addr = cidr ? cidr[1].replace(/^\[|\]$/g, '') : e.replace(/^\[|\]$/g, '');
  const fam = family(addr);
  if (fam) {
    const prefix = cidr ? Number(cidr[2]) : fam === 'ipv4' ? 32 : 128;
    if (prefix > (fam === 'ipv4' ? 32 : 128)) throw new Error(`WORKFLOW_HTTP_ALLOW: bad prefix length in "${shown.slice(0, 64)}"`);
    m.addresses.addSubnet(addr, prefix, fam);
    m.hasAddresses = true;
    return;
  }
  if (cidr) throw new Error(`WORKFLOW_HTTP_ALLOW: "${shown.slice(0, 64)}" is not an address range`);
  const host = e.startsWith('*.') ? e.slice(2) : e;
  if (host.length > 253 || !host.split('.').every((l) => HOST_LABEL.test(l))) {
    throw new Error(`WORKFLOW_HTTP_ALLOW: "${shown.slice(0, 64)}" is not a host name, *.domain, *, an IP address or a CIDR range (optionally behind http://)`);
  }
  if (e.startsWith('*.')) m.suffixes.push(`.${host}`);
  else m.exact.add(host);
}

const listedIn = (m: HostMatcher, address: string): boolean => {
  const a = unmap(address);
  const fam = family(a);
  return m.hasAddresses && fam !== null && m.addresses.check(a, fam);
};

function hostMatches(m: HostMatcher, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (family(host)) return m.any || listedIn(m, host);
  return m.any || m.exact.has(host) || m.suffixes.some((s) => host.endsWith(s));
}

/** Compile the configured list; throws an Error naming the bad entry. */
export function compileAllowList(raw: string | undefined): AllowList {
  const entries = (raw ?? '')
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const all = matcher();
  const plain = matcher();
  for (const e of entries) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/.exec(e);
    if (scheme) {
      // only http:// marks an entry; an https:// entry would say nothing the bare entry does not
      if (scheme[1] !== 'http' || !scheme[2]) throw new Error(`WORKFLOW_HTTP_ALLOW: "${e.slice(0, 64)}": only http:// may prefix an entry (to allow plain HTTP to it)`);
      addEntry(all, scheme[2], e);
      addEntry(plain, scheme[2], e);
    } else addEntry(all, e, e);
  }
  return {
    entries,
    hostAllowed: (hostname: string): boolean => hostMatches(all, hostname),
    plainHttpAllowed: (hostname: string): boolean => hostMatches(plain, hostname),
    addressProblem(address: string): string | null {
      const a = unmap(address);
      const fam = family(a);
      if (!fam) return `${address} is not an IP address`;
      if (listedIn(all, a)) return null;
      if (special.check(a, fam)) return `${a} is a loopback, private, link-local or otherwise special address not listed in WORKFLOW_HTTP_ALLOW`;
      return null;
    },
  };
}

/** The allow-list of a config value, compiled once per distinct text (the config may be changed at run time). */
let compiled: { raw: string; list: AllowList } | null = null;
export function allowListOf(raw: string): AllowList {
  if (!compiled || compiled.raw !== raw) compiled = { raw, list: compileAllowList(raw) };
  return compiled.list;
}
