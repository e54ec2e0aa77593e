// The Sharing screen's and `mooring serve --client-entry`'s entry for a client that starts its servers
// itself (Claude Desktop, Cursor): pasted as is, with no `mooring` on PATH, it must start a working server.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { clientEntry, mooringOnPath } from '../../src-main/core/serve/launchCommand';
import { runMooring } from '../helpers/cli';
import { ROOT, tempDir } from '../helpers/servers';

describe('the client entry for this install', () => {
  it('names this Node and bin/mooring.mjs by absolute path, and starts a server with an empty PATH', async () => {
    const home = tempDir('mooring-entry-');
    const run = await runMooring(home, ['serve', '--client-entry', '--json'], {
      env: { PATH: '/nonexistent' },
    });
    expect(run.code).toBe(0);
    const entry = JSON.parse(run.stdout) as ReturnType<typeof clientEntry>;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([join(ROOT, 'bin', 'mooring.mjs'), 'serve', '--stdio']);
    expect(entry.bareOnPath).toBe(false);
    expect(entry.bareNote).toContain('npm link');
    expect(JSON.parse(entry.json)).toEqual({
      mcpServers: { mooring: { command: entry.command, args: entry.args } },
    });

    // What a client does with it: start the command with its own environment, no PATH to find anything on.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', PATH: '/nonexistent' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'entry-test', version: '1.0.0' });
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('says the bare command works only when a mooring on PATH is this install', () => {
    const root = tempDir('mooring-pkg-');
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'package.json'), '{}');
    writeFileSync(join(root, 'bin', 'mooring.mjs'), '');
    const bin = join(root, 'bin', 'mooring.mjs');
    const pathDir = tempDir('mooring-path-');
    const other = tempDir('mooring-other-');
    writeFileSync(join(other, 'mooring'), '');

    expect(mooringOnPath(bin, { PATH: other })).toBe(false);
    symlinkSync(bin, join(pathDir, 'mooring'));
    expect(mooringOnPath(bin, { PATH: `${other}:${pathDir}` })).toBe(true);

    const linked = clientEntry({ root, env: { PATH: pathDir } });
    expect(linked.bareOnPath).toBe(true);
    expect(linked.bareNote).toContain('is on your PATH and works');
    const packaged = clientEntry({
      selfLaunch: { command: '/Applications/Mooring.app/Contents/MacOS/Mooring', args: ['--mcp-server'] },
    });
    expect(packaged.args).toEqual(['--mcp-server']);
    expect(packaged.bareNote).toContain('needs no mooring command');
  });
});
