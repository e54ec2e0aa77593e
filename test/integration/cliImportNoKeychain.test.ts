// `mooring mcp import` where no keychain is reachable (no D-Bus session): a server whose secrets (here a VS
// Code `${input:…}`) cannot be kept is not saved — it could never start — and the summary and the exit status
// say so: exit 0 when the others were imported, exit 1 when nothing usable was. The real CLI, a temp home.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runMooring } from '../helpers/cli';
import { NO_KEYCHAIN, STACK_TRACE } from '../helpers/cliPipes';
import { EVERYTHING, tempDir } from '../helpers/servers';

let home: string;
let dir: string;
const mooring = (args: string[]) => runMooring(home, args, { unset: NO_KEYCHAIN });
const saved = () =>
  existsSync(join(home, 'mcp_servers.json'))
    ? (
        JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')) as { servers: { name: string }[] }
      ).servers.map((s) => s.name)
    : [];

const vscodeFile = (servers: Record<string, unknown>) => {
  const file = join(dir, 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      inputs: [{ type: 'promptString', id: 'token', description: 'API token', password: true }],
      servers,
    }),
  );
  return file;
};
const secretive = { command: 'node', args: [EVERYTHING, 'stdio'], env: { API_TOKEN: '${input:token}' } };
const plain = { command: 'node', args: [EVERYTHING, 'stdio'] };

beforeEach(() => {
  home = tempDir('mooring-import-nokeychain-');
  dir = tempDir('mooring-import-file-');
});

describe.runIf(process.platform === 'linux')('import without a keychain', () => {
  it('saves the servers it can keep, leaves out the others and names them; exit 0', async () => {
    const file = vscodeFile({ github: secretive, plain });
    const r = await mooring(['mcp', 'import', file, '--yes']);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('imported 1 server(s)');
    expect(r.stderr).toContain('not imported (their secrets cannot be kept without a keychain): github');
    expect(saved()).toEqual(['plain']);
    const json = await runMooring(
      tempDir('mooring-import-nokeychain-'),
      ['mcp', 'import', file, '--yes', '--json'],
      {
        unset: NO_KEYCHAIN,
      },
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, imported: ['plain'], notImported: ['github'] });
  });

  it('when nothing usable is left, saves nothing and exits 1 with why', async () => {
    const file = vscodeFile({ github: secretive });
    const r = await mooring(['mcp', 'import', file, '--yes']);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /Nothing was imported: every server in .* has secrets, and no keychain is reachable/,
    );
    expect(r.stderr).not.toMatch(/imported \d+ server/);
    expect(saved()).toEqual([]);
    const json = await mooring(['mcp', 'import', file, '--yes', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'secret_unavailable' });
  });
});
