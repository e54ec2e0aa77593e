// A server's own settings that apply to its live session without a restart: its log level (all eight MCP
// levels, MCP 2025-11-25 "Logging") and its sampling budget (MCP 2025-11-25 "Sampling"), set in its config
// (mcp_servers.json, the server form) and changed while it runs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLine } from '@shared/session';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { EVERYTHING, fixtureStdio, tempDir, waitFor } from '../helpers/servers';

const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

async function coreWith(servers: unknown[]) {
  const home = tempDir('mooring-server-settings-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  const core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
  cores.push(core);
  await core.start();
  return core;
}

/** The fixture's lines at each level, after one emit_all. */
async function emitted(core: MooringCore): Promise<string[]> {
  const lines: LogLine[] = [];
  const on = (l: LogLine) => {
    if (l.source === 'server') lines.push(l);
  };
  core.on('log', on);
  await core.tools.call('mcp__logs__emit_all', {});
  // The notifications travel before the call's answer on the same pipe.
  core.off('log', on);
  return lines.map((l) => l.level);
}

describe("a server's own settings", () => {
  it('logs at its own level, one of the eight, and a change applies to the running session', async () => {
    const core = await coreWith([{ ...fixtureStdio('logLevelServer.ts', 'logs'), logLevel: 'critical' }]);
    await waitFor(() => core.tools.list('logs').length === 2, 'the fixture');
    const pid = resultText((await core.tools.call('mcp__logs__pid', {})).result);
    expect(await emitted(core)).toEqual(['critical', 'alert', 'emergency']);
    const config = await core.servers.get('logs');
    await core.servers.update('logs', { ...config, logLevel: 'notice' });
    await waitFor(async () => (await emitted(core)).includes('notice'), 'the new level');
    expect(await emitted(core)).toEqual(['notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
    // In place: the same process.
    expect(resultText((await core.tools.call('mcp__logs__pid', {})).result)).toBe(pid);
  });

  it('a sampling budget of its own: refused past it (the hint names the setting), allowed once raised', async () => {
    const core = await coreWith([
      { name: 'every', command: 'node', args: [EVERYTHING, 'stdio'], samplingTokensPerHour: 10 },
    ]);
    await waitFor(() => core.tools.list('every').some((t) => t.tool === 'trigger-sampling-request'), 'tools');
    let asked = 0;
    core.on('interaction', (i) => {
      asked++;
      core.interactions.answer(i.id, { kind: 'sampling', outcome: 'decline' });
    });
    const refused = await core.tools.call(
      'mcp__every__trigger-sampling-request',
      { prompt: 'hello', maxTokens: 50 },
      { preApproved: true },
    );
    expect(resultText(refused.result)).toMatch(/used 0 of its 10 sampling tokens/);
    // The server's log says how to raise it (the server itself only gets the refusal).
    expect(
      core.servers
        .logs('every')
        .map((l) => l.text)
        .join('\n'),
    ).toMatch(/samplingTokensPerHour/);
    expect(asked).toBe(0);
    await core.servers.update('every', {
      ...(await core.servers.get('every')),
      samplingTokensPerHour: 50_000,
    });
    const declined = await core.tools.call(
      'mcp__every__trigger-sampling-request',
      { prompt: 'hello', maxTokens: 50 },
      { preApproved: true },
    );
    expect(asked).toBe(1); // the budget let it through to the person, who declined
    expect(resultText(declined.result)).toMatch(/declined/);
  });
});
