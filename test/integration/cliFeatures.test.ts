// `mooring mcp prompts|resources|read|logs NAME` end to end: the compiled CLI on a temp MOORING_HOME
// against server-everything (a real process from node_modules); the questions with the server's
// completions (MCP 2025-11-25 "Completion") on a real pseudo-terminal.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMooring } from '../helpers/cli';
import { mooringInPty } from '../helpers/pty';
import { EVERYTHING, tempDir } from '../helpers/servers';

let home: string;
const mooring = (args: string[]) => runMooring(home, args);

describe('mooring mcp prompts, resources, read and logs', () => {
  beforeAll(async () => {
    home = tempDir('mooring-cli-features-');
    expect((await mooring(['mcp', 'add', 'every', '--', 'node', EVERYTHING, 'stdio'])).code).toBe(0);
  }, 60_000);

  it('lists prompts with their arguments, and gets one with --arg (as JSON too)', async () => {
    const list = await mooring(['mcp', 'prompts', 'every']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('args-prompt city [state]');
    const got = await mooring([
      'mcp',
      'prompts',
      'every',
      'completable-prompt',
      '--arg',
      'department=Engineering',
      '--arg',
      'name=Alice',
      '--json',
    ]);
    expect(got.code).toBe(0);
    const json = JSON.parse(got.stdout) as { messages: Array<{ content: { text: string } }> };
    expect(json.messages[0]!.content.text).toContain('Alice');
    expect(json.messages[0]!.content.text).toContain('Engineering');
  });

  it('without a terminal, a missing required argument is a usage error that says how to give it', async () => {
    const r = await mooring(['mcp', 'prompts', 'every', 'completable-prompt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs "department", "name"');
    expect(r.stderr).toContain('--arg department=VALUE --arg name=VALUE');
    const unknown = await mooring(['mcp', 'prompts', 'every', 'no-such-prompt']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('mooring mcp prompts every');
  });

  it("on a terminal, missing arguments are asked with the server's completions; a number picks one", async () => {
    const run = mooringInPty(home, ['mcp', 'prompts', 'every', 'completable-prompt']);
    await run.waitFor('suggestions for department');
    await run.waitFor(/(\d+)\) Engineering/);
    const pick = /(\d+)\) Engineering/.exec(run.output())![1]!;
    await run.waitFor('department');
    run.type(`${pick}\r`);
    // The name's suggestions see the department already chosen (the request's context).
    await run.waitFor('suggestions for name');
    await run.waitFor('Alice');
    run.type('Alice\r');
    await run.waitFor('head of the Engineering team');
    expect(await run.exited).toBe(0);
  });

  it('lists resources and templates, reads text, fills a template, saves bytes to a file it names', async () => {
    const list = await mooring(['mcp', 'resources', 'every']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('demo://resource/static/document/architecture.md');
    expect(list.stdout).toContain('demo://resource/dynamic/text/{resourceId}');
    const json = JSON.parse((await mooring(['mcp', 'resources', 'every', '--json'])).stdout) as {
      templates: Array<{ uriTemplate: string; variables: string[] }>;
    };
    expect(json.templates.find((t) => t.uriTemplate.includes('text/{resourceId}'))?.variables).toEqual([
      'resourceId',
    ]);

    const text = await mooring(['mcp', 'read', 'every', 'demo://resource/static/document/architecture.md']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Architecture');

    const filled = await mooring([
      'mcp',
      'read',
      'every',
      'demo://resource/dynamic/text/{resourceId}',
      '--var',
      'resourceId=7',
    ]);
    expect(filled.code).toBe(0);
    expect(filled.stdout).toContain('Resource 7');

    const dir = tempDir('mooring-read-out-');
    const blob = await mooring([
      'mcp',
      'read',
      'every',
      'demo://resource/dynamic/blob/{resourceId}',
      '--var',
      'resourceId=2',
      '--save-dir',
      dir,
    ]);
    expect(blob.code).toBe(0);
    const file = /saved to (\S+)\]/.exec(blob.stdout)?.[1];
    expect(file?.startsWith(dir)).toBe(true);
    expect(readFileSync(file!, 'utf8')).toContain('Resource 2');
  });

  it("prints the server's log; --level takes any of the eight levels and refuses others", async () => {
    const logs = await mooring(['mcp', 'logs', 'every', '--level', 'debug']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/stderr\s+info\s+Starting default \(STDIO\) server/);
    const json = await mooring(['mcp', 'logs', 'every', '--json']);
    const first = JSON.parse(json.stdout.split('\n')[0]!) as { server: string };
    expect(first.server).toBe('every');
    const bad = await mooring(['mcp', 'logs', 'every', '--level', 'loud']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('debug, info, notice, warning, error, critical, alert, emergency');
  });
});
