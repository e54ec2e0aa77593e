// `mooring schedule run` end to end (docs/schedules.md, "Schedules"): the real CLI as a child process, a scripted
// OpenAI-compatible model, server-filesystem through catalog → safety → session under the unattended policy.
// A read-only call runs, a destructive one is refused at once and reported, and the run is a saved
// conversation; a tool the schedule allows runs without anyone approving it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { FILESYSTEM, tempDir } from '../helpers/servers';

let home: string;
let root: string;
let fake: FakeProviderServer | undefined;

const env = () => ({ MOORING_OPENAI_BASE_URL: `${fake!.url}/v1`, OPENAI_API_KEY: 'test-key' });

interface RunJson {
  run: {
    outcome: string;
    conversationId: string;
    refusals: { tool: string; reason: string }[];
    summary: string;
  };
  messages: { role: string; name?: string; status?: string; text?: string }[];
}

describe('mooring schedule', () => {
  beforeAll(() => {
    home = tempDir('mooring-schedule-home-');
    root = tempDir('mooring-schedule-root-');
    writeFileSync(join(root, 'alpha.txt'), 'first');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'files', command: 'node', args: [FILESYSTEM, root] }] }),
    );
  });
  afterEach(async () => fake?.close());

  it('runs a read-only call, refuses a destructive one without waiting, and saves the conversation', async () => {
    const target = join(root, 'report.txt');
    const add = await runMooring(home, [
      'schedule',
      'add',
      'Tidy up',
      '--every',
      '1h',
      '--model',
      'openai:gpt-4o',
      'List my folder and write a report.',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/schedule "Tidy up": every 1h/);

    fake = await startOpenAIServer([
      {
        toolCalls: [
          { name: 'mcp__files__list_directory', arguments: { path: root } },
          { name: 'mcp__files__write_file', arguments: { path: target, content: 'report' } },
        ],
      },
      { text: 'The folder holds alpha.txt; I could not write the report.' },
    ]);
    const res = await runMooring(home, ['schedule', 'run', 'Tidy up', '--json'], { env: env() });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const out = JSON.parse(res.stdout) as RunJson;
    expect(out.run.outcome).toBe('done');
    expect(out.run.summary).toContain('alpha.txt');
    expect(out.run.refusals).toEqual([
      {
        tool: 'mcp__files__write_file',
        reason: expect.stringMatching(/runs unattended.*not marked read-only/),
      },
    ]);
    expect(existsSync(target)).toBe(false);
    // In the order they ended: the refusal came at once, before the listing.
    const steps = out.messages.filter((m) => m.role === 'tool');
    expect(steps.map((m) => [m.name, m.status])).toEqual([
      ['mcp__files__write_file', 'refused'],
      ['mcp__files__list_directory', 'done'],
    ]);
    expect(steps[1]!.text).toContain('alpha.txt');
    // The model heard the refusal in its next request, and was told up front that nobody watches.
    const second = JSON.stringify(fake.requests[1]?.body.messages);
    expect(second).toContain('was refused');
    expect(JSON.stringify(fake.requests[0]?.body.messages)).toContain(
      'runs on a schedule with nobody watching',
    );
    // The run is a conversation on disk, and the history names it.
    const file = join(home, 'conversations', `${out.run.conversationId}.jsonl`);
    expect(readFileSync(file, 'utf8')).toContain('mcp__files__write_file');
    const history = await runMooring(home, ['schedule', 'history', 'Tidy up', '--json']);
    const runs = JSON.parse(history.stdout) as { outcome: string; conversationId: string }[];
    expect(runs[0]).toMatchObject({ outcome: 'done', conversationId: out.run.conversationId });
    // The audit log holds the read-only call the gate let through.
    expect(readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')).toContain('"tool":"list_directory"');
  });

  it('runs a tool the schedule allows, and prints the conversation without --json', async () => {
    const target = join(root, 'allowed.txt');
    const add = await runMooring(home, [
      'schedule',
      'add',
      'Writer',
      '--cron',
      '0 9 * * 1-5',
      '--timezone',
      'Europe/Berlin',
      '--model',
      'openai:gpt-4o',
      '--allow',
      'mcp__files__write_*',
      'Write the file.',
    ]);
    expect(add.code, add.stderr).toBe(0);
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__files__write_file', arguments: { path: target, content: 'hello' } }] },
      { text: 'Written.' },
    ]);
    const res = await runMooring(home, ['schedule', 'run', 'Writer'], { env: env() });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('hello');
    expect(res.stdout).toContain('> Write the file.');
    expect(res.stdout).toContain('→ mcp__files__write_file');
    expect(res.stdout).toContain('Writer: done. Written.');
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('schedule \\"Writer\\" (allowed)');

    const list = await runMooring(home, ['schedule', 'list', '--json']);
    const rows = JSON.parse(list.stdout) as {
      schedules: { schedule: { name: string }; next: number[]; lastRun?: { outcome: string } }[];
      owner: unknown;
    };
    expect(rows.schedules.map((r) => r.schedule.name)).toEqual(['Tidy up', 'Writer']);
    expect(rows.schedules[1]!.next).toHaveLength(5);
    expect(rows.schedules[1]!.lastRun?.outcome).toBe('done');
    expect(rows.owner).toBeNull();
  });

  it('says clearly what is wrong with a schedule, and writes nothing', async () => {
    const bad = await runMooring(home, [
      'schedule',
      'add',
      'Broken',
      '--cron',
      '61 * * * *',
      '--model',
      'openai:gpt-4o',
      'x',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a cron expression/);
    const two = await runMooring(home, [
      'schedule',
      'add',
      'Two',
      '--every',
      '1h',
      '--at',
      '2030-01-01T00:00',
      '--model',
      'openai:gpt-4o',
      'x',
    ]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/Say when, once/);
    const missing = await runMooring(home, ['schedule', 'run', 'Nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No schedule "Nope"[\s\S]*Tidy up, Writer/);
    const removed = await runMooring(home, ['schedule', 'remove', 'Writer', '--json']);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: 'Writer' });
  });
});
