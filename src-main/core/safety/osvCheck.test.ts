import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startOsvServer, type OsvStub } from '../../../test/fixtures/osvServer';
import { MooringError } from '../errors';
import { checkServerPackages } from './osvCheck';
import { packagesOf } from './packageSpec';

const stdio = (command: string, args: string[]) => ({
  name: 'srv',
  transport: 'stdio' as const,
  command,
  args,
});

describe('packagesOf', () => {
  it.each([
    ['npx', ['-y', '@scope/pkg@1.2.3'], [{ ecosystem: 'npm', name: '@scope/pkg', version: '1.2.3' }]],
    ['npx', ['pkg'], [{ ecosystem: 'npm', name: 'pkg' }]],
    ['npx', ['--yes', 'pkg@latest', '--port', '3'], [{ ecosystem: 'npm', name: 'pkg' }]],
    ['npx', ['-y', '@scope/pkg@^1.0.0'], [{ ecosystem: 'npm', name: '@scope/pkg' }]],
    [
      'npx',
      ['--registry', 'https://r.example', 'pkg@2.0.0-beta.1'],
      [{ ecosystem: 'npm', name: 'pkg', version: '2.0.0-beta.1' }],
    ],
    [
      'npx',
      ['-p', 'a@1.0.0', '--package=b', 'run-it'],
      [
        { ecosystem: 'npm', name: 'a', version: '1.0.0' },
        { ecosystem: 'npm', name: 'b' },
      ],
    ],
    ['/usr/local/bin/npx', ['--', 'pkg@1.0.0'], [{ ecosystem: 'npm', name: 'pkg', version: '1.0.0' }]],
    ['uvx', ['pkg==1.0'], [{ ecosystem: 'PyPI', name: 'pkg', version: '1.0' }]],
    ['uvx', ['mcp-server-fetch'], [{ ecosystem: 'PyPI', name: 'mcp-server-fetch' }]],
    ['uvx', ['Mcp_Server.Git@0.6.2'], [{ ecosystem: 'PyPI', name: 'mcp-server-git', version: '0.6.2' }]],
    [
      'uvx',
      ['--from', 'pkg[cli]==2.1.0', 'cmd', '--flag'],
      [{ ecosystem: 'PyPI', name: 'pkg', version: '2.1.0' }],
    ],
    ['uvx', ['--python', '3.12', 'pkg>=1.0'], [{ ecosystem: 'PyPI', name: 'pkg' }]],
    [
      'uvx',
      ['--with', 'extra==1.0,other', 'tool'],
      [
        { ecosystem: 'PyPI', name: 'tool' },
        { ecosystem: 'PyPI', name: 'extra', version: '1.0' },
        { ecosystem: 'PyPI', name: 'other' },
      ],
    ],
    ['node', ['server.js'], []],
    ['docker', ['run', 'mcp/fetch'], []],
  ])('%s %j', (cmd, args, expected) => {
    expect(packagesOf(cmd, args, 'linux').packages).toEqual(expected);
  });

  it('notes specs it cannot check', () => {
    expect(packagesOf('npx', ['github:evil/repo'], 'linux')).toMatchObject({
      packages: [],
      notes: [expect.stringContaining('not a plain npm')],
    });
    expect(packagesOf('uvx', ['--from', 'git+https://github.com/x/y', 'y'], 'linux').notes).toHaveLength(1);
  });
});

describe('checkServerPackages against a local OSV stub', () => {
  let osv: OsvStub;
  beforeAll(async () => {
    osv = await startOsvServer({
      packages: [
        {
          ecosystem: 'npm',
          name: 'evil-mcp',
          vulns: [{ id: 'MAL-2025-1234', summary: 'Malicious code in evil-mcp (npm)' }],
        },
        {
          ecosystem: 'PyPI',
          name: 'sneaky-tool',
          vulns: [{ id: 'GHSA-aaaa-bbbb-cccc', aliases: ['MAL-2024-9'] }],
        },
        {
          ecosystem: 'npm',
          name: 'old-mcp',
          vulns: [{ id: 'GHSA-1111-2222-3333', summary: 'Path traversal', versions: ['1.0.0'] }],
        },
        { ecosystem: 'PyPI', name: 'mcp-server-git', vulns: [{ id: 'PYSEC-2025-1', versions: ['0.6.0'] }] },
      ],
    });
  });
  afterAll(() => osv.close());

  it('blocks a malicious package with the advisory id', async () => {
    const err = (await checkServerPackages(stdio('npx', ['-y', 'evil-mcp@1.0.0']), {
      endpoint: osv.url,
    }).catch((e) => e)) as MooringError;
    expect(err).toBeInstanceOf(MooringError);
    expect(err.code).toBe('vulnerable_package');
    expect(err.message).toMatch(/^Blocked: evil-mcp is flagged as malicious \(MAL-2025-1234\)/);
    expect(err.hint).toContain('https://osv.dev/vulnerability/MAL-2025-1234');
    expect(osv.queries.at(-1)).toEqual({ package: { name: 'evil-mcp', ecosystem: 'npm' }, version: '1.0.0' });
  });

  it('blocks through a MAL- alias too (uvx, PyPI)', async () => {
    await expect(
      checkServerPackages(stdio('uvx', ['sneaky-tool']), { endpoint: osv.url }),
    ).rejects.toMatchObject({
      code: 'vulnerable_package',
      message: expect.stringContaining('MAL-2024-9'),
    });
    expect(osv.queries.at(-1)).toEqual({ package: { name: 'sneaky-tool', ecosystem: 'PyPI' } });
  });

  it('warns, without blocking, for an ordinary vulnerability', async () => {
    const r = await checkServerPackages(stdio('npx', ['-y', 'old-mcp@1.0.0']), { endpoint: osv.url });
    expect(r.findings[0]?.advisories.map((a) => a.id)).toEqual(['GHSA-1111-2222-3333']);
    expect(r.warnings).toEqual([
      expect.stringMatching(/old-mcp@1\.0\.0 \(npm\) has 1 known vulnerability \(GHSA-1111-2222-3333\)/),
    ]);
    const fixed = await checkServerPackages(stdio('npx', ['-y', 'old-mcp@1.0.1']), { endpoint: osv.url });
    expect(fixed).toMatchObject({ warnings: [], findings: [] });
    const py = await checkServerPackages(stdio('uvx', ['mcp-server-git==0.6.0']), { endpoint: osv.url });
    expect(py.warnings[0]).toContain('PYSEC-2025-1');
  });

  it('passes a clean package', async () => {
    const r = await checkServerPackages(
      stdio('npx', ['-y', '@modelcontextprotocol/server-memory@2026.8.31']),
      { endpoint: osv.url },
    );
    expect(r).toEqual({
      packages: [{ ecosystem: 'npm', name: '@modelcontextprotocol/server-memory', version: '2026.8.31' }],
      warnings: [],
      findings: [],
    });
  });

  it('skips commands that do not run a package, without asking OSV', async () => {
    const before = osv.queries.length;
    expect((await checkServerPackages(stdio('node', ['server.js']), { endpoint: osv.url })).skipped).toMatch(
      /npx or uvx/,
    );
    expect(
      (await checkServerPackages({ name: 'r', transport: 'http', args: [] }, { endpoint: osv.url })).skipped,
    ).toBeDefined();
    expect(osv.queries.length).toBe(before);
  });

  it('warns, without blocking, when OSV is unreachable', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const r = await checkServerPackages(stdio('npx', ['-y', 'evil-mcp']), {
      endpoint: `http://127.0.0.1:${port}/v1/query`,
    });
    expect(r.warnings).toEqual([
      expect.stringMatching(/Could not check evil-mcp \(npm\) against OSV .*starting anyway/),
    ]);
  });

  it('warns when OSV does not answer in time', async () => {
    const hang = await startOsvServer({ hang: true });
    try {
      const r = await checkServerPackages(stdio('npx', ['pkg']), { endpoint: hang.url, timeoutMs: 200 });
      expect(r.warnings[0]).toMatch(/Could not check pkg \(npm\)/);
      expect(hang.queries).toHaveLength(1);
    } finally {
      await hang.close();
    }
  });
});
