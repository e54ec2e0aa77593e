// mcp_servers.json validation: each bad input named in its test title, with the exact
// file:line:column the user would jump to.
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MooringError } from '../errors';
import { ConfigInvalidError } from './jsonDiagnostics';
import { loadServersFile, parseServersText, saveServersFile } from './serversFile';

let home: string;
let file: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mooring-servers-'));
  file = join(home, 'mcp_servers.json');
});
afterEach(() => rm(home, { recursive: true, force: true }));

/** Writes `lines` as the file and returns the config_invalid error loading it throws. */
async function loadError(lines: string[]): Promise<ConfigInvalidError> {
  await writeFile(file, lines.join('\n'));
  const err = await loadServersFile(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigInvalidError);
  const e = err as ConfigInvalidError;
  expect(e.code).toBe('config_invalid');
  expect(e.hint).toMatch(/mooring mcp list/);
  return e;
}

/** `file:line:col` of the first occurrence of `needle` in `lines` (1-based), computed from the text. */
function at(lines: string[], needle: string, occurrence = 0): string {
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    let from = 0;
    for (;;) {
      const col = lines[i]!.indexOf(needle, from);
      if (col < 0) break;
      if (seen++ === occurrence) return `${file}:${i + 1}:${col + 1}`;
      from = col + 1;
    }
  }
  throw new Error(`${needle} not in text`);
}

const wrap = (...entries: string[]) => [
  '{',
  '  "servers": [',
  ...entries.map((e, i) => `    ${e}${i < entries.length - 1 ? ',' : ''}`),
  '  ]',
  '}',
];

describe('loading mcp_servers.json', () => {
  it('a missing file is an empty list', async () => {
    expect(await loadServersFile(file)).toEqual({ servers: [] });
  });

  it('a valid file is parsed with defaults applied', async () => {
    await writeFile(file, JSON.stringify({ servers: [{ name: 'fs', command: 'npx', args: ['-y', 'x'] }] }));
    const { servers } = await loadServersFile(file);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      name: 'fs',
      transport: 'stdio',
      enabled: true,
      timeoutSeconds: 180,
      trust: false,
    });
  });

  it('bad JSON (missing comma) reports file, line and column', async () => {
    const lines = ['{', '  "servers": [', '    { "name": "a" "command": "node" }', '  ]', '}'];
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '"command"')}: expected ","`);
    expect(e.issues[0]).toMatchObject({ line: 3, column: lines[2]!.indexOf('"command"') + 1 });
  });

  it('bad JSON reports its first mistake only, not what the parser stumbled over after it', async () => {
    const lines = ['{', '  "servers": [', '    { "name": "a", "command": "node",, }', '  ]', '}'];
    const e = await loadError(lines);
    expect(e.issues).toHaveLength(1);
    // The second comma, where a property name should be.
    expect(e.message).toBe(`${at(lines, ', }')}: expected a property name in double quotes`);
  });

  it('bad JSON (trailing comma) is not accepted in our own file', async () => {
    const lines = ['{', '  "servers": [', '    { "name": "a", "command": "node", }', '  ]', '}'];
    const e = await loadError(lines);
    expect(e.message).toContain(`${at(lines, '}')}:`);
  });

  it('bad JSON (a comment) is rejected with a message that says so', async () => {
    const lines = ['{', '  // my servers', '  "servers": []', '}'];
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '//')}: comments are not allowed in this file`);
  });

  it('unknown key in an entry names the key and points at it', async () => {
    const lines = wrap('{ "name": "a", "command": "node", "comand2": "x" }');
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '"comand2"')}: servers[0].comand2: unknown key "comand2"`);
  });

  it('unknown top-level key', async () => {
    const lines = ['{', '  "servers": [],', '  "extra": 1', '}'];
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '"extra"')}: extra: unknown key "extra"`);
  });

  it('bad name: a space', async () => {
    const lines = wrap('{ "name": "my server", "command": "node" }');
    const e = await loadError(lines);
    expect(e.message).toBe(
      `${at(lines, '"name"')}: servers[0].name: must be 1–64 characters of letters, digits, "_" or "-"`,
    );
  });

  it('bad name: 65 characters (64 is fine)', async () => {
    const ok = 'a'.repeat(64);
    const lines = wrap(
      `{ "name": "${ok}", "command": "node" }`,
      `{ "name": "${'b'.repeat(65)}", "command": "node" }`,
    );
    const e = await loadError(lines);
    expect(e.issues).toHaveLength(1);
    expect(e.message).toMatch(new RegExp(`^${at(lines, '"name"', 1)}: servers\\[1\\]\\.name: must be 1–64`));
  });

  it('duplicate names point at the second one', async () => {
    const lines = wrap('{ "name": "a", "command": "node" }', '{ "name": "a", "command": "deno" }');
    const e = await loadError(lines);
    expect(e.message).toBe(
      `${at(lines, '"name"', 1)}: servers[1].name: duplicate server name "a" (also at servers[0]); names must be unique`,
    );
  });

  it('duplicate names are reported even when another entry is also invalid', async () => {
    const lines = wrap(
      '{ "name": "a", "command": "node" }',
      '{ "name": "a", "command": "node" }',
      '{ "name": "b" }',
    );
    const e = await loadError(lines);
    expect(e.issues.map((i) => i.path)).toEqual(['servers[1].name', 'servers[2].command']);
  });

  it('stdio without command', async () => {
    const lines = wrap('{ "name": "a", "args": ["x"] }');
    const e = await loadError(lines);
    // A missing key points at the entry that lacks it.
    expect(e.message).toBe(`${at(lines, '{ "name"')}: servers[0].command: a stdio server needs a command`);
  });

  it('http without url', async () => {
    const lines = wrap('{ "name": "remote", "transport": "http" }');
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '{ "name"')}: servers[0].url: an http server needs a url`);
  });

  it('url not http(s)', async () => {
    const lines = wrap('{ "name": "remote", "transport": "sse", "url": "ftp://example.com/sse" }');
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '"url"')}: servers[0].url: must start with http:// or https://`);
  });

  it('unknown transport', async () => {
    const lines = wrap('{ "name": "remote", "transport": "websocket", "url": "https://x.example/" }');
    const e = await loadError(lines);
    expect(e.message).toBe(
      `${at(lines, '"transport"')}: servers[0].transport: must be one of "stdio", "http", "sse"`,
    );
  });

  it.each([
    [0, 'must be at least 1 second'],
    [601, 'must be at most 600 seconds'],
    [1.5, 'must be a whole number of seconds'],
  ])('timeout %s is rejected: %s', async (timeout, message) => {
    const lines = wrap(
      '{ "name": "ok", "command": "node" }',
      `{ "name": "slow", "command": "node", "timeoutSeconds": ${timeout} }`,
    );
    const e = await loadError(lines);
    expect(e.message).toBe(`${at(lines, '"timeoutSeconds"')}: servers[1].timeoutSeconds: ${message}`);
  });

  it('secretEnv naming a missing key', async () => {
    const lines = wrap(
      '{ "name": "gh", "command": "node", "env": { "A": "1" }, "secretEnv": ["GITHUB_TOKEN"] }',
    );
    const e = await loadError(lines);
    expect(e.message).toBe(
      `${at(lines, '"secretEnv"')}: servers[0].secretEnv: "GITHUB_TOKEN" is not a key of env`,
    );
  });

  it('wrong type: args as a string', async () => {
    const lines = wrap('{ "name": "a", "command": "node", "args": "x.js" }');
    const e = await loadError(lines);
    expect(e.message).toMatch(new RegExp(`^${at(lines, '"args"')}: servers\\[0\\]\\.args: .*expected array`));
  });

  it('a repeated key in one object is reported, not silently merged', async () => {
    const lines = wrap('{ "name": "a", "command": "node", "command": "deno" }');
    const e = await loadError(lines);
    expect(e.message).toBe(
      `${at(lines, '"command"', 1)}: servers[0].command: the key "command" appears more than once`,
    );
  });

  it('every issue is listed, each on its own line with its own position', async () => {
    const lines = wrap(
      '{ "name": "a b", "command": "node" }',
      '{ "name": "c", "transport": "http" }',
      '{ "name": "d", "command": "x", "timeoutSeconds": 0 }',
    );
    const e = await loadError(lines);
    const out = e.message.split('\n');
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/\.json:3:7: servers\[0\]\.name: must be 1–64/);
    expect(out[0]!.startsWith(at(lines, '"name"'))).toBe(true);
    expect(out[1]).toBe(`${file}:4:5: servers[1].url: an http server needs a url`);
    expect(out[2]).toBe(
      `${at(lines, '"timeoutSeconds"')}: servers[2].timeoutSeconds: must be at least 1 second`,
    );
    expect(e.issues.map((i) => [i.line, i.column])).toEqual([
      [3, 7],
      [4, 5],
      [5, 36],
    ]);
  });

  it('a file that is not an object', async () => {
    const e = await loadError(['[1, 2]']);
    expect(e.message).toMatch(/:1:1: .*expected object/);
  });

  it('an empty (whitespace only) file is an empty list', async () => {
    expect(parseServersText('  \n', 'x.json')).toEqual({ servers: [] });
  });

  it('a directory in place of the file is a clear config error', async () => {
    const dirAsFile = join(home, 'dir.json');
    await import('node:fs/promises').then((fs) => fs.mkdir(dirAsFile));
    await expect(loadServersFile(dirAsFile)).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/cannot be read/),
    });
  });
});

describe('saving mcp_servers.json', () => {
  it('writes pretty JSON with a trailing newline, leaving out values equal to the defaults', async () => {
    await saveServersFile(file, {
      servers: [
        {
          name: 'fs',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem'],
          enabled: true,
          timeoutSeconds: 180,
        },
        {
          name: 'web',
          transport: 'http',
          url: 'https://example.com/mcp',
          enabled: false,
          timeoutSeconds: 30,
          trust: true,
          includeTools: [],
        },
      ],
    });
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "servers": [\n    {\n      "name": "fs",');
    expect(JSON.parse(text)).toEqual({
      servers: [
        {
          name: 'fs',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem'],
        },
        // includeTools: [] means "none", which differs from absent, so it is kept.
        {
          name: 'web',
          transport: 'http',
          url: 'https://example.com/mcp',
          enabled: false,
          timeoutSeconds: 30,
          trust: true,
          includeTools: [],
        },
      ],
    });
  });

  it('creates the home directory (0700) and the file (0600) on POSIX', async () => {
    const nested = join(home, 'deeper', 'Mooring', 'mcp_servers.json');
    await saveServersFile(nested, { servers: [] });
    if (process.platform !== 'win32') {
      expect((await stat(join(home, 'deeper', 'Mooring'))).mode & 0o777).toBe(0o700);
      expect((await stat(nested)).mode & 0o777).toBe(0o600);
    }
    expect(await loadServersFile(nested)).toEqual({ servers: [] });
  });

  it('validates the whole document before writing: an invalid server writes nothing', async () => {
    await saveServersFile(file, { servers: [{ name: 'a', command: 'node' }] });
    const before = await readFile(file, 'utf8');
    const err = await saveServersFile(file, {
      servers: [
        { name: 'a', command: 'node' },
        { name: 'b', command: 'node', timeoutSeconds: 601 },
      ],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MooringError);
    expect((err as MooringError).message).toBe('servers[1].timeoutSeconds: must be at most 600 seconds');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('an invalid file on disk is never overwritten', async () => {
    const handEdited = '{ "servers": [ { "name": "a", "command": "node", } ] }\n';
    await writeFile(file, handEdited);
    await expect(saveServersFile(file, { servers: [] })).rejects.toMatchObject({ code: 'config_invalid' });
    expect(await readFile(file, 'utf8')).toBe(handEdited);
  });

  it('leaves no temporary files behind', async () => {
    for (let i = 0; i < 5; i++)
      await saveServersFile(file, { servers: [{ name: `s${i}`, command: 'node' }] });
    expect(await readdir(home)).toEqual(['mcp_servers.json']);
  });
});
