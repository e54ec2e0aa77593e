// Import of Claude Desktop, Cursor, VS Code and Mooring files. Each bad input is named in
// its test title; an import with any bad entry writes nothing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigInvalidError } from './jsonDiagnostics';
import { inferTransport, sanitizeServerName } from './importEntry';
import { importIntoStore, parseImport } from './importFormats';
import { ServersStore } from './serversStore';

const claudeDesktop = JSON.stringify(
  {
    mcpServers: {
      filesystem: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
      },
      github: {
        command: 'docker',
        args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x' },
      },
      old: { command: 'node', args: ['old.js'], disabled: true, autoApprove: ['read'] },
    },
    globalShortcut: 'Ctrl+Space',
  },
  null,
  2,
);

const cursor = `{
  "mcpServers": {
    "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer abc" } },
    "legacy": { "url": "https://old.example.com/sse" },
    "typed": { "type": "streamable-http", "url": "https://typed.example.com/v1/sse" },
    "local": { "type": "stdio", "command": "uvx", "args": ["mcp-server-time"] }
  }
}`;

const vscode = `{
  // .vscode/mcp.json — comments and trailing commas are allowed here
  "inputs": [
    { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true },
    { "type": "promptString", "id": "unused", "description": "Not used by any server" },
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" },
      "envFile": "\${workspaceFolder}/.env",
    },
    "fetch": { "command": "uvx", "args": ["mcp-server-fetch", "--root", "\${workspaceFolder}"] },
    "github remote": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "X-Token": "\${input:gh}" } },
  },
}`;

const ours = JSON.stringify({
  servers: [{ name: 'mem', command: 'node', args: ['m.js'], timeoutSeconds: 30, trust: true }],
});

describe('parseImport', () => {
  it('Claude Desktop: stdio entries, env kept, disabled → enabled false, extra keys warned', () => {
    const r = parseImport(claudeDesktop, { fileName: 'claude_desktop_config.json' });
    expect(r.format).toBe('claude');
    expect(r.servers.map((s) => [s.name, s.transport, s.command, s.enabled])).toEqual([
      ['filesystem', 'stdio', 'npx', true],
      ['github', 'stdio', 'docker', true],
      ['old', 'stdio', 'node', false],
    ]);
    expect(r.servers[1]!.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x' });
    expect(r.warnings).toEqual([
      'mcpServers.old: "autoApprove" is not imported; Mooring asks for approval by its own rules',
    ]);
    expect(r.renamed).toEqual([]);
  });

  it('Cursor with url: http unless the path ends in /sse; an explicit type wins', () => {
    const r = parseImport(cursor, { fileName: '.cursor/mcp.json' });
    expect(r.format).toBe('claude');
    expect(r.servers.map((s) => [s.name, s.transport, s.url ?? s.command])).toEqual([
      ['remote', 'http', 'https://mcp.example.com/mcp'],
      ['legacy', 'sse', 'https://old.example.com/sse'],
      ['typed', 'http', 'https://typed.example.com/v1/sse'],
      ['local', 'stdio', 'uvx'],
    ]);
    expect(r.servers[0]!.headers).toEqual({ Authorization: 'Bearer abc' });
  });

  it('VS Code with inputs and comments: ${input:…} and ${workspaceFolder} kept, inputs reported, names sanitised', () => {
    const r = parseImport(vscode, { fileName: '.vscode/mcp.json' });
    expect(r.format).toBe('vscode');
    expect(r.servers.map((s) => [s.name, s.transport])).toEqual([
      ['Perplexity', 'stdio'],
      ['fetch', 'stdio'],
      ['github-remote', 'http'],
    ]);
    expect(r.renamed).toEqual([{ from: 'github remote', to: 'github-remote' }]);
    expect(r.servers[0]!.env).toEqual({ PERPLEXITY_API_KEY: '${input:perplexity-key}' });
    expect(r.servers[1]!.args).toEqual(['mcp-server-fetch', '--root', '${workspaceFolder}']);
    expect(r.inputs).toEqual([
      {
        id: 'perplexity-key',
        type: 'promptString',
        description: 'Perplexity API Key',
        password: true,
        usedBy: ['Perplexity'],
        declared: true,
      },
      {
        id: 'unused',
        type: 'promptString',
        description: 'Not used by any server',
        password: false,
        usedBy: [],
        declared: true,
      },
      { id: 'gh', type: 'promptString', password: false, usedBy: ['github-remote'], declared: false },
    ]);
    expect(r.warnings).toContain(
      'servers.Perplexity: "envFile" is not imported; copy the variables you need into "env"',
    );
    expect(r.warnings.some((w) => w.includes('${input:gh}'))).toBe(true);
  });

  it('VS Code user settings.json with an "mcp" section', () => {
    const r = parseImport(
      '{ "editor.fontSize": 14, "mcp": { "servers": { "t": { "command": "uvx", "args": ["mcp-server-time"] } } } }',
      {
        fileName: 'settings.json',
      },
    );
    expect(r.format).toBe('vscode');
    expect(r.servers.map((s) => s.name)).toEqual(['t']);
  });

  it('Zed settings.json: context_servers in the current flat shape and the older nested command, extensions skipped', () => {
    const zed = `{
      // Zed's settings carry much else
      "theme": "One Dark",
      "context_servers": {
        "flat": { "source": "custom", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": { "A": "1" } },
        "nested": { "command": { "path": "uvx", "args": ["mcp-server-time"], "env": {} }, "settings": {} },
        "from-extension": { "source": "extension", "settings": { "token": "x" } },
        "remote": { "url": "https://example.com/mcp" }
      }
    }`;
    const r = parseImport(zed, { fileName: 'settings.json' });
    expect(r.format).toBe('zed');
    expect(r.servers.map((x) => [x.name, x.transport, x.command ?? x.url, x.args])).toEqual([
      ['flat', 'stdio', 'npx', ['-y', '@modelcontextprotocol/server-memory']],
      ['nested', 'stdio', 'uvx', ['mcp-server-time']],
      ['remote', 'http', 'https://example.com/mcp', []],
    ]);
    expect(r.servers[0]!.env).toEqual({ A: '1' });
    expect(r.warnings.join('\n')).toMatch(/from-extension.*Zed extension/);
    expect(r.warnings.join('\n')).toMatch(/"settings" is not imported/);
  });

  it('a bad nested Zed command points at its place in the file', () => {
    const bad = '{"context_servers": {"z": {"command": {"path": 42}}}}';
    expect(() => parseImport(bad, { fileName: 'settings.json' })).toThrow(
      /context_servers\.z\.command\.path/,
    );
  });

  it('our own format, without the settings an import never carries', () => {
    const r = parseImport(ours, { fileName: 'mcp_servers.json' });
    expect(r.format).toBe('mooring');
    expect(r.servers[0]).toMatchObject({ name: 'mem', timeoutSeconds: 30, trust: false });
    expect(r.dropped).toEqual({
      mem: [{ field: 'trust', text: 'trust (run a command outside the runtime allowlist)' }],
    });
    // A project's own file keeps them: its approval is pinned to each entry's whole content.
    const kept = parseImport(ours, { fileName: '.mooring/mcp_servers.json', keepNeverImported: true });
    expect(kept.servers[0]).toMatchObject({ trust: true });
    expect(kept.dropped).toEqual({});
  });

  it('drops trust-all, private network, link-local hosts and keychain references from any format', () => {
    const r = parseImport(
      JSON.stringify({
        servers: [
          {
            name: 'remote',
            transport: 'http',
            url: 'https://example.com/mcp',
            policy: 'trust-all',
            allowPrivateNetwork: true,
            allowLinkLocalHosts: ['169.254.169.254'],
            headers: { Authorization: '<keychain>', 'X-Mode': 'a' },
            secretHeaders: ['Authorization'],
          },
          { name: 'careful', command: 'node', args: ['s.js'], policy: 'always-ask', trust: false },
        ],
      }),
      { fileName: 'm.json' },
    );
    expect(r.servers[0]).toMatchObject({
      policy: 'default',
      allowPrivateNetwork: false,
      headers: { 'X-Mode': 'a' },
      secretHeaders: [],
    });
    expect(r.dropped.remote!.map((d) => d.field)).toEqual([
      'policy',
      'allowPrivateNetwork',
      'allowLinkLocalHosts',
      'headers',
    ]);
    // A narrowing policy is kept, and an explicit "trust: false" is nothing to report.
    expect(r.servers[1]).toMatchObject({ policy: 'always-ask', trust: false });
    expect(r.dropped.careful).toBeUndefined();
    const claude = parseImport(
      JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { GITHUB_TOKEN: '<keychain>' } } } }),
      { fileName: 'claude.json' },
    );
    expect(claude.servers[0]!.env).toEqual({});
    expect(claude.dropped.gh![0]!.text).toMatch(/GITHUB_TOKEN from the keychain/);
  });

  it('an unknown format names every format Mooring reads', () => {
    expect(() => parseImport('{ "tools": [] }', { fileName: 'x.json' })).toThrow(
      /x\.json:1:1: not a known MCP configuration: Mooring reads "mcpServers" \(Claude Desktop, Cursor, Windsurf, LM Studio, Cherry Studio, \.mcp\.json\), Claude Code's ~\/\.claude\.json, .*"extensions" \(Goose config\.yaml\)/,
    );
    expect(() => parseImport('just: words\n', { fileName: 'x.yaml' })).toThrow(
      /not a known MCP configuration/,
    );
  });

  it('bad JSON in an import is reported with line and column', () => {
    expect(() =>
      parseImport('{\n  "mcpServers": {\n    "a": { "command": "x" \n  }\n', { fileName: 'c.json' }),
    ).toThrow(/^c\.json:5:1: expected "}"/);
  });

  it('every bad entry is named, with its position in the source file', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "node" },',
      '    "noCommand": { "args": ["x"] },',
      '    "badType": { "type": "websocket", "url": "https://x.example" },',
      '    "ftp": { "url": "ftp://files.example/sse" },',
      '    "badDisabled": { "command": "node", "disabled": "yes" }',
      '  }',
      '}',
    ].join('\n');
    const err = (() => {
      try {
        parseImport(text, { fileName: 'claude.json' });
      } catch (e) {
        return e;
      }
    })() as ConfigInvalidError;
    expect(err).toBeInstanceOf(ConfigInvalidError);
    expect(err.hint).toMatch(/Nothing was imported/);
    expect(err.message.split('\n')).toEqual([
      'claude.json:4:5: mcpServers.noCommand.command: a stdio server needs a command',
      'claude.json:5:18: mcpServers.badType.type: unknown transport "websocket"; expected "stdio", "http", "streamable-http" or "sse"',
      'claude.json:6:14: mcpServers.ftp.url: must start with http:// or https://',
      'claude.json:7:41: mcpServers.badDisabled.disabled: must be true or false',
    ]);
  });

  it('a bad entry in our own format (unknown key, timeout 0) points into the file', () => {
    const text = '{"servers":[{"name":"a","command":"x","timeoutSeconds":0,"colour":"red"}]}';
    expect(() => parseImport(text, { fileName: 'm.json' })).toThrow(
      'm.json:1:39: servers[0].timeoutSeconds: must be at least 1 second\nm.json:1:58: servers[0].colour: unknown key "colour"',
    );
  });

  it('duplicate names after sanitising get a deterministic suffix', () => {
    const r = parseImport(
      '{"mcpServers":{"a b":{"command":"x"},"a.b":{"command":"y"},"a-b":{"command":"z"}}}',
      { fileName: 'c.json' },
    );
    expect(r.servers.map((s) => s.name)).toEqual(['a-b-2', 'a-b-3', 'a-b']);
    expect(r.renamed).toEqual([
      { from: 'a b', to: 'a-b-2' },
      { from: 'a.b', to: 'a-b-3' },
    ]);
  });
});

describe('sanitizeServerName', () => {
  it.each([
    ['my server.v2', 'my-server-v2'],
    ['valid_name-1', 'valid_name-1'],
    ['  spaced  ', 'spaced'],
    ['@scope/pkg', 'scope-pkg'],
    ['数据', 'server'],
    ['x'.repeat(70), 'x'.repeat(64)],
    [`${'y'.repeat(63)}.z`, `${'y'.repeat(63)}`],
  ])('%s → %s', (from, to) => {
    expect(sanitizeServerName(from)).toBe(to);
  });
});

describe('inferTransport', () => {
  it.each([
    ['https://a.example/mcp', 'http'],
    ['https://a.example/sse', 'sse'],
    ['https://a.example/v1/SSE/', 'sse'],
    ['https://a.example/sse?x=1', 'sse'],
    ['https://a.example/ssefoo', 'http'],
  ])('%s → %s', (url, kind) => expect(inferTransport(url)).toBe(kind));
});

describe('importIntoStore', () => {
  let home: string;
  let store: ServersStore;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'mooring-import-'));
    store = ServersStore.forHome(home);
  });
  afterEach(async () => {
    await store.close();
    await rm(home, { recursive: true, force: true });
  });

  it('merges every server in one write', async () => {
    await store.add({ name: 'existing', command: 'node' });
    const r = await importIntoStore(store, cursor, { fileName: 'mcp.json' });
    expect(r.added).toEqual(['remote', 'legacy', 'typed', 'local']);
    expect((await store.list()).map((s) => s.name)).toEqual([
      'existing',
      'remote',
      'legacy',
      'typed',
      'local',
    ]);
  });

  it('an import with one bad entry writes nothing', async () => {
    await store.add({ name: 'existing', command: 'node' });
    const before = await readFile(store.file, 'utf8');
    const text =
      '{"mcpServers":{"good":{"command":"node"},"bad":{"url":"https://x.example","command":"node"}}}';
    await expect(importIntoStore(store, text, { fileName: 'c.json' })).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(await readFile(store.file, 'utf8')).toBe(before);
  });

  it('a name collision with an existing server is an error naming it, unless replaceExisting', async () => {
    await store.add({ name: 'remote', command: 'node' });
    const before = await readFile(store.file, 'utf8');
    await expect(importIntoStore(store, cursor, { fileName: 'mcp.json' })).rejects.toMatchObject({
      code: 'config_invalid',
      message: 'Already configured: "remote". Nothing was imported.',
      hint: expect.stringMatching(/--replace/),
    });
    expect(await readFile(store.file, 'utf8')).toBe(before);

    const r = await importIntoStore(store, cursor, { fileName: 'mcp.json', replaceExisting: true });
    expect(r.replaced).toEqual(['remote']);
    expect(await store.get('remote')).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
    });
    expect((await store.list()).map((s) => s.name)).toEqual(['remote', 'legacy', 'typed', 'local']);
  });
});
