// The text `mooring mcp list --workspace DIR` prints, from a real scan of a real folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { MemorySecretStore } from '../secrets/secretStore';
import { approveWorkspaceServer, scanWorkspace } from './discovery';
import { WorkspaceApprovals } from './workspaceApprovals';
import { formatWorkspaceScan } from './workspaceReport';

it('lists status, command line, what it may do, override, inputs, the approved line of a changed entry, and broken files', async () => {
  const ws = await mkdtemp(join(tmpdir(), 'mooring-ws-'));
  const approvals = await WorkspaceApprovals.open(await mkdtemp(join(tmpdir(), 'mooring-home-')));
  mkdirSync(join(ws, '.vscode'));
  mkdirSync(join(ws, '.cursor'));
  const vscode = (arg: string) =>
    JSON.stringify({
      inputs: [{ id: 'key', type: 'promptString', password: true, description: 'API key' }],
      servers: { github: { command: 'node', args: [arg], env: { K: '${input:key}' } } },
    });
  writeFileSync(join(ws, '.vscode/mcp.json'), vscode('gh.js'));
  writeFileSync(join(ws, '.cursor/mcp.json'), '{ "mcpServers": ');
  const first = await scanWorkspace(ws, { approvals });
  await approveWorkspaceServer({
    offered: first.servers[0]!,
    approvals,
    secrets: new MemorySecretStore(),
    ask: async () => 'v',
  });
  writeFileSync(join(ws, '.vscode/mcp.json'), vscode('gh2.js'));
  const scan = await scanWorkspace(ws, { approvals });
  const globals = [ServerConfigSchema.parse({ name: 'github', command: 'npx', args: ['gh'] })];
  const lines = formatWorkspaceScan(scan, globals);
  expect(lines.slice(0, 7)).toEqual([
    `Workspace ${scan.workspace}`,
    '  github: changed since approval, from .vscode/mcp.json (overrides the global "github")',
    "    runs: K='${input:key}' node gh2.js",
    '    Runs unconfined: it can read and write everything you can and reach any host.',
    '    gives it: environment variables: K',
    "    approved: K='${input:key}' node gh.js",
    '    asks for: key (secret) — API key',
  ]);
  expect(lines[7]).toBe('  .cursor/mcp.json: cannot be used');
  expect(lines[8]).toMatch(new RegExp(`^    ${join(scan.workspace, '.cursor/mcp.json')}:1:\\d+: `));
});
