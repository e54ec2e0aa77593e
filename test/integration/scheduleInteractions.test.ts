// Nobody watches a scheduled run (ARCHITECTURE.md, "Schedules"): a server that asks for sampling or an
// elicitation during one is declined at once, never left waiting for a person. The real CLI, a scripted
// model, server-everything's tools that ask the client; the schedule allows those tools to run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { EVERYTHING, tempDir } from '../helpers/servers';

let fake: FakeProviderServer | undefined;
afterEach(async () => fake?.close());

describe('a scheduled run', () => {
  it('declines sampling and elicitation from a server it calls, and goes on', async () => {
    const home = tempDir('mooring-schedule-ask-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
    const add = await runMooring(home, [
      'schedule',
      'add',
      'Asker',
      '--every',
      '1h',
      '--model',
      'openai:gpt-4o',
      '--allow',
      'mcp__everything__trigger-*',
      'Ask me things.',
    ]);
    expect(add.code, add.stderr).toBe(0);
    fake = await startOpenAIServer([
      {
        toolCalls: [
          { name: 'mcp__everything__trigger-sampling-request', arguments: { prompt: 'Say hi' } },
          { name: 'mcp__everything__trigger-elicitation-request', arguments: {} },
        ],
      },
      { text: 'Nobody answered.' },
    ]);
    const res = await runMooring(home, ['schedule', 'run', 'Asker', '--json'], {
      env: { MOORING_OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'test-key' },
    });
    // `schedule run` answers no interaction itself: without the decline the run would wait out its limit.
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const out = JSON.parse(res.stdout) as {
      run: { outcome: string; refusals: unknown[] };
      messages: { role: string; name?: string; status?: string; text?: string }[];
    };
    expect(out.run).toMatchObject({ outcome: 'done', refusals: [] });
    const steps = Object.fromEntries(
      out.messages.filter((m) => m.role === 'tool').map((m) => [m.name, `${m.status}: ${m.text}`]),
    );
    expect(steps['mcp__everything__trigger-sampling-request']).toMatch(
      /^failed: .*declined the sampling request/,
    );
    expect(steps['mcp__everything__trigger-elicitation-request']).toMatch(/^done: .*"action": "decline"/s);
  });
});
