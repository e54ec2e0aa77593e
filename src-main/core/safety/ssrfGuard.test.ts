// Acceptance: the SSRF table (README, "Safety"). Every row is a URL with the expected verdict; hostnames resolve
// through an injected resolver (the "resolver hook"), so rows are deterministic and need no network.
import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { MooringError } from '../errors';
import { classifyAddress } from './ipRanges';
import {
  checkUrl,
  isSafeExternalUrl,
  normaliseHost,
  ssrfPolicyOf,
  type ResolverHook,
  type SsrfPolicy,
} from './ssrfGuard';
import { ServerConfigSchema } from '@shared/config';

const PUBLIC = '93.184.216.34';
const DNS: Record<string, string[]> = {
  'example.com': [PUBLIC],
  'internal.corp': ['10.0.0.5'],
  'router.home': ['192.168.1.1'],
  'docker.internal': ['172.17.0.1'],
  'metadata.google.internal': ['169.254.169.254'],
  'imds.example': ['169.254.169.254'],
  'ecs.example': ['169.254.170.2'],
  'evil.example': ['127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'mixed.example': [PUBLIC, '10.0.0.1'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'v6only.example': ['2606:4700:4700::1111'],
  'v6private.example': ['fd12:3456::1'],
  'cgnat.example': ['100.64.0.7'],
  'fakeip.example': ['198.18.0.5'],
};
const tableResolver: ResolverHook = async (host) => {
  const found = DNS[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

type Opts = { typed?: boolean; allowPrivateNetwork?: boolean; linkLocal?: string[] };
type Row = [url: string, opts: Opts, expected: 'allow' | 'note' | 'block', why: string];

const table: Row[] = [
  ['https://example.com/mcp', {}, 'allow', 'public hostname'],
  ['https://[2606:4700:4700::1111]/', {}, 'allow', 'public IPv6 literal'],
  ['https://v6only.example/', {}, 'allow', 'public AAAA'],
  ['http://172.32.0.1/', {}, 'allow', 'just outside 172.16/12'],
  ['http://internal.corp/', {}, 'block', 'hostname → 10/8'],
  ['http://router.home/', {}, 'block', 'hostname → 192.168/16'],
  ['http://docker.internal/', {}, 'block', 'hostname → 172.16/12'],
  ['http://v6private.example/', {}, 'block', 'hostname → fc00::/7'],
  ['http://cgnat.example/', {}, 'block', 'hostname → 100.64/10'],
  ['http://fakeip.example/', {}, 'block', 'hostname → 198.18/15 (benchmarking)'],
  ['http://169.254.169.254/latest/meta-data/', {}, 'block', 'cloud metadata literal'],
  ['http://169.254.169.254/latest/meta-data/', { typed: true }, 'block', 'link-local is never literal-ok'],
  ['http://metadata.google.internal/computeMetadata/v1/', {}, 'block', 'metadata through a hostname'],
  ['http://[fd00:ec2::254]/', {}, 'block', 'AWS IMDS IPv6 (unique-local)'],
  ['http://[fe80::1]/', {}, 'block', 'IPv6 link-local'],
  ['http://127.0.0.1:8080/mcp', {}, 'block', 'loopback literal from a server'],
  ['http://127.0.0.1:8080/mcp', { typed: true }, 'note', 'loopback literal the user typed'],
  ['http://10.0.0.1/mcp', { typed: true }, 'note', 'private literal the user typed'],
  ['http://100.100.100.100/mcp', { typed: true }, 'note', 'CGNAT (Tailscale) literal the user typed'],
  ['http://localhost:3000/mcp', { typed: true }, 'note', 'localhost the user typed'],
  ['http://localhost:3000/mcp', {}, 'block', 'localhost from a server'],
  ['http://evil.example/', {}, 'block', 'public-looking name → loopback'],
  ['http://evil.example/', { typed: true }, 'block', 'loopback through a hostname, even typed'],
  ['http://127.0.0.1.nip.io/', { typed: true }, 'block', 'wildcard DNS → loopback'],
  ['http://mixed.example/', {}, 'block', 'one private address among public ones'],
  ['http://2130706433/', {}, 'block', 'decimal 127.0.0.1'],
  ['http://0177.0.0.1/', {}, 'block', 'octal 127.0.0.1'],
  ['http://0x7f.1/', {}, 'block', 'hex short form'],
  ['http://127.1/', {}, 'block', 'short form'],
  ['http://017700000001/', {}, 'block', 'octal whole number'],
  ['http://0/', { typed: true }, 'block', 'unspecified 0.0.0.0'],
  ['http://0.0.0.0:8000/', { typed: true }, 'block', 'unspecified'],
  ['http://[::]/', {}, 'block', 'IPv6 unspecified'],
  ['http://[::1]:8080/', {}, 'block', 'IPv6 loopback from a server'],
  ['http://[::1]:8080/', { typed: true }, 'note', 'IPv6 loopback the user typed'],
  ['http://[::ffff:127.0.0.1]/', {}, 'block', 'IPv4-mapped loopback'],
  ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', { typed: true }, 'block', 'IPv4-mapped metadata'],
  ['http://[::ffff:0:a00:1]/', {}, 'block', 'SIIT-embedded 10.0.0.1'],
  ['http://[64:ff9b::a9fe:a9fe]/', {}, 'block', 'NAT64-embedded metadata'],
  ['http://[2002:7f00:1::]/', {}, 'block', '6to4-embedded loopback'],
  ['http://[::7f00:1]/', {}, 'block', 'IPv4-compatible loopback'],
  ['http://224.0.0.1/', { allowPrivateNetwork: true }, 'block', 'multicast is never a target'],
  ['http://255.255.255.255/', { allowPrivateNetwork: true }, 'block', 'broadcast is never a target'],
  ['http://internal.corp/', { allowPrivateNetwork: true }, 'allow', 'opted into private network'],
  ['http://169.254.169.254/', { allowPrivateNetwork: true }, 'block', 'private network never opens metadata'],
  ['http://imds.example/', { allowPrivateNetwork: true }, 'block', 'hostname → metadata, private network on'],
  ['http://metadata.google.internal/', { allowPrivateNetwork: true }, 'block', 'metadata name, private on'],
  [
    'http://[fd00:ec2::254]/',
    { allowPrivateNetwork: true },
    'block',
    'AWS IMDS IPv6 is not just unique-local',
  ],
  ['http://100.100.100.200/', { allowPrivateNetwork: true }, 'block', 'Alibaba metadata is not just CGNAT'],
  ['http://100.100.100.200/', { typed: true }, 'block', 'a typed metadata literal is still metadata'],
  ['http://[fe80::1]/', { allowPrivateNetwork: true }, 'block', 'IPv6 link-local, private network on'],
  [
    'http://169.254.10.20/',
    { allowPrivateNetwork: true },
    'block',
    'any IPv4 link-local, private network on',
  ],
  ['http://[::ffff:169.254.169.254]/', { allowPrivateNetwork: true }, 'block', 'IPv4-mapped metadata'],
  ['http://169.254.169.254/', { linkLocal: ['169.254.169.254'] }, 'note', 'named in allowLinkLocalHosts'],
  ['http://imds.example/', { linkLocal: ['imds.example'] }, 'note', 'host named in allowLinkLocalHosts'],
  ['http://metadata.google.internal/', { linkLocal: ['Metadata.Google.Internal.'] }, 'note', 'named'],
  ['http://metadata.google.internal/', { linkLocal: ['169.254.169.254'] }, 'block', 'the name is not named'],
  ['http://ecs.example/', { linkLocal: ['169.254.169.254'] }, 'block', 'naming one address opens only it'],
  ['http://[fd00:ec2::254]/', { linkLocal: ['[FD00:EC2::254]'] }, 'note', 'IPv6 named in brackets'],
  ['http://fakeip.example/', { allowPrivateNetwork: true }, 'allow', 'fake-IP proxies need the opt-in'],
  ['file:///etc/passwd', {}, 'block', 'not http(s)'],
  ['gopher://127.0.0.1:6379/_INFO', { typed: true }, 'block', 'not http(s)'],
];

describe('SSRF table', () => {
  it('has at least 25 rows', () => expect(table.length).toBeGreaterThanOrEqual(25));

  it.each(table)('%s %j → %s (%s)', async (url, opts, expected) => {
    const notes: string[] = [];
    const policy: SsrfPolicy = {
      lookup: tableResolver,
      allowPrivateNetwork: opts.allowPrivateNetwork,
      ...(opts.linkLocal ? { allowLinkLocalHosts: opts.linkLocal } : {}),
      onNote: (n) => notes.push(n),
    };
    if (opts.typed) policy.typedUrl = url;
    const outcome = await checkUrl(url, policy).then(
      (r) => r,
      (e: unknown) => e,
    );
    if (expected === 'block') {
      expect(outcome).toBeInstanceOf(MooringError);
      expect((outcome as MooringError).code).toBe('ssrf_blocked');
      expect((outcome as MooringError).hint).toBeTruthy();
    } else {
      expect(outcome).not.toBeInstanceOf(Error);
      expect(notes.length > 0).toBe(expected === 'note');
      if (expected === 'note')
        expect(notes[0]).toMatch(
          opts.linkLocal ? /which allowLinkLocalHosts names/ : /which you typed in the server URL/,
        );
    }
  });

  it('the typed-literal allowance covers the typed port only', async () => {
    const typedUrl = 'http://127.0.0.1:8080/mcp';
    await expect(checkUrl('http://127.0.0.1:8080/other', { typedUrl })).resolves.toMatchObject({
      literal: true,
    });
    await expect(checkUrl('http://127.0.0.1:6379/', { typedUrl })).rejects.toMatchObject({
      code: 'ssrf_blocked',
    });
    await expect(checkUrl('http://127.0.0.1/', { typedUrl: 'http://127.0.0.1/' })).resolves.toBeDefined();
    await expect(checkUrl('https://127.0.0.1/', { typedUrl: 'http://127.0.0.1/' })).rejects.toMatchObject({
      code: 'ssrf_blocked',
    });
  });

  it('names the address and its range in the error', async () => {
    await expect(checkUrl('http://imds.example/', { lookup: tableResolver })).rejects.toThrow(
      /resolves to 169\.254\.169\.254 \(linkLocal\)/,
    );
    await expect(
      checkUrl('http://metadata.google.internal/', { lookup: tableResolver, allowPrivateNetwork: true }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('instance-metadata service'),
      hint: expect.stringContaining('allowLinkLocalHosts'),
    });
    await expect(checkUrl('http://[::ffff:127.0.0.1]/', {})).rejects.toThrow(/IPv4 127\.0\.0\.1 inside IPv6/);
  });

  it('an unresolvable host is a connect failure, not an SSRF block', async () => {
    await expect(checkUrl('http://nxdomain.example/', { lookup: tableResolver })).rejects.toMatchObject({
      code: 'connect_failed',
    });
    await expect(checkUrl('not a url')).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('a server config’s policy', () => {
  it('carries allowLinkLocalHosts from the file to the guard; private network alone opens no metadata', async () => {
    const server = ServerConfigSchema.parse({
      name: 'cloud',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      allowPrivateNetwork: true,
      allowLinkLocalHosts: ['169.254.169.254'],
    });
    const policy = { ...ssrfPolicyOf(server), lookup: tableResolver };
    await expect(checkUrl('http://169.254.169.254/', policy)).resolves.toBeDefined();
    await expect(checkUrl('http://ecs.example/', policy)).rejects.toMatchObject({ code: 'ssrf_blocked' });
    const plain = ServerConfigSchema.parse({ ...server, allowLinkLocalHosts: undefined });
    await expect(checkUrl('http://169.254.169.254/', ssrfPolicyOf(plain))).rejects.toMatchObject({
      code: 'ssrf_blocked',
    });
  });
});

describe('host normalisation', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['LOCALHOST.', 'localhost'],
    ['Example.COM', 'example.com'],
  ])('%s → %s', (host, expected) => expect(normaliseHost(host)).toBe(expected));

  it('classifies embedded IPv4 by the address inside', () => {
    expect(classifyAddress('::ffff:7f00:1')).toMatchObject({
      range: 'loopback',
      embeddedIPv4: '127.0.0.1',
      class: 'local',
    });
    expect(classifyAddress('::ffff:808:808')).toMatchObject({ range: 'unicast', class: 'public' });
    expect(classifyAddress('8.8.8.8').class).toBe('public');
  });
});

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://accounts.example.com/authorize?x=1', true],
    ['http://127.0.0.1:8765/callback', true],
    ['file:///Applications/Calculator.app', false],
    ['javascript:alert(1)', false],
    ['vscode://x/y', false],
    ['ms-msdt:/id PCWDiagnostic /skip force /param "IT_RebrowseForFile=cal?c"', false],
    ['smb://attacker/share', false],
    ['data:text/html,<script>1</script>', false],
    ['not a url', false],
  ])('%s → %s', (url, ok) => expect(isSafeExternalUrl(url)).toBe(ok));
});
