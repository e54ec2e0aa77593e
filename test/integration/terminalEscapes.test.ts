// Untrusted text never acts on the terminal (ARCHITECTURE.md, "Untrusted text"): the real `mooring` CLI
// against a hostile server (escapes in its titles, descriptions, results, errors and stderr) and a hostile
// import file. Every raw escape must come out as its visible spelling, and --json must stay valid JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ESCAPES, hostile, rawEscapesIn } from '../fixtures/servers/hostileText';
import { runMooring, type CliRun } from '../helpers/cli';
import { mooringInPty } from '../helpers/pty';
import { fixturePath, tempDir, RUN_TS } from '../helpers/servers';

let home: string;
const shownAll = (text: string) => Object.values(ESCAPES).every((e) => text.includes(e.shown));

/** Nothing a terminal would act on: no raw escape, and (outside a pty) no carriage return. */
function expectInert(run: CliRun): void {
  const all = run.stdout + run.stderr;
  expect(rawEscapesIn(all), all).toEqual([]);
  expect(all).not.toContain('\r');
}

describe('terminal escapes from servers and files (CLI end to end)', () => {
  beforeAll(async () => {
    home = tempDir('mooring-escapes-');
    // --all-tools: the hostile tools must be listed and called; the default safe set is tested elsewhere.
    const server = ['--all-tools', '--', 'node', RUN_TS, fixturePath('hostileServer.ts')];
    expect((await runMooring(home, ['mcp', 'add', 'hostile', ...server])).code).toBe(0);
    expect((await runMooring(home, ['mcp', 'add', 'dies', '--env', 'FIXTURE_DIE=1', ...server])).code).toBe(
      0,
    );
  }, 60_000);

  it('mcp tools: hostile descriptions are shown escaped; --json stays valid', async () => {
    const human = await runMooring(home, ['mcp', 'tools', 'hostile']);
    expect(human.code, human.stderr).toBe(0);
    expectInert(human);
    expect(shownAll(human.stdout)).toBe(true);
    const json = await runMooring(home, ['mcp', 'tools', 'hostile', '--json']);
    expectInert(json);
    const tools = JSON.parse(json.stdout) as { tool: string; description: string }[];
    expect(tools.find((t) => t.tool === 'lookup')?.description).toBe(hostile('Looks things up'));
  });

  it("mcp test: a dying server's stderr in the error is escaped; --json stays valid", async () => {
    const human = await runMooring(home, ['mcp', 'test', 'dies']);
    expect(human.code).toBe(1);
    expectInert(human);
    expect(human.stdout).toContain('fatal');
    expect(shownAll(human.stdout)).toBe(true);
    const json = await runMooring(home, ['mcp', 'test', 'dies', '--json']);
    expectInert(json);
    expect(JSON.parse(json.stdout).error).toContain(hostile('fatal'));
  });

  it('mcp call: results and errors are escaped, every content kind is listed, --json stays valid', async () => {
    const saveDir = join(home, 'saved');
    const kinds = await runMooring(home, ['mcp', 'call', 'hostile', 'kinds', '--save-dir', saveDir]);
    expect(kinds.code, kinds.stderr).toBe(0);
    expectInert(kinds);
    expect(shownAll(kinds.stdout)).toBe(true);
    expect(kinds.stdout).toContain(`[image: image/png, 70 B, saved to ${join(saveDir, 'image-1.png')}]`);
    expect(kinds.stdout).toContain(`[audio: audio/wav, 16 B, saved to ${join(saveDir, 'audio-1.wav')}]`);
    expect(kinds.stdout).toMatch(/\[link: report.* file:\/\/\/tmp\/report\.txt \(text\/plain\)\]/);
    expect(kinds.stdout).toContain('[resource: mem://note (text/plain)]');
    expect(kinds.stdout).toContain(`saved to ${join(saveDir, 'resource-1.pdf')}]`);
    expect(kinds.stdout).toContain('matches the tool’s output schema');

    const json = await runMooring(home, ['mcp', 'call', 'hostile', 'kinds', '--json', '--save-dir', saveDir]);
    expectInert(json);
    const r = JSON.parse(json.stdout);
    expect(r.text).toBe(hostile('some text'));
    expect(r.resourceLinks[0]).toMatchObject({ name: hostile('report'), uri: 'file:///tmp/report.txt' });
    expect(r.resources[0]).toMatchObject({ uri: 'mem://note', text: hostile('embedded note') });
    expect(r.structuredValidation).toEqual({ valid: true });

    const failed = await runMooring(home, ['mcp', 'call', 'hostile', 'fail']);
    expect(failed.code).toBe(1);
    expectInert(failed);
    expect(shownAll(failed.stdout)).toBe(true);
  });

  it('mcp import: the consent list of a hostile file is escaped', async () => {
    const file = join(home, 'hostile-import.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          [hostile('srv')]: {
            command: hostile('node'),
            args: [hostile('arg')],
            env: { [hostile('KEY')]: hostile('value') },
            cwd: hostile('/tmp/dir'),
            [hostile('extra')]: true,
          },
        },
      }),
    );
    const res = await runMooring(home, ['mcp', 'import', file]);
    // Shown, then refused, nothing written: no terminal and no --yes (3), or — where no keychain can keep its
    // secret-looking env value — not importable at all (1).
    expect([1, 3]).toContain(res.code);
    expectInert(res);
    for (const part of ['srv', 'node', 'arg', 'KEY', '/tmp/dir', 'extra'])
      expect(res.stderr).toContain(`${part}${ESCAPES.clearLine.shown}x${ESCAPES.cursorUp.shown}`);
  });

  it('the approval prompt shows a disguised tool title as what it is (pty)', async () => {
    const pty = mooringInPty(home, ['mcp', 'call', 'hostile', 'lookup', '{"query":"all"}']);
    await pty.waitFor('Run it? [y/N]');
    // The title cannot erase its line and pose as "a read-only lookup": the escapes are printed as text.
    expect(pty.output()).toContain(
      `Delete every file\\r${ESCAPES.clearLine.shown}${ESCAPES.cursorUp.shown}a read-only lookup (hostile/lookup)`,
    );
    expect(rawEscapesIn(pty.raw())).toEqual([]);
    pty.type('n\r');
    expect(await pty.exited).toBe(3);
    expect(pty.output()).not.toContain('deleted all');
  });
});
