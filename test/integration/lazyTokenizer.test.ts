// The tokenizer (gpt-tokenizer, ~66 MB of RSS) loads on the first token estimate only
// (src-main/core/tokenCount.ts): a compiled CLI process that never estimates tokens never loads it. Each run
// is watched by a preload that logs every module file the process loads, ES modules and CommonJS alike
// (test/fixtures/moduleLog.cjs); a chat turn, which sizes the catalog in tokens, is the positive control.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { EVERYTHING, ROOT, tempDir } from '../helpers/servers';

let home: string;

/** Runs the compiled CLI under the module log; returns its exit code, output and every module it loaded. */
function mooring(args: string[], env: Record<string, string> = {}) {
  const log = join(tempDir('mooring-modules-'), 'modules.txt');
  writeFileSync(log, '');
  return new Promise<{ code: number; stderr: string; modules: string[] }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--require', join(ROOT, 'test/fixtures/moduleLog.cjs'), join(ROOT, 'bin/mooring.mjs'), ...args],
      {
        env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', MODULE_LOG: log, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stderr, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) }),
    );
  });
}

const tokenizer = (modules: string[]) => modules.filter((m) => m.includes('gpt-tokenizer'));

describe('the tokenizer loads lazily', () => {
  let fake: FakeProviderServer | undefined;
  beforeAll(() => {
    home = tempDir('mooring-tokenizer-home-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
  });
  afterAll(async () => fake?.close());

  it.each([
    ['--help', ['--help']],
    ['mcp list', ['mcp', 'list']],
    ['mcp tools', ['mcp', 'tools', 'every']],
    ['mcp call', ['mcp', 'call', 'every', 'echo', '{"message":"hi"}']],
  ])('`mooring %s` never loads it', async (_name, args) => {
    const run = await mooring(args);
    expect(run.code, run.stderr).toBe(0);
    // The log saw the compiled CLI load, so it was watching.
    expect(run.modules.some((m) => m.endsWith('/out/main/cli.js'))).toBe(true);
    expect(tokenizer(run.modules)).toEqual([]);
  });

  it('a chat turn, which sizes the tools in tokens, loads it (from node_modules, on first use)', async () => {
    fake = await startOpenAIServer([{ text: 'hello' }]);
    const run = await mooring(['chat', '--model', 'openai:gpt-4o', '--json', 'hi'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(tokenizer(run.modules).some((m) => m.includes('node_modules/gpt-tokenizer/'))).toBe(true);
  });
});
