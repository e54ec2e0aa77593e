// Pinned tool contracts (safety/toolPins.ts) against a real server that changes its tool at run time
// (test/fixtures/servers/mutableTool.ts): a tool that was destructive and turns "read-only" through a real
// notifications/tools/list_changed asks before its next call, with the diff, whatever its annotations now
// say; a person's answer accepts it; a `mooring serve --read-only` client does not get a changed tool
// until the user accepts the change.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalOutcome, ApprovalRequest } from '@shared/approval';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { RUN_TS, fixturePath, tempDir, waitFor } from '../helpers/servers';
import { serveCommandLine } from './serverHelpers';

const ACT = 'mcp__mut__act';

/** Resolves once the catalog lists `act` as `variant` (on the tools service's `changed` event). */
function variantSeen(core: MooringCore, variant: number): Promise<void> {
  const seen = () => core.tools.catalog().get(ACT)?.description.includes(`variant ${variant}`) === true;
  return new Promise((resolve) => {
    if (seen()) return resolve();
    const on = () => {
      if (!seen()) return;
      core.tools.off('changed', on);
      resolve();
    };
    core.tools.on('changed', on);
  });
}

async function morph(core: MooringCore, variant: number): Promise<void> {
  const seen = variantSeen(core, variant);
  await core.tools.call('mcp__mut__morph', { variant }, { client: 'pins-test' });
  await seen;
}

/** Calls `act`; an approval it raises is answered with `answer` and handed back. */
async function callAct(core: MooringCore, answer: ApprovalOutcome) {
  let asked: ApprovalRequest | undefined;
  const onAsk = (req: ApprovalRequest) => {
    asked = req;
    core.approvals.answer(req.id, { outcome: answer, decidedBy: 'user:pins-test' });
  };
  core.approvals.once('requested', onAsk);
  const outcome = await core.tools.call(ACT, {}, { client: 'pins-test' }).then(
    (o) => o.decision,
    (e: Error) => e.message,
  );
  core.approvals.off('requested', onAsk);
  return { asked, outcome };
}

describe('pinned tool contracts', () => {
  let home: string;
  let core: MooringCore;

  beforeAll(async () => {
    home = tempDir('mooring-pins-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [{ name: 'mut', command: 'node', args: [RUN_TS, fixturePath('mutableTool.ts')] }],
      }),
    );
    core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    await variantSeen(core, 0);
  }, 60_000);
  afterAll(() => core?.close());

  it('asks again, with the diff, when a destructive tool turns read-only (annotation rug pull)', async () => {
    // First sight: read-only, runs unasked.
    expect((await callAct(core, 'deny')).outcome).toBe('auto');

    // Destructive now: it asks (by its annotations and its pin); allowing the call accepts the change.
    await morph(core, 2);
    const destructive = await callAct(core, 'approve');
    expect(destructive.outcome).toBe('approve');
    expect(destructive.asked?.diffSince).toBe('pinned');
    expect(core.tools.catalog().get(ACT)?.contractChanged).toBe(false);
    // Accepted: it asks by its annotations only (it may be destructive), with no diff.
    const again = await callAct(core, 'approve');
    expect(again.asked?.diff).toBeUndefined();

    // The rug pull: the same tool claims to be read-only. It still asks, with what changed.
    await morph(core, 0);
    expect(core.tools.catalog().get(ACT)?.contractChanged).toBe(true);
    const pulled = await callAct(core, 'deny');
    expect(pulled.outcome).toMatch(/You denied/);
    expect(pulled.asked?.reason).toMatch(/changed since Mooring first saw it/);
    expect(pulled.asked?.diff).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'annotation', path: 'readOnlyHint', after: 'true' }),
        expect.objectContaining({ kind: 'description', before: 'Acts (variant 2): may delete things.' }),
      ]),
    );
    // A denial accepts nothing: the next call asks again.
    expect((await callAct(core, 'approve')).asked?.diffSince).toBe('pinned');
    // Allowed once: accepted, and a read-only tool runs unasked again.
    expect((await callAct(core, 'deny')).outcome).toBe('auto');
  });

  it('a read-only `mooring serve` client does not get a changed tool until the user accepts it', async () => {
    // The pin is variant 2 (destructive); the server that `serve` starts lists `act` as variant 0 again.
    await morph(core, 2);
    await callAct(core, 'approve');
    await core.close();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...serveCommandLine(), 'serve', '--stdio', '--read-only'],
      env: { ...(process.env as Record<string, string>), MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'read-only-client', version: '1.0.0' });
    await client.connect(transport).catch((e: Error) => {
      throw new Error(`${e.message}: ${stderr}`);
    });
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      await waitFor(
        async () => (await names()).includes('mcp__mut__morph'),
        'the server tools in serve',
        30_000,
      );
      expect(await names()).not.toContain(ACT);

      // The user accepts the change in the app (another process on the same home).
      core = await MooringCore.open({
        home,
        secretStore: new MemorySecretStore(),
        env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
      });
      await core.start();
      await variantSeen(core, 0);
      expect(core.tools.catalog().get(ACT)?.contractChanged).toBe(true);
      await core.tools.acceptChange(ACT);
      expect(core.tools.catalog().get(ACT)?.contractChanged).toBe(false);

      // The next change of the catalog in `serve` (here: its server says its list changed) offers it.
      await client.callTool({ name: 'mcp__mut__morph', arguments: { variant: 0 } });
      await waitFor(async () => (await names()).includes(ACT), 'act offered after the acceptance', 30_000);
    } finally {
      await client.close();
    }
  }, 120_000);
});
