// A conversation resumed after `mooring chat` was killed with SIGKILL while a tool ran: the call's result was
// never saved, and whether it took effect is not known. The model is told the outcome is unknown — never "not
// run", which would invite it to run the call again. The real command, a scripted model, a real server.
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { BIN } from '../helpers/cliPipes';
import { fixtureStdio, tempDir } from '../helpers/servers';

let home: string;
let model: FakeProviderServer;
let env: Record<string, string>;

beforeAll(async () => {
  home = tempDir('mooring-interrupted-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [fixtureStdio('terminalServer.ts', 'term')] }),
  );
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__term__long', arguments: {} }] },
    { text: 'I will check first.' },
  ]);
  env = { MOORING_OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'test-key' };
});
afterAll(() => model?.close());

describe('a tool call interrupted by kill -9', () => {
  it('is "outcome unknown" to the model when the conversation goes on', async () => {
    const child = spawn(process.execPath, [BIN, 'chat', '--model', 'openai:gpt-4o', 'run the long job'], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    // Its progress on stderr: the call runs at the server.
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/… \d+\/100/.test(stderr)) resolve();
      }),
    );
    child.kill('SIGKILL');
    await exited;

    const [file] = readdirSync(join(home, 'conversations')).filter((f) => f.endsWith('.jsonl'));
    const id = file!.replace(/\.jsonl$/, '');
    const resumed = await runMooring(
      home,
      ['chat', '--model', 'openai:gpt-4o', '--conversation', id, 'did it finish?'],
      { env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const told = JSON.stringify(model.requests.at(-1)?.body.messages);
    expect(told).toContain('outcome unknown');
    expect(told).toContain('may or may not have run');
    expect(told).not.toContain('not run:');
  }, 120_000);
});
