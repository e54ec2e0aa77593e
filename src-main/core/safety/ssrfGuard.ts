// The SSRF guard (ARCHITECTURE.md, "The core, by room": safety) for http/sse server URLs and every URL the
// host fetches on a server's behalf (OAuth metadata, resource links). A server must not be able to make
// Mooring reach the user's router, a cloud metadata endpoint (169.254.169.254) or a local dev service. So:
// normalise the host, resolve it, check EVERY address, and connect to the address that was checked (DNS
// pinning, see guardedFetch.ts), so a rebinding answer (public first, private second) cannot slip through.
// OWASP SSRF Prevention Cheat Sheet. Link-local and metadata addresses are a class of their own: the
// `allowPrivateNetwork` switch never opens them, only `allowLinkLocalHosts` naming each one does.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import { classifyAddress, isIpLiteral, LITERAL_OK_RANGES, type AddressInfo } from './ipRanges';
import { maskUrl } from './redact';

/** Resolves a hostname to all its addresses. Injectable so tests can simulate rebinding. */
export type ResolverHook = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: ResolverHook = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SsrfPolicy {
  /** The server config's `allowPrivateNetwork`: local and special ranges are reachable (not link-local). */
  allowPrivateNetwork?: boolean;
  /**
   * The server config's `allowLinkLocalHosts`: the link-local or instance-metadata addresses and host names
   * (exactly as named, e.g. `169.254.169.254`, `metadata.google.internal`) this server may reach.
   */
  allowLinkLocalHosts?: readonly string[];
  /**
   * The URL the user typed (the server's configured URL). A loopback or private address typed literally
   * there — or `localhost` — is allowed with a note, on that host and port only; the same address reached
   * through any other hostname, another port (a redirect to 127.0.0.1:6379), or a redirect elsewhere is not.
   */
  typedUrl?: string;
  lookup?: ResolverHook;
  /** Receives notes such as "connecting to a loopback address you typed". */
  onNote?: (note: string) => void;
}

export interface UrlCheck {
  url: URL;
  /** The normalised host name (no brackets, no trailing dot, lower case). */
  host: string;
  literal: boolean;
  addresses: AddressInfo[];
  notes: string[];
}

/**
 * The host as WHATWG URL parsing normalises it: `2130706433`, `0177.0.0.1`, `0x7f.1` and `127.1` all become
 * `127.0.0.1`; `[::ffff:127.0.0.1]` becomes `::ffff:7f00:1`; trailing dots and case go.
 */
export function normaliseHost(host: string): string {
  let h: string;
  try {
    h = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname;
  } catch {
    h = host;
  }
  return h
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Names of instance-metadata services, blocked whatever they resolve to (a split-horizon resolver may answer
 * them with anything): GCP (`metadata.google.internal`, `metadata.goog`, and the bare `metadata` its search
 * domain completes), AWS (`instance-data`, `instance-data.ec2.internal`).
 */
export const METADATA_HOSTNAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The SSRF policy a server's config asks for (the typed URL, the private-network and link-local switches). */
export function ssrfPolicyOf(
  config: Pick<ServerConfig, 'url' | 'allowPrivateNetwork' | 'allowLinkLocalHosts'>,
): SsrfPolicy {
  return {
    allowPrivateNetwork: config.allowPrivateNetwork,
    ...(config.allowLinkLocalHosts?.length ? { allowLinkLocalHosts: config.allowLinkLocalHosts } : {}),
    ...(config.url ? { typedUrl: config.url } : {}),
  };
}

/** `localhost` names never go to DNS servers (RFC 6761 §6.3), so they cannot be rebound from outside. */
export const isLocalhostName = (h: string) => h === 'localhost' || h.endsWith('.localhost');

const effectivePort = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/** Whether `host` (and `port`, when known) is where the user's typed URL points. */
function isTypedHost(host: string, port: string | undefined, policy: SsrfPolicy): boolean {
  if (!policy.typedUrl) return false;
  let typed: URL;
  try {
    typed = new URL(policy.typedUrl);
  } catch {
    return false;
  }
  return normaliseHost(typed.hostname) === host && (port === undefined || port === effectivePort(typed));
}

function blocked(message: string, hint?: string): MooringError {
  return new MooringError(
    'ssrf_blocked',
    message,
    hint ??
      'If this server really lives on your network, turn on "Allow private network" for it (allowPrivateNetwork: true).',
  );
}

function linkLocalBlocked(what: string): MooringError {
  return blocked(
    `${what}; link-local and cloud metadata addresses hold the machine's cloud credentials, so Mooring does not connect there on a server's behalf, even with "Allow private network".`,
    `If this server really needs it, name the exact address or host in the server's allowLinkLocalHosts (e.g. "allowLinkLocalHosts": ["169.254.169.254"]).`,
  );
}

function describe(a: AddressInfo): string {
  return a.embeddedIPv4
    ? `${a.address} (${a.range}, IPv4 ${a.embeddedIPv4} inside IPv6)`
    : `${a.address} (${a.range})`;
}

/**
 * Judges the addresses a host resolved to (or the literal it is). Returns notes for allowed-with-note
 * cases; throws `ssrf_blocked` naming the first forbidden address.
 */
export function checkAddresses(
  host: string,
  addresses: readonly AddressInfo[],
  policy: SsrfPolicy,
  port?: string,
): string[] {
  if (!addresses.length)
    throw blocked(`"${host}" did not resolve to any address.`, 'Check the URL’s host name.');
  const notes: string[] = [];
  const literal = isIpLiteral(host);
  const typed = isTypedHost(host, port, policy);
  const named = new Set((policy.allowLinkLocalHosts ?? []).map(normaliseHost));
  if (METADATA_HOSTNAMES.has(host) && !named.has(host))
    throw linkLocalBlocked(`"${host}" is the name of a cloud instance-metadata service`);
  for (const a of addresses) {
    if (a.class === 'public') continue;
    if (a.class === 'never')
      throw blocked(
        `"${host}" is ${describe(a)}, which Mooring never connects to.`,
        'Use a unicast address.',
      );
    if (a.class === 'link-local') {
      if (named.has(host) || named.has(a.address) || (a.embeddedIPv4 && named.has(a.embeddedIPv4))) {
        notes.push(`Connecting to ${a.address}, which allowLinkLocalHosts names for this server.`);
        continue;
      }
      throw linkLocalBlocked(
        literal ? `The address ${describe(a)} is link-local` : `"${host}" resolves to ${describe(a)}`,
      );
    }
    if (policy.allowPrivateNetwork) continue;
    const typedLiteral = typed && (literal || isLocalhostName(host)) && LITERAL_OK_RANGES.has(a.range);
    if (typedLiteral) {
      notes.push(`Connecting to ${a.range} address ${a.address}, which you typed in the server URL.`);
      continue;
    }
    throw blocked(
      literal
        ? `The address ${describe(a)} is a private, loopback or link-local address; Mooring does not connect there on a server's behalf.`
        : `"${host}" resolves to ${describe(a)}, a private, loopback or link-local address; blocked to prevent server-side request forgery.`,
    );
  }
  return notes;
}

/** Checks a URL without connecting: scheme, host normalisation, resolution and every address. */
export async function checkUrl(input: string | URL, policy: SsrfPolicy = {}): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new MooringError(
      'usage',
      `"${String(input)}" is not a valid URL.`,
      'Use a full URL such as https://example.com/mcp',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw blocked(
      `Only http and https URLs can be fetched, not "${url.protocol}" (${maskUrl(url)}).`,
      'Use an http:// or https:// URL.',
    );
  const host = normaliseHost(url.hostname);
  const literal = isIpLiteral(host);
  let addresses: AddressInfo[];
  if (literal) addresses = [classifyAddress(host)];
  else {
    try {
      addresses = (await (policy.lookup ?? systemResolver)(host)).map((a) => classifyAddress(a.address));
    } catch (err) {
      if (err instanceof MooringError) throw err;
      throw new MooringError(
        'connect_failed',
        `Could not resolve "${host}": ${(err as Error).message}`,
        'Check the host name and your network.',
        {
          cause: err,
        },
      );
    }
  }
  const notes = checkAddresses(host, addresses, policy, effectivePort(url));
  notes.forEach((n) => policy.onNote?.(n));
  return { url, host, literal, addresses, notes };
}

/**
 * Only `https:` and `http:` URLs are ever handed to the system browser: a server-supplied authorization URL
 * with another scheme (`file:`, `javascript:`, a custom handler) once gave remote code execution in
 * mcp-remote (CVE-2025-6514).
 */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}
