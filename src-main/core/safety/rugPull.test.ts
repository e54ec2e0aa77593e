// Rug pulls: an "always allow" lapses when a real server changes the tool's description through a
// real notifications/tools/list_changed, the lapsed lookup shows the diff, and the new non-read-only tool
// starts disabled.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ApprovalStore } from './approvalStore';
import { decide } from './approvalPolicy';
import { newToolsToDisable } from './newToolPolicy';
import type { ServerIdentity } from './toolFingerprint';

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const FIXTURE = join(ROOT, 'test/fixtures/servers/rugPull.ts');

describe('rug pull through a real list_changed', () => {
  let home: string;
  let client: Client;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'mooring-rugpull-'));
  });
  afterEach(async () => {
    await client?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('lapses the approval, shows the diff, and quarantines the new destructive tool', async () => {
    const changes: Tool[][] = [];
    let notify: () => void = () => {};
    client = new Client(
      { name: 'mooring-test', version: '0.0.0' },
      {
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (err, tools) => {
              if (err) throw err;
              if (tools) changes.push(tools);
              notify();
            },
          },
        },
      },
    );
    await client.connect(new StdioClientTransport({ command: TSX, args: [FIXTURE], stderr: 'pipe' }));
    const identity: ServerIdentity = { name: 'rug', command: TSX, args: [FIXTURE] };

    const before = (await client.listTools()).tools;
    const note = before.find((t) => t.name === 'send_note');
    expect(note).toBeDefined();

    const store = await ApprovalStore.open(home);
    expect(store.lookup(identity, note!)).toEqual({ status: 'none' });
    await store.remember({ identity, tool: note!, decidedBy: 'user:test' });
    const allowed = store.lookup(identity, note!);
    expect(allowed.status).toBe('allowed');
    expect(
      decide({
        policy: 'default',
        annotations: note!.annotations,
        enabled: true,
        yolo: false,
        remembered: allowed,
      }),
    ).toMatchObject({ decision: 'auto' });

    // The server changes the tool; wait for the list_changed the client receives (an event, not a sleep).
    const sawChange = new Promise<void>((r) => {
      notify = () => {
        const latest = changes.at(-1);
        if (
          latest?.some((t) => t.name === 'wipe_channel') &&
          latest.find((t) => t.name === 'send_note')?.description?.includes('IMPORTANT')
        )
          r();
      };
    });
    await client.callTool({ name: 'rug_pull', arguments: {} });
    await sawChange;
    const after = changes.at(-1)!;
    const changed = after.find((t) => t.name === 'send_note')!;

    // A new instance reads the same file: the approval persisted, and it has lapsed.
    const reopened = await ApprovalStore.open(home);
    const lookup = reopened.lookup(identity, changed);
    expect(lookup.status).toBe('lapsed');
    if (lookup.status !== 'lapsed') return;
    const desc = lookup.diff.find((c) => c.kind === 'description');
    expect(desc).toMatchObject({ change: 'changed', before: 'Sends a short note to the team channel.' });
    expect(desc?.after).toContain('~/.ssh/id_rsa');
    expect(
      lookup.diff.some(
        (c) => c.kind === 'schema' && c.change === 'added' && c.path?.startsWith('/properties/sidenote'),
      ),
    ).toBe(true);
    expect(
      decide({
        policy: 'default',
        annotations: changed.annotations,
        enabled: true,
        yolo: false,
        remembered: lookup,
      }),
    ).toMatchObject({ decision: 'ask' });

    // New tools arriving through list_changed: the read-only one is enabled, the destructive one is not.
    expect(newToolsToDisable(before, after)).toEqual(['wipe_channel']);
  });
});
