// Importing every client's configuration from a fixture home laid out as that client lays it out (Linux
// paths: ~/.config/goose/config.yaml, ~/.codeium/windsurf/mcp_config.json, ~/.config/zed/settings.json,
// ~/.continue/config.yaml and config.json, ~/.lmstudio/mcp.json, ~/.claude.json, a Cherry Studio export,
// a project's .vscode/mcp.json), each through the one core import (`core.servers.previewImport` and
// `core.servers.import`), and Goose's YAML through `mooring mcp import` too.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DetectedClient } from '@shared/wire';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { runMooring } from '../helpers/cli';
import { FILESYSTEM, tempDir } from '../helpers/servers';
import { testSecret } from '../security/testSecrets';

// Not a mooring-* folder: it plays the user's home, whose files hold secrets the scan must not mistake for ours.
const user = tempDir('client-home-');
const put = (rel: string, text: string) => {
  const file = join(user, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};

const GOOSE = `# Goose writes this file itself
GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
extensions:
  developer:
    bundled: true
    display_name: Developer
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  github:
    args:
      - -y
      - "@modelcontextprotocol/server-github"
    bundled: null
    cmd: npx
    description: GitHub
    enabled: true
    env_keys:
      - GITHUB_PERSONAL_ACCESS_TOKEN
    envs:
      GITHUB_API_URL: https://api.github.com
    name: github
    timeout: 300
    type: stdio
  remote:
    enabled: false
    name: remote
    type: streamable_http
    uri: https://mcp.example.com/mcp
    headers:
      X-Team: core
    timeout: 60
`;

let core: MooringCore;
let secrets: MemorySecretStore;
let home: string;

beforeAll(async () => {
  home = tempDir('mooring-client-imports-');
  secrets = new MemorySecretStore();
  core = await MooringCore.open({ home, secretStore: secrets });
});
afterAll(() => core?.close());

const preview = async (rel: string) => {
  const file = join(user, rel);
  return core.servers.previewImport(readFileSync(file, 'utf8'), file);
};
const summary = (p: Awaited<ReturnType<typeof preview>>) =>
  p.servers.map((s) => [s.config.name, s.config.transport, s.commandLine, s.config.enabled]);

describe('each client’s config, from where the client keeps it', () => {
  it('Goose: config.yaml extensions (stdio, streamable_http), built-ins skipped, env_keys named', async () => {
    put('.config/goose/config.yaml', GOOSE);
    const p = await preview('.config/goose/config.yaml');
    expect(p.format).toBe('goose');
    expect(summary(p)).toEqual([
      [
        'github',
        'stdio',
        'GITHUB_API_URL=https://api.github.com npx -y @modelcontextprotocol/server-github',
        true,
      ],
      ['remote', 'http', 'HTTP https://mcp.example.com/mcp', false],
    ]);
    expect(p.servers[1]!.config).toMatchObject({ headers: { 'X-Team': 'core' }, timeoutSeconds: 60 });
    expect(p.warnings.join('\n')).toMatch(/extensions\.developer: a Goose builtin extension/);
    expect(p.warnings.join('\n')).toMatch(/GITHUB_PERSONAL_ACCESS_TOKEN\) are kept in Goose's keychain/);
  });

  it('a YAML mistake is named at its line and column, not as a JSON parse error', async () => {
    const file = put('.config/goose/broken.yaml', 'extensions:\n  github:\n    cmd: npx\n   args: [oops\n');
    await expect(core.servers.previewImport(readFileSync(file, 'utf8'), file)).rejects.toThrow(
      new RegExp(`${file}:\\d+:\\d+: invalid YAML`),
    );
  });

  it('Windsurf: mcp_config.json with serverUrl', async () => {
    put(
      '.codeium/windsurf/mcp_config.json',
      JSON.stringify({
        mcpServers: {
          docs: { serverUrl: 'https://docs.example.com/sse' },
          'stream-docs': {
            serverUrl: 'https://docs.example.com/mcp',
            headers: { 'X-Key': '${env:DOCS_KEY}' },
          },
          git: { command: 'uvx', args: ['mcp-server-git'], disabled: true },
        },
      }),
    );
    const p = await preview('.codeium/windsurf/mcp_config.json');
    expect(summary(p)).toEqual([
      ['docs', 'sse', 'SSE https://docs.example.com/sse', true],
      ['stream-docs', 'http', 'HTTP https://docs.example.com/mcp', true],
      ['git', 'stdio', 'uvx mcp-server-git', false],
    ]);
    expect(p.warnings).toEqual([]);
  });

  it('Zed: context_servers in settings.json', async () => {
    put(
      '.config/zed/settings.json',
      `{ "theme": "One Dark", // Zed allows comments
         "context_servers": { "time": { "source": "custom", "command": "uvx", "args": ["mcp-server-time"] } } }`,
    );
    expect(summary(await preview('.config/zed/settings.json'))).toEqual([
      ['time', 'stdio', 'uvx mcp-server-time', true],
    ]);
  });

  it('Continue: config.yaml’s mcpServers list and the older config.json', async () => {
    put(
      '.continue/config.yaml',
      `name: My Assistant
version: 1.0.0
schema: v1
mcpServers:
  - name: SQLite
    command: npx
    args: ["-y", "mcp-sqlite", "/data/app.db"]
  - name: Remote tools
    type: streamable-http
    url: https://mcp.example.com/mcp
`,
    );
    const y = await preview('.continue/config.yaml');
    expect(y.format).toBe('continue');
    expect(summary(y)).toEqual([
      ['SQLite', 'stdio', 'npx -y mcp-sqlite /data/app.db', true],
      ['Remote-tools', 'http', 'HTTP https://mcp.example.com/mcp', true],
    ]);
    put(
      '.continue/config.json',
      JSON.stringify({
        models: [],
        experimental: {
          modelContextProtocolServers: [
            {
              transport: { type: 'stdio', command: 'uvx', args: ['mcp-server-sqlite', '--db-path', '/x.db'] },
            },
          ],
        },
      }),
    );
    expect(summary(await preview('.continue/config.json'))).toEqual([
      ['continue-1', 'stdio', 'uvx mcp-server-sqlite --db-path /x.db', true],
    ]);
  });

  it('LM Studio: mcp.json with a remote and its Authorization header (to the keychain on import)', async () => {
    const token = testSecret('lmstudio-hf');
    const file = put(
      '.lmstudio/mcp.json',
      JSON.stringify({
        mcpServers: {
          hf: { url: 'https://huggingface.co/mcp', headers: { Authorization: `Bearer ${token}` } },
        },
      }),
    );
    expect(summary(await preview('.lmstudio/mcp.json'))).toEqual([
      ['hf', 'http', 'HTTP https://huggingface.co/mcp', true],
    ]);
    await core.servers.import({ text: readFileSync(file, 'utf8'), fileName: file });
    expect(await core.servers.get('hf')).toMatchObject({ headers: { Authorization: '<keychain>' } });
    expect(secrets.entries.get('server/hf/header/Authorization')).toBe(`Bearer ${token}`);
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain(token);
  });

  it('Claude Code: ~/.claude.json with the user’s servers and each project’s, run in the project folder', async () => {
    put(
      '.claude.json',
      JSON.stringify({
        numStartups: 12,
        mcpServers: {
          everything: {
            type: 'stdio',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-everything'],
            env: {},
          },
        },
        projects: {
          '/home/u/app': {
            allowedTools: [],
            mcpServers: {
              db: { type: 'stdio', command: 'uvx', args: ['mcp-server-postgres'] },
              everything: { type: 'http', url: 'https://app.example.com/mcp' },
            },
          },
          '/home/u/empty': { allowedTools: [] },
        },
      }),
    );
    const p = await preview('.claude.json');
    expect(p.format).toBe('claude-code');
    expect(p.servers.map((s) => [s.config.name, s.config.transport, s.config.cwd])).toEqual([
      ['everything', 'stdio', undefined],
      ['db', 'stdio', '/home/u/app'],
      ['everything-app', 'http', '/home/u/app'],
    ]);
    expect(p.warnings.join('\n')).toMatch(
      /Claude Code projects run in their project's folder \(\/home\/u\/app\)/,
    );
  });

  it('Cherry Studio: its export with baseUrl, isActive, streamableHttp and built-ins skipped', async () => {
    put(
      'Downloads/cherry-studio-mcp.json',
      JSON.stringify({
        mcpServers: {
          fetch: {
            isActive: true,
            name: 'fetch',
            type: 'stdio',
            command: 'uvx',
            args: ['mcp-server-fetch'],
            description: 'Fetch',
            provider: 'CherryAI',
          },
          remote: {
            isActive: false,
            name: 'remote',
            type: 'streamableHttp',
            baseUrl: 'https://mcp.example.com/mcp',
            timeout: 30,
          },
          memory: { isActive: true, name: '@cherry/memory', type: 'inMemory' },
        },
      }),
    );
    const p = await preview('Downloads/cherry-studio-mcp.json');
    expect(summary(p)).toEqual([
      ['fetch', 'stdio', 'uvx mcp-server-fetch', true],
      ['remote', 'http', 'HTTP https://mcp.example.com/mcp', false],
    ]);
    expect(p.servers[1]!.config.timeoutSeconds).toBe(30);
    expect(p.warnings.join('\n')).toMatch(/mcpServers\.memory: a Cherry Studio built-in server/);
  });

  it('VS Code: ${workspaceFolder} is the project folder at start, and ${input:…} is asked and kept in the keychain', async () => {
    const project = join(user, 'code', 'site');
    mkdirSync(project, { recursive: true });
    const token = testSecret('vscode-input');
    const file = put(
      'code/site/.vscode/mcp.json',
      `{
        "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
        "servers": { "files": { "command": "node", "args": ["${FILESYSTEM}", "\${workspaceFolder}"], "env": { "FILES_TOKEN": "\${input:token}" } } }
      }`,
    );
    const p = await core.servers.previewImport(readFileSync(file, 'utf8'), file);
    expect(p.inputs).toMatchObject([{ id: 'token', password: true, usedBy: ['files'] }]);
    expect(p.servers[0]!.config).toMatchObject({
      args: [FILESYSTEM, '${workspaceFolder}'],
      workspaceFolder: project,
    });
    await core.servers.import({ text: readFileSync(file, 'utf8'), fileName: file, names: ['files'] });
    // Without the input's value the server cannot start, and says why.
    expect(await core.servers.connections.testSaved('files')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/input \$\{input:token\}/),
    });
    await core.servers.remove('files');
    await core.servers.import({ text: readFileSync(file, 'utf8'), fileName: file, inputValues: { token } });
    expect(secrets.entries.get('server/files/input/token')).toBe(token);
    const test = await core.servers.connections.testSaved('files');
    expect(test, JSON.stringify(test)).toMatchObject({ ok: true });
    expect(await core.servers.get('files')).toMatchObject({ args: [FILESYSTEM, '${workspaceFolder}'] });
  });
});

describe('mooring mcp import', () => {
  it('imports Goose’s YAML from its place with --yes; without --yes from a script it is refused', async () => {
    const cliHome = tempDir('mooring-client-imports-cli-');
    const file = put('.config/goose/config.yaml', GOOSE);
    const refused = await runMooring(cliHome, ['mcp', 'import', file]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("Goose's config, 2 server(s)");
    const r = await runMooring(cliHome, ['mcp', 'import', file, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const list = await runMooring(cliHome, ['mcp', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((s) => s.name)).toEqual(['github', 'remote']);
  });

  it('mooring mcp detect names each client config the fixture home holds, and how many servers each has', async () => {
    // The fixture home as HOME, laid out as on Linux (no XDG_CONFIG_HOME: ~/.config).
    const opts = { env: { HOME: user }, unset: ['XDG_CONFIG_HOME'] };
    const cliHome = tempDir('mooring-client-detect-cli-');
    const r = await runMooring(cliHome, ['mcp', 'detect', '--json'], opts);
    expect(r.code, r.stderr).toBe(0);
    const found = JSON.parse(r.stdout) as DetectedClient[];
    expect(found.map((c) => [c.label, relative(user, c.path), c.error ?? c.servers.length])).toEqual([
      ['Claude Code', '.claude.json', 3],
      ['Windsurf', join('.codeium', 'windsurf', 'mcp_config.json'), 3],
      ['Zed', join('.config', 'zed', 'settings.json'), 1],
      ['Goose', join('.config', 'goose', 'config.yaml'), 2],
      ['Continue', join('.continue', 'config.yaml'), 2],
      ['Continue', join('.continue', 'config.json'), 1],
      ['LM Studio', join('.lmstudio', 'mcp.json'), 1],
    ]);
    const text = await runMooring(cliHome, ['mcp', 'detect'], opts);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Goose  ${join(user, '.config', 'goose', 'config.yaml')}  2 servers\n`);
    expect(text.stdout).toContain(
      '    github: GITHUB_API_URL=https://api.github.com npx -y @modelcontextprotocol/server-github\n',
    );
  });
});
