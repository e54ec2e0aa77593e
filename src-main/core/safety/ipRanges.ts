// Address classes for the SSRF guard (ARCHITECTURE.md, "The core, by room": safety), on top of ipaddr.js's
// IANA special-purpose registries.
// Only global unicast is "public". IPv6 forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d,
// SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and /48, IPv4-compatible ::a.b.c.d, 6to4 2002::/16) are judged
// by the IPv4 address inside, so `[::ffff:127.0.0.1]` is loopback, not "some IPv6".
import ipaddr from 'ipaddr.js';

export type AddressClass =
  /** Global unicast: reachable on the internet. */
  | 'public'
  /** Local ranges that `allowPrivateNetwork` opens: loopback, private, unique-local, CGNAT, 0.0.0.0. */
  | 'local'
  /**
   * Link-local (169.254/16, fe80::/10) and cloud instance-metadata addresses (METADATA_ADDRESSES): what a
   * server reaching them gets is the machine's cloud credentials. `allowPrivateNetwork` does not open them;
   * only a server's `allowLinkLocalHosts` naming the address or host does.
   */
  | 'link-local'
  /** Never a target: multicast and broadcast. */
  | 'never'
  /** Other special-purpose space (reserved, documentation, benchmarking, Teredo…): blocked unless allowed. */
  | 'special';

export interface AddressInfo {
  /** The address as resolved or typed, normalised (IPv4 dotted quad, IPv6 compressed). */
  address: string;
  family: 4 | 6;
  /** ipaddr.js's range name of the judged address, e.g. `loopback`, `linkLocal`, `unicast`. */
  range: string;
  /** The IPv4 address inside an IPv6 form, when that is what was judged. */
  embeddedIPv4?: string;
  class: AddressClass;
}

const LOCAL_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);

/**
 * Instance-metadata services outside 169.254/16 (or named explicitly inside it): AWS IMDS and ECS task
 * metadata (169.254.169.254, 169.254.170.2, fd00:ec2::254 — unique-local, so `allowPrivateNetwork` would
 * open it), GCP/Azure/OCI/DigitalOcean (169.254.169.254), Alibaba Cloud (100.100.100.200 — CGNAT space),
 * Oracle Cloud classic (192.0.0.192).
 */
export const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  'fd00:ec2::254',
  '100.100.100.200',
  '192.0.0.192',
]);
const NEVER_RANGES = new Set(['multicast', 'broadcast']);
/** Loopback and private addresses may be typed literally by the user (allowed with a note); link-local may not. */
export const LITERAL_OK_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const last32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return last32();
  if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 §2.5.5.1); ipaddr.js calls it plain unicast.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return last32();
  return undefined;
}

function classOf(range: string, address: string): AddressClass {
  if (range === 'linkLocal' || METADATA_ADDRESSES.has(address)) return 'link-local';
  if (range === 'unicast') return 'public';
  if (LOCAL_RANGES.has(range)) return 'local';
  if (NEVER_RANGES.has(range)) return 'never';
  return 'special';
}

/** True for an IPv4 dotted quad or an IPv6 address (brackets allowed); only canonical forms. */
export function isIpLiteral(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return ipaddr.IPv4.isValidFourPartDecimal(h) || ipaddr.IPv6.isValid(h);
}

/** Classifies one address. Throws on anything that is not an IP address. */
export function classifyAddress(address: string): AddressInfo {
  const raw = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(raw)) throw new Error(`"${address}" is not an IP address`);
  const parsed = ipaddr.parse(raw);
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return { address: parsed.toString(), family: 4, range, class: classOf(range, parsed.toString()) };
  }
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) {
    const range = inner.range();
    return {
      address: v6.toString(),
      family: 6,
      range,
      embeddedIPv4: inner.toString(),
      class: classOf(range, inner.toString()),
    };
  }
  const range = v6.range();
  return { address: v6.toString(), family: 6, range, class: classOf(range, v6.toString()) };
}
