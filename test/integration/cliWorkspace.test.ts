// Workspaces from a terminal: env quick config for `mcp call` and `chat`, workspace discovery that offers
// and never starts silently, and the approval that lets a workspace server run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { EVERYTHING, ROOT, tempDir } from '../helpers/servers';

function mooring(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), ...args], {
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

let fake: FakeProviderServer | undefined;
afterEach(async () => fake?.close());

describe('env quick config', () => {
  it('adds one server named env for `mcp call` and writes nothing', async () => {
    const home = tempDir('mooring-envq-');
    const res = await mooring(['mcp', 'call', 'env', 'echo', '{"message":"quick"}', '--json'], {
      MOORING_HOME: home,
      MOORING_MCP_SERVER_STDIO: `node|${EVERYTHING}|stdio`,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).text).toContain('quick');
    expect(existsSync(join(home, 'mcp_servers.json'))).toBe(false);
  });

  it('works for `chat` too', async () => {
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__env__echo', arguments: { message: 'via chat' } }] },
      { text: 'done' },
    ]);
    const res = await mooring(['chat', '--model', 'openai:gpt-4o', '--json', 'echo something'], {
      MOORING_HOME: tempDir('mooring-envq-'),
      MOORING_MCP_SERVER_STDIO: `node|${EVERYTHING}|stdio`,
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'sk-test',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toContain('via chat');
  });
});

describe('workspace discovery from the CLI', () => {
  it('offers a .vscode/mcp.json server with its command line and does not run it until approved', async () => {
    const home = tempDir('mooring-ws-home-');
    const ws = tempDir('mooring-ws-');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(
      join(ws, '.vscode', 'mcp.json'),
      `// a comment, as VS Code allows\n${JSON.stringify({ servers: { projecty: { type: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'] } } })}`,
    );
    const list = await mooring(['mcp', 'list', '--workspace', ws], { MOORING_HOME: home });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('projecty');
    expect(list.stdout).toContain(`node ${EVERYTHING} stdio`);
    expect(list.stdout).toMatch(/not approved|pending/i);
    const call = await mooring(['mcp', 'call', 'projecty', 'echo', '{"message":"x"}', '--workspace', ws], {
      MOORING_HOME: home,
    });
    expect(call.code).toBe(3);
    expect(call.stderr).toMatch(/"projecty" \(.*\) is not approved for this folder/);
    expect(call.stderr).toContain(`mooring mcp approve projecty --workspace ${ws}`);
    // Approval needs a person at a terminal.
    const approve = await mooring(['mcp', 'approve', 'projecty', '--workspace', ws], { MOORING_HOME: home });
    expect(approve.code).toBe(3);
    expect(approve.stderr).toContain(`node ${EVERYTHING} stdio`);
  });
});
