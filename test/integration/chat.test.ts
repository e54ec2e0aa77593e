// `mooring chat` end to end on the real path: a fake OpenAI-compatible server speaking the real wire
// format, the CLI as a child process, server-filesystem through catalog → safety → session.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { FILESYSTEM, ROOT, tempDir } from '../helpers/servers';

const BIN = join(ROOT, 'bin/mooring.mjs');
let home: string;
let root: string;
let fake: FakeProviderServer | undefined;

function chat(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'chat', ...args], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; event?: { phase: string }; text?: string });

describe('mooring chat', () => {
  beforeAll(() => {
    home = tempDir('mooring-chat-home-');
    root = tempDir('mooring-chat-root-');
    writeFileSync(join(root, 'alpha.txt'), 'first');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'files', command: 'node', args: [FILESYSTEM, root] }] }),
    );
  });
  afterEach(async () => fake?.close());

  it('lists a directory through server-filesystem and answers, streaming JSON events', async () => {
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__files__list_directory', arguments: { path: root } }] },
      { text: 'Your folder holds alpha.txt.' },
    ]);
    const res = await chat(['--model', 'openai:gpt-4o', '--json', 'What is in my folder?'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const ev = events(res.stdout);
    const phases = ev.filter((e) => e.type === 'toolCall').map((e) => e.event?.phase);
    expect(phases).toEqual(['requested', 'running', 'done']);
    expect(
      ev
        .filter((e) => e.type === 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Your folder holds alpha.txt.');
    // The tool result reached the model in the second request.
    const second = JSON.stringify(fake.requests[1]?.body.messages);
    expect(second).toContain('alpha.txt');
    expect(
      fake.requests[0]?.body.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toContain('mcp__files__list_directory');
    // The conversation persisted.
    expect(res.stderr).toMatch(/conversation: /);
  });

  it('refuses a destructive call without --yes when nobody can be asked, and the model hears why', async () => {
    const target = join(root, 'new.txt');
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__files__write_file', arguments: { path: target, content: 'x' } }] },
      { text: 'I could not write it.' },
    ]);
    const res = await chat(['--model', 'openai:gpt-4o', '--json', 'Write a file'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(events(res.stdout).some((e) => e.type === 'toolCall' && e.event?.phase === 'refused')).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toMatch(/refused/);
    expect(readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')).toContain('"decision":"refuse"');
  });
});

describe('mooring chat names a new conversation with its model', () => {
  it('through the same core method as the app: a title event, the title saved; a continued one is not asked', async () => {
    fake = await startOpenAIServer([{ text: 'Paris is sunny.' }, { text: 'Still sunny.' }], {
      titles: [{ text: '"Sunny Paris"' }],
    });
    const env = { MOORING_OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'test-key' };
    const res = await chat(['--model', 'openai:gpt-4o', '--json', 'weather in paris?'], env);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const titled = events(res.stdout).find((e) => e.type === 'title') as {
      title?: string;
      conversationId?: string;
    };
    expect(titled?.title).toBe('Sunny Paris');
    const file = readFileSync(join(home, 'conversations', `${titled.conversationId}.jsonl`), 'utf8');
    expect(file).toContain('"by":"model"');
    // A continued conversation is not named again: no request, nothing printed.
    const again = await chat(
      ['--model', 'openai:gpt-4o', '--conversation', titled.conversationId!, 'and tomorrow?'],
      env,
    );
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stderr).not.toMatch(/title:/);
    expect(fake.titleRequests).toHaveLength(1);
  });
});

describe('mooring chat --tool-set', () => {
  it('offers the model only the tools of the named set', async () => {
    const bin = join(ROOT, 'bin/mooring.mjs');
    const run = (args: string[]) =>
      new Promise<number>((res) =>
        spawn(process.execPath, [bin, ...args], {
          env: { ...process.env, MOORING_HOME: home },
          stdio: 'ignore',
        }).on('close', (c) => res(c ?? -1)),
      );
    expect(
      await run(['toolset', 'add', 'Reader', 'mcp__files__read_text_file', 'mcp__files__list_directory']),
    ).toBe(0);
    fake = await startOpenAIServer([{ text: 'ok' }]);
    const res = await chat(['--model', 'openai:gpt-4o', '--tool-set', 'Reader', '--json', 'hello'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const offered = fake.requests[0]?.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(new Set(offered)).toEqual(new Set(['mcp__files__read_text_file', 'mcp__files__list_directory']));
    const unknown = await chat(['--model', 'openai:gpt-4o', '--tool-set', 'Nope', 'hello'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tool set named "Nope".*Reader/s);
  });
});
