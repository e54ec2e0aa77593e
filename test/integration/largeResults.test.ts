// A tool result too large for the model (docs/chat.md, "Results too large for the model"), end to end: the
// real CLI runs a schedule whose scripted model reads a 5 MB file through server-filesystem. Every request
// the model gets stays inside its context window, `read_result` pages through the result to its end, and
// the saved conversation holds the result whole.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { FILESYSTEM, tempDir } from '../helpers/servers';

let fake: FakeProviderServer | undefined;
afterEach(async () => fake?.close());

// gpt-4o's window is 128,000 tokens, 3 characters each (largeResults.ts); half of it for one result.
const WINDOW_CHARS = 128_000 * 3;
const RESULT_CHARS = WINDOW_CHARS / 2;
const PAGE = RESULT_CHARS - 300;

describe('a 5 MB tool result', () => {
  it('is cut for the model, paged through with read_result to its end, and saved whole', async () => {
    const home = tempDir('mooring-large-home-');
    const root = tempDir('mooring-large-root-');
    const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(50)}\n`;
    let text = '';
    for (let i = 0; text.length < 5 * 1024 * 1024; i++) text += line(i);
    text += 'THE-LAST-LINE\n';
    const file = join(root, 'big.log');
    writeFileSync(file, text);
    writeFileSync(
      join(home, 'mcp_servers.json'),
      // The server sends the text twice (content and structuredContent): past the 4 MB default per message.
      JSON.stringify({
        servers: [{ name: 'files', command: 'node', args: [FILESYSTEM, root], maxMessageMB: 16 }],
      }),
    );
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ maxToolIterations: 60, largeResults: { share: 0.5 } }),
    );
    const add = await runMooring(home, [
      'schedule',
      'add',
      'Read log',
      '--every',
      '1h',
      '--model',
      'openai:gpt-4o',
      'Read big.log to the end.',
    ]);
    expect(add.code, add.stderr).toBe(0);

    const pages = Math.ceil(text.length / PAGE);
    const script: ScriptedReply[] = [
      { toolCalls: [{ name: 'mcp__files__read_text_file', arguments: { path: file }, id: 'big' }] },
      { toolCalls: [{ name: 'read_result', arguments: { ref: 'big', query: 'THE-LAST-LINE' } }] },
    ];
    for (let p = 0; p < pages; p++)
      script.push({ toolCalls: [{ name: 'read_result', arguments: { ref: 'big', offset: p * PAGE } }] });
    script.push({ text: 'Read it all.' });
    fake = await startOpenAIServer(script);

    const res = await runMooring(home, ['schedule', 'run', 'Read log', '--json'], {
      env: { MOORING_OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'test-key' },
    });
    expect(res.code, res.stderr + res.stdout.slice(0, 2000)).toBe(0);
    expect(fake.remaining()).toBe(0);

    // Every request fits the model's window; the first after the read got the head and how to read on.
    const sizes = fake.requests.map((r) => JSON.stringify(r.body).length);
    expect(Math.max(...sizes)).toBeLessThan(WINDOW_CHARS);
    const afterRead = JSON.stringify(fake.requests[1]!.body.messages);
    expect(afterRead).toContain('line 0000000');
    expect(afterRead).toMatch(/this result is 5,2\d\d,\d\d\d characters \(5\.0 MB\).*read_result/);
    expect(afterRead).not.toContain('THE-LAST-LINE');
    expect(
      fake.requests[1]!.body.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toContain('read_result');
    // The search finds the last line; the last page ends the result and says so.
    expect(JSON.stringify(fake.requests[2]!.body.messages)).toMatch(/1 match\(es\) of \\"THE-LAST-LINE\\"/);
    const last = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(last).toContain('THE-LAST-LINE');
    expect(last).toContain('this is the end');

    // The conversation on disk holds the whole result.
    const out = JSON.parse(res.stdout) as { run: { conversationId: string } };
    const saved = readFileSync(join(home, 'conversations', `${out.run.conversationId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { message?: { role: string; name?: string; text?: string } });
    const read = saved.find((r) => r.message?.name === 'mcp__files__read_text_file')?.message;
    expect(read?.role).toBe('tool');
    expect(read?.text).toBe(text);
  }, 120_000);
});
