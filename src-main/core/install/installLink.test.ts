// Install links in the three forms Mooring reads, and every way one can be wrong: a clear error, never a
// throw, never a half-parsed entry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INSTALL_LINK_LENGTH, parseInstallLink, type InstallLinkResult } from './installLink';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const mooring = (name: string, config: unknown) =>
  `mooring://install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(b64(config))}`;
const cursor = (name: string, config: unknown) =>
  `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(b64(config))}`;
const vscode = (entry: unknown, scheme = 'vscode') =>
  `${scheme}:mcp/install?${encodeURIComponent(JSON.stringify(entry))}`;

function ok(r: InstallLinkResult) {
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r;
}
function error(r: InstallLinkResult): string {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.server)}`);
  expect(r.hint).toMatch(/^Nothing was installed/);
  return r.error;
}

describe('parseInstallLink: the three forms', () => {
  it('never installs trust or a trust-all policy: both are dropped and named in the warnings', () => {
    const r = ok(parseInstallLink(mooring('sh', { command: 'bash', trust: true, policy: 'trust-all' })));
    expect(r.server).toMatchObject({ trust: false, policy: 'default' });
    expect(r.warnings.join('\n')).toMatch(
      /^trust \(run a command outside the runtime allowlist\): a link never sets this/m,
    );
    expect(r.warnings.join('\n')).toMatch(/policy "trust-all"/);
  });

  it('mooring://install with a Mooring entry (standard and URL-safe base64)', () => {
    const entry = {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { A: '1' },
    };
    for (const link of [
      mooring('everything', entry),
      `mooring://install?name=everything&config=${b64url(entry)}`,
    ]) {
      const r = ok(parseInstallLink(link));
      expect(r.source).toBe('mooring');
      expect(r.server).toMatchObject({ name: 'everything', transport: 'stdio', ...entry, enabled: true });
      expect(r.warnings).toEqual([]);
    }
  });

  it('a Mooring entry may carry its name inside the configuration', () => {
    const r = ok(parseInstallLink(`mooring://install?config=${b64({ name: 'files', command: 'node' })}`));
    expect(r.server.name).toBe('files');
  });

  it('cursor:// with an mcpServers entry: a url becomes Streamable HTTP, /sse legacy SSE', () => {
    const http = ok(parseInstallLink(cursor('linear', { url: 'https://mcp.linear.app/mcp' })));
    expect(http.source).toBe('cursor');
    expect(http.server).toMatchObject({
      name: 'linear',
      transport: 'http',
      url: 'https://mcp.linear.app/mcp',
    });
    const sse = ok(parseInstallLink(cursor('old', { url: 'https://example.com/sse' })));
    expect(sse.server.transport).toBe('sse');
  });

  it('vscode: and vscode-insiders: with a VS Code entry, name inside', () => {
    for (const scheme of ['vscode', 'vscode-insiders']) {
      const r = ok(
        parseInstallLink(
          vscode({ name: 'github', type: 'http', url: 'https://api.githubcopilot.com/mcp/' }, scheme),
        ),
      );
      expect(r.source).toBe('vscode');
      expect(r.server).toMatchObject({
        name: 'github',
        transport: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
      });
    }
  });

  it('an invalid name is made valid and the original is reported; unknown fields and inputs are warned about', () => {
    const r = ok(
      parseInstallLink(
        vscode({
          name: 'My Server!',
          command: 'docker',
          args: ['run', '-i', 'x'],
          env: { TOKEN: '${input:token}' },
          gallery: true,
        }),
      ),
    );
    expect(r.server.name).toBe('My-Server');
    expect(r.renamedFrom).toBe('My Server!');
    expect(r.warnings).toEqual([
      '"gallery" is not imported',
      '"${input:token}" must be filled in before the server can start',
    ]);
  });
});

describe('parseInstallLink: every wrong link gets a clear error', () => {
  it.each([
    ['', /empty/],
    ['not a link', /not a link/],
    ['https://example.com/install?name=x', /"https:" are not install links/],
    ['javascript:alert(1)', /"javascript:" are not install links/],
    [`mooring://open?name=x&config=${b64({ command: 'x' })}`, /must be mooring:\/\/install/],
    [`mooring://install/extra?name=x&config=${b64({ command: 'x' })}`, /must be mooring:\/\/install/],
    ['mooring://install?name=x', /no config= parameter/],
    ['mooring://install?name=x&config=%%%', /not base64/],
    ['mooring://install?name=x&config=!!!!', /not base64/],
    [`mooring://install?name=x&config=${Buffer.from('{nope').toString('base64')}`, /not valid JSON/],
    [`mooring://install?name=x&config=${b64([1, 2])}`, /must be a JSON object/],
    [`mooring://install?config=${b64({ command: 'x' })}`, /does not name the server/],
    [mooring('x', { args: ['a'] }), /^command: a stdio server needs a command$/],
    [mooring('x', { command: 'node', autoApprove: ['*'] }), /autoApprove/],
    [mooring('x', { url: 'ftp://example.com' }), /url/],
    [cursor('x', { command: 'node', url: 'https://example.com/mcp' }), /url/],
    ['cursor://anysphere.cursor-deeplink/other?name=x&config=e30', /not an MCP install link/],
    ['cursor://evil.example/mcp/install?name=x&config=e30', /not an MCP install link/],
    ['vscode:extension/foo', /not an MCP install link/],
    ['vscode:mcp/install?%E0%A4%A', /not correctly URL-encoded/],
    ['vscode:mcp/install?{"name":"x"', /not valid JSON/],
    [vscode({ command: 'node' }), /does not name the server/],
    [vscode({ name: 'x', type: 'carrier-pigeon', url: 'https://x.example' }), /unknown transport/],
  ])('%s', (link, message) => {
    expect(error(parseInstallLink(link))).toMatch(message);
  });

  it('a link past the length cap is refused before decoding', () => {
    const long = `mooring://install?name=x&config=${'A'.repeat(MAX_INSTALL_LINK_LENGTH)}`;
    expect(error(parseInstallLink(long))).toMatch(/characters long; Mooring reads at most/);
  });

  it('never throws, whatever the text (property test)', () => {
    const prefixes = [
      'mooring://install?',
      'cursor://anysphere.cursor-deeplink/mcp/install?',
      'vscode:mcp/install?',
      '',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.string({ maxLength: 300 }), (p, s) => {
        const r = parseInstallLink(p + s);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
