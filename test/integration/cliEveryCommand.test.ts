// Every `mooring` command the way scripts use it (README, "Using it from a terminal"): piped into `head -1`
// it exits 0 with no stack trace; with --json it prints JSON that parses (one document; the streaming
// commands one per line); a failure with --json is {ok:false, error, code, hint} and its exit code is the one
// `mooring help exit-codes` lists for that code. The list of commands comes from `mooring help commands`, so
// a new command without a line here fails this test. Real processes, a temp home, real servers, a scripted
// model, the fixture registry, OAuth server and OSV stand-in on 127.0.0.1; no keychain, so every run is alike.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServerFixture } from '../fixtures/authServer';
import { startOsvServer, type OsvStub } from '../fixtures/osvServer';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registryServer';
import { runMooring } from '../helpers/cli';
import { BIN, NO_KEYCHAIN, pipedToHead, STACK_TRACE } from '../helpers/cliPipes';
import { EVERYTHING, fixturePath, freePort, RUN_TS, tempDir } from '../helpers/servers';

type Variant = 'text' | 'json';

interface Line {
  args: (v: Variant) => string[];
  /** What --json prints: one document (default), one per line, or the command has no --json. */
  json?: 'document' | 'lines';
  /** The exit code when it cannot succeed here (a sign-in without a keychain). */
  expect?: () => number;
}

let home: string;
let ws: string;
let model: FakeProviderServer;
let registry: FixtureRegistry;
let osv: OsvStub;
let auth: AuthServerFixture;
let env: Record<string, string>;

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const server = { command: 'node', args: [EVERYTHING, 'stdio'] };

/** In the order they run: what one command adds, a later one uses and removes. */
const COMMANDS: Record<string, Line> = {
  'mcp add': { args: (v) => ['mcp', 'add', `pipe-${v}`, '--', 'node', EVERYTHING, 'stdio'] },
  'mcp list': { args: () => ['mcp', 'list'] },
  'mcp detect': { args: () => ['mcp', 'detect'] },
  'mcp import': { args: () => ['mcp', 'import', join(ws, 'claude.json'), '--yes', '--replace'] },
  'mcp test': { args: () => ['mcp', 'test', 'every'] },
  'mcp tools': { args: () => ['mcp', 'tools', 'every'] },
  'mcp call': { args: () => ['mcp', 'call', 'every', 'echo', '{"message":"piped"}'] },
  'mcp prompts': { args: () => ['mcp', 'prompts', 'every'] },
  'mcp resources': { args: () => ['mcp', 'resources', 'every'] },
  'mcp read': { args: () => ['mcp', 'read', 'every', 'demo://resource/static/document/architecture.md'] },
  'mcp logs': { args: () => ['mcp', 'logs', 'every'], json: 'lines' },
  'mcp skills': { args: () => ['mcp', 'skills', 'skills'] },
  'mcp skill': { args: () => ['mcp', 'skill', 'skills', 'skill://refunds/SKILL.md', '--approve'] },
  'mcp sandbox': { args: () => ['mcp', 'sandbox', 'every'] },
  'mcp trust': { args: (v) => ['mcp', 'trust', `pipe-${v}`] },
  'mcp disable': { args: (v) => ['mcp', 'disable', `pipe-${v}`] },
  'mcp enable': { args: (v) => ['mcp', 'enable', `pipe-${v}`] },
  'mcp set': { args: (v) => ['mcp', 'set', `pipe-${v}`, 'timeoutSeconds', '60'] },
  'mcp approve': { args: () => ['mcp', 'approve', 'proj', '--workspace', ws, '--yes'] },
  'mcp flows allow': { args: (v) => ['mcp', 'flows', 'allow', 'every', `pipe-${v}`] },
  'mcp flows list': { args: () => ['mcp', 'flows', 'list'] },
  'mcp flows revoke': { args: (v) => ['mcp', 'flows', 'revoke', 'every', `pipe-${v}`] },
  // Nothing here holds a variable back (no import put one in a remote server's headers): a usage error.
  'mcp allow-variable': {
    args: (v) => ['mcp', 'allow-variable', `pipe-${v}`, 'GITHUB_TOKEN'],
    expect: () => 2,
  },
  'mcp login': {
    args: () => ['mcp', 'login', 'remote', '--no-browser'],
    // Tokens are kept in the keychain only: without one the sign-in is refused, cleanly.
    expect: () => 1,
  },
  'mcp logout': { args: () => ['mcp', 'logout', 'remote'] },
  'mcp search': { args: () => ['mcp', 'search', 'everything'] },
  'mcp install': {
    args: (v) => [
      'mcp',
      'install',
      `mooring://install?name=linked&config=${b64(server)}`,
      '--name',
      `linked-${v}`,
      '--yes',
    ],
  },
  'mcp remove': { args: (v) => ['mcp', 'remove', `pipe-${v}`] },
  chat: { args: () => ['chat', '--model', 'openai:gpt-4o', 'say hi'], json: 'lines' },
  serve: { args: () => ['serve', '--client-entry'] },
  web: { args: () => ['web', '--no-open'], json: 'lines' },
  'toolset add': { args: (v) => ['toolset', 'add', `reader-${v}`, 'mcp__every__echo'] },
  'toolset list': { args: () => ['toolset', 'list'] },
  'toolset remove': { args: (v) => ['toolset', 'remove', `reader-${v}`] },
  'schedule add': {
    args: (v) => ['schedule', 'add', `nightly-${v}`, '--every', '1h', '--model', 'openai:gpt-4o', 'say hi'],
  },
  'schedule list': { args: () => ['schedule', 'list'] },
  'schedule history': { args: (v) => ['schedule', 'history', `nightly-${v}`] },
  'schedule pause': { args: (v) => ['schedule', 'pause', `nightly-${v}`] },
  'schedule resume': { args: (v) => ['schedule', 'resume', `nightly-${v}`] },
  'schedule run': { args: (v) => ['schedule', 'run', `nightly-${v}`] },
  'schedule remove': { args: (v) => ['schedule', 'remove', `nightly-${v}`] },
  'settings get': { args: () => ['settings', 'get'] },
  'settings set': { args: () => ['settings', 'set', 'maxToolIterations', '30'] },
  'settings unset': { args: () => ['settings', 'unset', 'maxToolIterations'] },
  help: { args: () => ['help', 'exit-codes'] },
};

/** --json goes before a `--` (after it, it would be the server command's own argument). */
function withJson(args: string[]): string[] {
  const at = args.indexOf('--');
  return at < 0 ? [...args, '--json'] : [...args.slice(0, at), '--json', ...args.slice(at)];
}

/** `mooring web` runs until stopped: its first line read, the reader gone, then SIGTERM (how it ends). */
function webUntilFirstLine(args: string[]): Promise<{ code: number; first: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    MOORING_HOME: home,
    MOORING_NO_SHELL_PATH: '1',
    ...env,
  };
  for (const name of NO_KEYCHAIN) delete childEnv[name];
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let first = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    if (first.includes('\n')) return;
    first += d.toString();
    if (!first.includes('\n')) return;
    first = first.slice(0, first.indexOf('\n') + 1);
    child.stdout.destroy();
    child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, first, stderr })));
}

beforeAll(async () => {
  [model, registry, osv, auth] = await Promise.all([
    startOpenAIServer(Array.from({ length: 12 }, () => ({ text: 'hi there' }))),
    startFixtureRegistry(),
    startOsvServer({ packages: [] }),
    startAuthServer(),
  ]);
  home = tempDir('mooring-every-home-');
  ws = tempDir('mooring-every-ws-');
  env = {
    HOME: tempDir('mooring-every-user-'), // `mcp detect` looks at this user's client configs only
    MOORING_OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_API_KEY: 'test-key',
    MOORING_REGISTRY_URL: registry.url,
  };
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ osvEndpoint: osv.url, oauthRedirectPort: await freePort() }),
  );
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'every', ...server },
        { name: 'remote', transport: 'http', url: auth.mcpUrl },
        { name: 'skills', command: 'node', args: [RUN_TS, fixturePath('skillsServer.ts')] },
      ],
    }),
  );
  writeFileSync(join(ws, 'claude.json'), JSON.stringify({ mcpServers: { imported: server } }));
  mkdirSync(join(ws, '.mooring'));
  writeFileSync(
    join(ws, '.mooring', 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'proj', ...server }] }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all([model?.close(), registry?.close(), osv?.close(), auth?.close()]);
});

describe('every command, as a script runs it', () => {
  it('mooring help commands lists exactly the commands this test runs', async () => {
    const r = await runMooring(home, ['help', 'commands']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const [name, line] of Object.entries(COMMANDS))
    it(`${name}: | head -1 exits ${line.expect ? 'as documented' : '0'} with no stack trace; --json parses`, async () => {
      const code = line.expect?.() ?? 0;
      const opts = { env, unset: NO_KEYCHAIN };
      const piped =
        name === 'web'
          ? await webUntilFirstLine(line.args('text'))
          : await pipedToHead(home, line.args('text'), opts);
      expect(piped.stderr).not.toMatch(STACK_TRACE);
      expect(piped.code, piped.stderr).toBe(code);

      const args = withJson(line.args('json'));
      const json =
        name === 'web'
          ? await webUntilFirstLine(args)
          : await runMooring(home, args, opts).then((r) => ({ ...r, first: r.stdout }));
      expect(json.stderr).not.toMatch(STACK_TRACE);
      expect(json.code, json.stderr).toBe(code);
      const out = json.first.trim();
      expect(out, `${name} --json printed nothing`).not.toBe('');
      const docs = line.json === 'lines' ? out.split('\n').map((l) => JSON.parse(l)) : [JSON.parse(out)];
      // A failure is data a script can act on; the exit code follows its code.
      if (code !== 0) expect(docs[0]).toMatchObject({ ok: false, code: expect.any(String) });
    }, 180_000);
});

describe('a closed pipe', () => {
  // `| true` closes the pipe before mooring writes a byte: its first write meets EPIPE.
  for (const args of [
    ['mcp', 'tools', 'every'],
    ['mcp', 'tools', 'every', '--json'],
    ['mcp', 'resources', 'every'],
    ['mcp', 'call', 'every', 'get-resource-links', '{"count":10}'],
  ])
    it(`mooring ${args.join(' ')} | true ends quietly with exit 0`, async () => {
      const r = await pipedToHead(home, args, { env, unset: NO_KEYCHAIN, reader: 'true' });
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    });
});

describe('exit codes', () => {
  it('each failure exits with the code mooring help exit-codes lists for its --json code', async () => {
    const docs = JSON.parse((await runMooring(home, ['help', 'exit-codes', '--json'])).stdout) as Array<{
      code: number;
      errors: string[];
    }>;
    const cases: Array<{ args: string[]; exit: number; code: string }> = [
      { args: ['mcp', 'add'], exit: 2, code: 'usage' },
      { args: ['mcp', 'frobnicate'], exit: 2, code: 'usage' },
      { args: ['mcp', 'call', 'nope', 'x'], exit: 2, code: 'not_found' },
      { args: ['mcp', 'call', 'every', 'no-such-tool'], exit: 2, code: 'not_found' },
      { args: ['mcp', 'approve', 'proj', '--workspace', ws], exit: 3, code: 'refused' },
      { args: ['mcp', 'import', join(ws, 'none.json')], exit: 2, code: 'config_not_found' },
      {
        args: ['mcp', 'call', 'every', 'echo', '{"message":"x"}', '--workspace', join(ws, 'none')],
        exit: 2,
        code: 'not_found',
      },
    ];
    for (const c of cases) {
      const r = await runMooring(home, [...c.args, '--json'], { env, unset: NO_KEYCHAIN });
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.code, `${c.args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(c.exit);
      const doc = JSON.parse(r.stdout);
      expect(doc).toMatchObject({ ok: false, code: c.code, error: expect.any(String) });
      expect(docs.find((d) => d.code === r.code)?.errors).toContain(doc.code);
    }
  }, 120_000);
});
