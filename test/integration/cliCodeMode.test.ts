// `mooring chat --code-mode` (docs/code-mode.md): the real CLI against a scripted model and a real
// server-filesystem; the model is offered run_code, the program's calls show as nested lines, and the
// model reads what the program returned. Without the flag there is no run_code.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { mooringInPty } from '../helpers/pty';
import { FILESYSTEM, tempDir } from '../helpers/servers';
import { openaiView } from '../helpers/wireViews';

const models: FakeProviderServer[] = [];
let home: string;
let root: string;

beforeAll(() => {
  home = tempDir('mooring-cli-code-mode-');
  root = tempDir('mooring-cli-code-mode-files-');
  writeFileSync(join(root, 'a.txt'), 'alpha');
  writeFileSync(join(root, 'b.txt'), 'beta');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'fs', command: 'node', args: [FILESYSTEM, root] }] }),
  );
});
afterAll(() => Promise.all(models.map((m) => m.close())));

const chat = async (flags: string[], script: Parameters<typeof startOpenAIServer>[0]) => {
  const model = await startOpenAIServer(script);
  models.push(model);
  const res = await runMooring(home, ['chat', '--model', 'openai:gpt-4o', ...flags, 'count the files'], {
    env: { MOORING_OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'k' },
  });
  return { res, model };
};

const toolNames = (body: unknown) => openaiView.toolNames(body);

describe('mooring chat --code-mode', () => {
  it('runs one program whose calls show nested, and the model reads what it returned', async () => {
    const code = `
      const l = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
      const a = await tools.mcp__fs__read_text_file({ path: ${JSON.stringify(join(root, 'a.txt'))} });
      return { files: l.content.split('\\n').length, first: a.content };`;
    const { res, model } = await chat(
      ['--code-mode'],
      [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'There are 2 files.' }],
    );
    expect(res.code, res.stderr).toBe(0);
    expect(toolNames(model.requests[0]!.body)).toContain('run_code');
    // Steps go to stderr, the answer to stdout (docs/cli.md, "The terminal").
    expect(res.stderr).toContain('done (run_code):');
    expect(res.stderr).toMatch(/↳ fs\/list_directory done \(\d+ ms\)/);
    expect(res.stderr).toMatch(/↳ fs\/read_text_file done \(\d+ ms\)/);
    expect(res.stdout).toContain('There are 2 files.');
    expect(openaiView.toolResults(model.requests[1]!.body)[0]!.text).toContain('{"files":2,"first":"alpha"}');
  });

  it("a program's destructive call asks at the terminal, showing the program; no is an exception in it", async () => {
    const code = `try { await tools.mcp__fs__write_file({ path: ${JSON.stringify(join(root, 'no.txt'))}, content: 'x' }); }
catch (e) { return 'caught'; }`;
    const model = await startOpenAIServer([
      { toolCalls: [{ name: 'run_code', arguments: { code } }] },
      { text: 'It was refused.' },
    ]);
    models.push(model);
    const pty = mooringInPty(home, ['chat', '--model', 'openai:gpt-4o', '--code-mode', 'write it'], {
      MOORING_OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_API_KEY: 'k',
    });
    await pty.waitFor('Run it? [y/N]');
    expect(pty.output()).toContain('call 1 of a program the model wrote:');
    expect(pty.output()).toContain('│ try { await tools.mcp__fs__write_file(');
    pty.type('n\r');
    expect(await pty.exited).toBe(0);
    expect(openaiView.toolResults(model.requests[1]!.body)[0]!.text).toContain('Returned:\ncaught');
  });

  it('follows a model set to start in code mode, and --no-code-mode turns it off', async () => {
    const own = tempDir('mooring-cli-code-mode-default-');
    writeFileSync(join(own, 'mcp_servers.json'), readFileSync(join(home, 'mcp_servers.json')));
    writeFileSync(join(own, 'settings.json'), JSON.stringify({ codeModeModels: ['openai:gpt-4o'] }));
    for (const [flags, offered] of [
      [[], true],
      [['--no-code-mode'], false],
    ] as const) {
      const model = await startOpenAIServer([{ text: 'Fine.' }]);
      models.push(model);
      const res = await runMooring(own, ['chat', '--model', 'openai:gpt-4o', ...flags, 'count the files'], {
        env: { MOORING_OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'k' },
      });
      expect(res.code, res.stderr).toBe(0);
      expect(toolNames(model.requests.find((r) => r.method === 'POST')!.body).includes('run_code')).toBe(
        offered,
      );
    }
  });

  it('is off without the flag', async () => {
    const { res, model } = await chat([], [{ text: 'No program.' }]);
    expect(res.code, res.stderr).toBe(0);
    expect(toolNames(model.requests[0]!.body)).not.toContain('run_code');
  });
});
