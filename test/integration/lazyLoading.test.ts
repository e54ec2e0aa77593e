// What a start must not pay for loads on first use only (docs/cli.md, "How the CLI ships", "Layers"): the
// tokenizer (gpt-tokenizer, ~66 MB of RSS) on the first token estimate (src-main/core/tokenCount.ts), the model
// providers' client libraries on a provider's first request (agent/lazy.ts) and undici on a remote server's
// first guarded fetch (safety/lazy.ts). A compiled CLI process that does none of these loads none of them. Each
// run is watched by a preload that logs every module file the process loads, ES modules and CommonJS alike
// (test/fixtures/moduleLog.cjs); the build puts each lazy library in chunks of its own, told apart here by the
// package paths they name. A chat turn, which sizes the catalog in tokens and streams from a model through
// `openai`, is the positive control.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

const LAZY_LIBRARIES = ['openai', '@anthropic-ai/sdk', 'ollama', 'undici'];
/** The lazy libraries whose code is in a compiled chunk the process loaded. */
function lazyLibraries(modules: string[]): string[] {
  const chunks = modules
    .filter((m) => m.includes('/out/main/chunks/'))
    .map((m) => readFileSync(m.startsWith('file:') ? fileURLToPath(m) : m, 'utf8'));
  return LAZY_LIBRARIES.filter((lib) => chunks.some((c) => c.includes(`node_modules/${lib}/`)));
}

describe('the tokenizer and the lazy rooms load on first use', () => {
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
  ])('`mooring %s` loads neither the tokenizer nor a model client nor undici', async (_name, args) => {
    const run = await mooring(args);
    expect(run.code, run.stderr).toBe(0);
    // The log saw the compiled CLI load, so it was watching.
    expect(run.modules.some((m) => m.endsWith('/out/main/cli.js'))).toBe(true);
    expect(tokenizer(run.modules)).toEqual([]);
    expect(lazyLibraries(run.modules)).toEqual([]);
  });

  it("a chat turn loads the tokenizer (from node_modules) and its own provider's client only", async () => {
    fake = await startOpenAIServer([{ text: 'hello' }]);
    const run = await mooring(['chat', '--model', 'openai:gpt-4o', '--json', 'hi'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(tokenizer(run.modules).some((m) => m.includes('node_modules/gpt-tokenizer/'))).toBe(true);
    expect(lazyLibraries(run.modules)).toEqual(['openai']);
  });
});
