// A tool the catalog cannot offer is listed as excluded with its reason, never dropped without a word
// (ARCHITECTURE.md, "Session actor states": a broken schema is repaired or excluded with a reason). The
// fixture server lists a 500-deep schema and a tool with an empty name: `mooring mcp tools` shows the
// first as excluded with why, `mcp call` refuses it with that reason (not "the tool filters"), the app's
// tool list carries the reason, and the nameless tool is refused with a log line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { runMooring as mooring } from '../helpers/cli';
import { RUN_TS, fixturePath, tempDir } from '../helpers/servers';

const SCHEMA_REASON =
  /its input schema cannot be given to a model: property name "l1\.l2\.l3.*" \(\d+ characters/;

function nastyHome(): string {
  const home = tempDir('mooring-exclusion-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        {
          name: 'nasty',
          command: 'node',
          args: [RUN_TS, fixturePath('nastySchemas.ts')],
          env: { NASTY_EXTREME: '1' },
        },
      ],
    }),
  );
  return home;
}

describe('excluded tools are reported (CLI processes)', () => {
  const home = nastyHome();

  it('mcp tools lists the 500-deep tool as excluded, with the reason, in text and JSON', async () => {
    const text = await mooring(home, ['mcp', 'tools', 'nasty']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/excluded \(\d+\):/);
    const line = text.stdout.split('\n').findIndex((l) => l.startsWith('mcp__nasty__deep_500'));
    expect(line).toBeGreaterThan(0);
    expect(text.stdout.split('\n')[line]).toContain('[excluded]');
    expect(text.stdout.split('\n')[line + 1]).toMatch(SCHEMA_REASON);

    const json = await mooring(home, ['mcp', 'tools', 'nasty', '--json']);
    const rows = JSON.parse(json.stdout) as Array<{
      tool: string;
      enabled: boolean;
      excludedReason?: string;
    }>;
    expect(rows.find((r) => r.tool === 'deep_500')).toMatchObject({
      enabled: false,
      excludedReason: expect.stringMatching(SCHEMA_REASON),
    });
    expect(rows.find((r) => r.tool === 'depth_eight')).toMatchObject({ enabled: true });
    expect(rows.find((r) => r.excludedReason === undefined && !r.enabled)).toBeUndefined();
    // The nameless tool is not offered under any name.
    expect(rows.some((r) => r.tool === '')).toBe(false);
  });

  it('mcp call refuses the excluded tool with its reason and hint, not the filters', async () => {
    const call = await mooring(home, ['mcp', 'call', 'nasty', 'deep_500', '{}', '--yes']);
    expect(call.code).toBe(3);
    expect(call.stderr).toMatch(SCHEMA_REASON);
    expect(call.stderr).toMatch(/hint: Server "nasty" would have to simplify the tool's input schema/);
    expect(call.stderr).not.toMatch(/tool filters|includeTools/);
  });
});

describe('excluded tools are reported (the core the app uses)', () => {
  let core: MooringCore;
  beforeAll(async () => {
    core = await MooringCore.open({ home: nastyHome(), secretStore: new MemorySecretStore() });
    await core.start();
  }, 60_000);
  afterAll(() => core?.close());

  it("the app's tool list carries the reason, and the nameless tool is refused with a log line", () => {
    const listed = core.tools.list('nasty');
    const deep = listed.find((e) => e.tool === 'deep_500');
    expect(deep).toMatchObject({ enabled: false, excludedReason: expect.stringMatching(SCHEMA_REASON) });
    expect(listed.some((e) => e.tool === '')).toBe(false);
    const logs = core.servers.logs('nasty').map((l) => l.text);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /refused tool #\d+ of tools\/list: its name is empty, so nothing could call it: "A tool without a name\."/,
      ),
    );
  });
});
