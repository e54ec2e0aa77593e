// The one terminal prompt (src-main/cli/terminalPrompt.ts) through a real pseudo-terminal and the real
// `mooring` command: yes runs, Ctrl-C and Ctrl-D deny, two requests at once are asked one after the other,
// a request that ends while asked is reported and a late answer is dropped (never kept for the next
// question), and a secret typed at the prompt is never echoed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { CTRL_C, CTRL_D, mooringInPty } from '../helpers/pty';
import { FILESYSTEM, tempDir, waitFor } from '../helpers/servers';

let home: string;
let root: string;
let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const writeArgs = (name: string) => JSON.stringify({ path: join(root, name), content: name });
const noCrash = (output: string) =>
  expect(output).not.toMatch(/Unhandled|UnhandledPromiseRejection|at .*\.ts:\d+/);

describe('the terminal prompt (real pty)', () => {
  beforeAll(() => {
    home = tempDir('mooring-prompt-home-');
    root = tempDir('mooring-prompt-root-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'files', command: 'node', args: [FILESYSTEM, root] }] }),
    );
  });

  it('y runs the call', async () => {
    const pty = mooringInPty(home, ['mcp', 'call', 'files', 'write_file', writeArgs('yes.txt')]);
    await pty.waitFor('Run it? [y/N]');
    pty.type('y\r');
    expect(await pty.exited, pty.output()).toBe(0);
    expect(readFileSync(join(root, 'yes.txt'), 'utf8')).toBe('yes.txt');
  });

  for (const [key, name] of [
    [CTRL_C, 'Ctrl-C'],
    [CTRL_D, 'Ctrl-D'],
  ] as const)
    it(`${name} at the prompt denies the call, cleanly`, async () => {
      const file = `${name}.txt`;
      const pty = mooringInPty(home, ['mcp', 'call', 'files', 'write_file', writeArgs(file)]);
      await pty.waitFor('Run it? [y/N]');
      pty.type(key);
      expect(await pty.exited).toBe(3);
      expect(pty.output()).toMatch(/denied|refused/i);
      expect(existsSync(join(root, file))).toBe(false);
      noCrash(pty.output());
    });

  it('mooring chat asks about two parallel calls one at a time; each answer goes to the call shown', async () => {
    fake = await startOpenAIServer([
      {
        toolCalls: [
          { name: 'mcp__files__write_file', arguments: JSON.parse(writeArgs('first.txt')) },
          { name: 'mcp__files__write_file', arguments: JSON.parse(writeArgs('second.txt')) },
        ],
      },
      { text: 'Done.' },
    ]);
    const pty = mooringInPty(home, ['chat', '--model', 'openai:gpt-4o', 'write two files'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    /** The file named in the question asked last. */
    const asked = () => {
      const out = pty.output();
      return /(first|second)\.txt/.exec(out.slice(out.lastIndexOf('wants to run')))![1]!;
    };
    await pty.waitFor('Run it? [y/N]');
    const shownFirst = asked();
    const other = shownFirst === 'first' ? 'second' : 'first';
    // One question at a time: the other call is not asked yet.
    expect(pty.output().match(/Run it\?/g)).toHaveLength(1);
    pty.type('y\r');
    await pty.waitFor('Run it? [y/N]');
    expect(asked()).toBe(other);
    pty.type('n\r');
    expect(await pty.exited, pty.output()).toBe(0);
    expect(existsSync(join(root, `${shownFirst}.txt`))).toBe(true);
    expect(existsSync(join(root, `${other}.txt`))).toBe(false);
    noCrash(pty.output());
  });

  it('Ctrl-C while no question is open still stops mooring chat', async () => {
    fake = await startOpenAIServer([{ text: 'thinking…', hang: true }]);
    const pty = mooringInPty(home, ['chat', '--model', 'openai:gpt-4o', 'take your time'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    await pty.waitFor('thinking…');
    pty.type(CTRL_C);
    expect(await pty.exited).toBe(130);
    noCrash(pty.output());
  });

  /** `mooring serve --http` on a terminal, with an MCP client connected once the files tools are served. */
  async function serveWithClient(extra: string[]) {
    const pty = mooringInPty(home, ['serve', '--http', '0', ...extra]);
    const url = (await pty.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/)).trim();
    const token = (await pty.waitFor(/Bearer \S+/)).slice('Bearer '.length);
    const client = new Client({ name: 'late-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    // serve prints its URL before its servers are up; they join through list_changed.
    await waitFor(
      async () => (await client.listTools()).tools.some((t) => t.name === 'mcp__files__write_file'),
      'the files tools to be served',
    );
    const write = (name: string, signal?: AbortSignal) =>
      client.callTool(
        { name: 'mcp__files__write_file', arguments: JSON.parse(writeArgs(name)) },
        signal ? { signal } : undefined,
      );
    const stop = async () => {
      await client.close();
      pty.type(CTRL_C); // no question open: Ctrl-C stops serve as usual
      expect(await pty.exited).toBe(0);
      noCrash(pty.output());
    };
    return { pty, write, stop };
  }

  it('serve --http: a request that times out while asked is reported, and a late answer is dropped', async () => {
    const { pty, write, stop } = await serveWithClient(['--approval-timeout', '1']);
    const late = write('timed-out.txt');
    // Its question is usually shown first; on a loaded machine the 1 s can run out before the terminal
    // gets to it, and then only the "no longer waiting" line is printed (terminalRequests.ts).
    await pty.waitFor(/is no longer waiting: [^\n]*; nothing was answered/);
    expect((await late).isError).toBe(true);
    pty.type('y\r'); // too late: must not approve anything, now or later
    await pty.waitFor('(no question is open; that input was ignored)');
    expect(existsSync(join(root, 'timed-out.txt'))).toBe(false);
    await stop();
  });

  it('serve --http: a request its client cancels while asked is reported; the next one is asked as usual', async () => {
    // The default approval timeout (120 s): nothing here races a clock.
    const { pty, write, stop } = await serveWithClient([]);
    const cancel = new AbortController();
    const late = write('cancelled.txt', cancel.signal);
    late.catch(() => {}); // awaited below; the abort rejects it before that
    await pty.waitFor('Run it? [y/N]');
    cancel.abort();
    await expect(late).rejects.toThrow();
    await pty.waitFor(/is no longer waiting: [^\n]*; nothing was answered/);
    pty.type('y\r'); // too late: must not approve anything, now or later
    await pty.waitFor('(no question is open; that input was ignored)');

    const next = write('next.txt');
    await pty.waitFor('Run it? [y/N]');
    expect(pty.output()).toContain('next.txt');
    pty.type('n\r');
    expect((await next).isError).toBe(true);
    expect(existsSync(join(root, 'cancelled.txt'))).toBe(false);
    expect(existsSync(join(root, 'next.txt'))).toBe(false);
    await stop();
  });

  it('mcp add --secret-env NAME asks without echoing; from a pipe it reads stdin', async () => {
    const secret = 'hunter2-never-shown';
    const pty = mooringInPty(home, [
      'mcp',
      'add',
      'withsecret',
      '--secret-env',
      'API_KEY',
      '--',
      'node',
      'x.js',
    ]);
    await pty.waitFor('API_KEY (hidden, not echoed): ');
    pty.type(`${secret}\r`);
    const code = await pty.exited;
    expect(pty.raw()).not.toContain(secret);
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain(secret);
    if (process.env.WITH_KEYRING_INNER) {
      expect(code, pty.output()).toBe(0);
      expect(pty.output()).toContain('kept API_KEY in the keychain');
      await runMooring(home, ['mcp', 'remove', 'withsecret']);
    } else expect(pty.output()).toMatch(/keychain/i); // no keychain here: a clear refusal, nothing written

    const piped = await runMooring(
      home,
      ['mcp', 'add', 'piped', '--secret-env', 'API_KEY', '--', 'node', 'x.js'],
      {
        input: `${secret}\n`,
      },
    );
    expect(piped.stdout + piped.stderr).not.toContain(secret);
    if (process.env.WITH_KEYRING_INNER) {
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).toContain('kept API_KEY in the keychain');
    } else expect(piped.stderr).toMatch(/keychain/i);
  });
});
