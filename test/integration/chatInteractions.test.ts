// What server-everything asks of `mooring chat` (spec 2025-11-25 "Sampling", "Elicitation"), end to end:
// the real CLI on a real pseudo-terminal, server-everything as a real process, the model a scripted
// OpenAI-compatible server. Sampling is shown with its request and budget and sent only after a yes
// (--yes approves the tool call, never the sampling); a form is asked field by field, defaults shown, bad
// values asked again. Without a terminal both are declined at once with a line saying so. And
// `mooring mcp test` sees the tools a real session sees.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { mooringInPty } from '../helpers/pty';
import { EVERYTHING, tempDir } from '../helpers/servers';

let home: string;
let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const modelEnv = () => ({ MOORING_OPENAI_BASE_URL: `${fake!.url}/v1`, OPENAI_API_KEY: 'test-key' });
const chatArgs = (message: string) => ['chat', '--model', 'openai:gpt-4o', '--yes', message];

/** The tool result the model was sent back, from the scripted server's recorded requests. */
const toolResultSent = () =>
  JSON.stringify(fake!.requests.at(-1)?.body.messages.filter((m: { role: string }) => m.role === 'tool'));

describe('mooring chat answers sampling and forms at the terminal (server-everything)', () => {
  beforeAll(() => {
    home = tempDir('mooring-chat-interactions-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
  });

  it('sampling: the request and the budget are shown; the model answers only after yes', async () => {
    fake = await startOpenAIServer([
      {
        toolCalls: [
          {
            name: 'mcp__every__trigger-sampling-request',
            arguments: { prompt: 'hello sampler', maxTokens: 50 },
          },
        ],
      },
      { text: 'sampled words' }, // the completion the server asked for
      { text: 'All done.' },
    ]);
    const pty = mooringInPty(home, chatArgs('sample something'), modelEnv());
    await pty.waitFor('every asks your model for a completion (sampling).');
    await pty.waitFor('system prompt: You are a helpful test server.');
    await pty.waitFor('user: Resource trigger-sampling-request context: hello sampler');
    await pty.waitFor('up to 50 tokens, temperature 0.7');
    await pty.waitFor('budget: 0 of 20000 tokens used in the last hour');
    await pty.waitFor('Send it to your model? [y/N]');
    expect(fake.requests).toHaveLength(1); // --yes ran the tool, but nothing was sampled before the yes
    pty.type('y\r');
    expect(await pty.exited, pty.output()).toBe(0);
    expect(pty.output()).toContain('All done.');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('hello sampler');
    expect(toolResultSent()).toContain('sampled words');
  });

  it('a form: typed fields, defaults shown, bad values asked again', async () => {
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__every__trigger-elicitation-request', arguments: {} }] },
      { text: 'Thanks.' },
    ]);
    const pty = mooringInPty(home, chatArgs('ask me'), modelEnv());
    await pty.waitFor('every asks for input: Please provide inputs for the following fields:');
    await pty.waitFor('Answer it? (no declines) [y/N]');
    pty.type('y\r');
    const answer = async (question: string, text: string) => {
      await pty.waitFor(question);
      pty.type(`${text}\r`);
    };
    await pty.waitFor('String (name) — required');
    await answer('name (string): ', ''); // required: asked again
    await pty.waitFor('an answer is required; try again');
    await answer('name (string): ', 'Ada Lovelace');
    await answer('check (y/n): ', 'maybe');
    await pty.waitFor('answer y or n; try again');
    await answer('check (y/n): ', 'y');
    await answer('firstLine (string) [default: It was a dark and stormy night.]: ', '');
    await answer('email (string, email): ', 'ada@example.com');
    await answer('homepage (string, uri): ', '');
    await answer('birthdate (string, date): ', '');
    await answer('integer (integer) [default: 42]: ', '500');
    await pty.waitFor(/100; try again/);
    await answer('integer (integer) [default: 42]: ', '7');
    await answer('number (number) [default: 3.14]: ', '');
    await pty.waitFor('3) Joey');
    await answer('untitledSingleSelectEnum (a number or a value) [default: Monica]: ', '3');
    await answer('untitledMultipleSelectEnum (numbers, separated by commas) [default: Guitar]: ', '1,2');
    await pty.waitFor('2) Green Lantern [hero-2]');
    await answer('titledSingleSelectEnum (a number or a value) [default: Superman]: ', '');
    await answer('titledMultipleSelectEnum (numbers, separated by commas) [default: Tuna]: ', '');
    await pty.waitFor('2) Dogs [pet-2]');
    await answer('legacyTitledEnum (a number or a value) [default: Cats]: ', '2');
    expect(await pty.exited, pty.output()).toBe(0);
    const sent = toolResultSent();
    expect(sent).toContain('User provided the requested information');
    expect(sent).toContain('Name: Ada Lovelace');
    expect(sent).toContain('Email: ada@example.com');
    expect(sent).toContain('Favorite Integer: 7');
    expect(sent).toContain('Favorite Number: 3.14'); // the default, sent as the schema gives it
  });

  it('without a terminal, sampling and forms are declined at once with a line saying so', async () => {
    fake = await startOpenAIServer([
      {
        toolCalls: [
          { name: 'mcp__every__trigger-sampling-request', arguments: { prompt: 'p', maxTokens: 10 } },
          { name: 'mcp__every__trigger-elicitation-request', arguments: {} },
        ],
      },
      { text: 'Understood.' },
    ]);
    const res = await runMooring(home, chatArgs('try both'), { env: modelEnv() }); // no terminal
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'mooring: every asked for a completion from your model (sampling); declined: there is no terminal to ask.',
    );
    expect(res.stderr).toContain(
      'mooring: every asked for some input (a form); declined: there is no terminal to ask.',
    );
    expect(fake.requests).toHaveLength(2); // nothing was sampled
    expect(toolResultSent()).toContain('declined');
  });

  it('mcp test lists the tools a real session lists, and the protocol version', async () => {
    const test = await runMooring(home, ['mcp', 'test', 'every', '--json']);
    expect(test.code, test.stderr).toBe(0);
    const r = JSON.parse(test.stdout);
    expect(r.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const tools = await runMooring(home, ['mcp', 'tools', 'every', '--json']);
    const session = (JSON.parse(tools.stdout) as { tool: string }[]).map((t) => t.tool);
    expect(r.tools.sort()).toEqual(session.sort());
    expect(r.tool_count).toBe(session.length);
    expect(session).toEqual(
      expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request']),
    );
  });
});
