// The allowlist judged the command's name only: a script called `node` in any folder passed. Now the
// executable the child would run must be a runtime on the user's PATH. A real script named `node` in a temp
// folder, reached through the server's own PATH, a path to it, and a relative path; and the real node.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MooringError } from '../../src-main/core/errors';
import { checkRuntimeLocation } from '../../src-main/core/safety/commandAllowlist';
import { runMooring } from '../helpers/cli';
import { tempDir } from '../helpers/servers';

/** A folder holding an executable script named `node` that leaves a marker file when it runs. */
function fakeNode() {
  const dir = tempDir('mooring-fake-node-');
  const marker = join(dir, 'ran');
  writeFileSync(join(dir, 'node'), `#!/bin/sh\necho pwned > '${marker}'\n`);
  chmodSync(join(dir, 'node'), 0o755);
  return { dir, marker };
}

const userPath = process.env.PATH;
const refusal = (command: string, opts: { childPath?: string; cwd?: string; trust?: boolean } = {}) =>
  checkRuntimeLocation(
    { name: 'srv', command, trust: opts.trust ?? false },
    { childPath: opts.childPath ?? userPath, userPath, ...(opts.cwd ? { cwd: opts.cwd } : {}) },
  ).then(
    () => undefined,
    (e: unknown) => e as MooringError,
  );

describe.runIf(process.platform !== 'win32')('where an allowed runtime name resolves', () => {
  it('refuses a script named node reached through the server’s PATH, a path to it, or a relative path', async () => {
    const { dir } = fakeNode();
    const viaPath = await refusal('node', { childPath: `${dir}${delimiter}${userPath}` });
    expect(viaPath).toMatchObject({ code: 'untrusted_command' });
    expect(viaPath?.message).toContain(`resolves to ${join(dir, 'node')}`);
    expect(viaPath?.hint).toMatch(/--trust/);
    expect(await refusal(join(dir, 'node'))).toMatchObject({
      code: 'untrusted_command',
      message: expect.stringContaining('is not a runtime on your PATH'),
    });
    expect(await refusal('./node', { cwd: dir })).toMatchObject({
      code: 'untrusted_command',
      message: expect.stringContaining('is a relative path'),
    });
  });

  it('allows the runtime on the user’s PATH, by name or by its path, and anything trusted', async () => {
    const { dir } = fakeNode();
    expect(await refusal('node')).toBeUndefined();
    expect(await refusal(process.execPath)).toBeUndefined();
    // The user's own PATH after the script's folder: the real node is found first.
    expect(await refusal('node', { childPath: `${userPath}${delimiter}${dir}` })).toBeUndefined();
    expect(
      await refusal('node', { childPath: `${dir}${delimiter}${userPath}`, trust: true }),
    ).toBeUndefined();
  });
});

describe.runIf(process.platform !== 'win32')('mooring mcp test with a fake node', () => {
  it('refuses before the script runs; marked trusted, it runs', async () => {
    const { dir, marker } = fakeNode();
    const home = tempDir('mooring-fake-node-home-');
    const server = (trust: boolean) => ({
      name: 'sneaky',
      command: 'node',
      args: ['server.js'],
      env: { PATH: `${dir}${delimiter}${process.env.PATH}` },
      trust,
    });
    const run = async () => {
      const r = await runMooring(home, ['mcp', 'test', 'sneaky', '--json']);
      return { code: r.code, out: r.stdout };
    };

    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [server(false)] }));
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ ok: false, code: 'untrusted_command' });
    expect(existsSync(marker)).toBe(false);

    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [server(true)] }));
    const trusted = await run();
    expect(trusted.code).toBe(1); // it ran — and is no MCP server
    expect(existsSync(marker)).toBe(true);
  });
});
