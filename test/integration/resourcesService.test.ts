// Resources and completions through the core's one service (clientFeatures/resourcesService.ts) against
// server-everything over stdio: what it offers, list, templates with their variables, a text and a blob
// read, a template's variable completed and expanded, a subscription whose updates arrive as core events,
// a prompt argument completed with the context of the one before, and a resource attached to a message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { EVERYTHING, tempDir, waitFor } from '../helpers/servers';

let core: MooringCore;
beforeAll(async () => {
  const home = tempDir('mooring-resources-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
  );
  core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
  await core.start();
  await waitFor(() => core.resources.servers().length === 1, 'the server ready');
}, 60_000);
afterAll(async () => core?.close());

describe('resources through the core', () => {
  it('says what each server offers', () => {
    expect(core.resources.servers()).toEqual([
      {
        server: 'everything',
        resources: true,
        subscribe: true,
        prompts: true,
        completions: true,
        subscribed: [],
      },
    ]);
  });

  it('lists resources and templates with their variables', async () => {
    const list = await core.resources.list('everything');
    expect(list.length).toBeGreaterThan(3);
    expect(list.map((r) => r.uri)).toContainEqual(
      expect.stringMatching(/^demo:\/\/resource\/static\/document\//),
    );
    const templates = await core.resources.templates('everything');
    expect(templates).toContainEqual(
      expect.objectContaining({
        uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
        variables: ['resourceId'],
      }),
    );
  });

  it('reads text and binary contents', async () => {
    const [text] = await core.resources.read('everything', 'demo://resource/dynamic/text/1');
    expect(text).toMatchObject({ kind: 'text', uri: 'demo://resource/dynamic/text/1' });
    const [blob] = await core.resources.read('everything', 'demo://resource/dynamic/blob/2');
    expect(blob).toMatchObject({ kind: 'blob' });
    expect(blob?.kind === 'blob' && blob.size).toBeGreaterThan(0);
  });

  it('completes a template variable, expands the template and refuses a missing variable', async () => {
    const c = await core.resources.complete('everything', {
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '7' },
    });
    expect(c.values).toEqual(['7']);
    expect(core.resources.expand('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' })).toBe(
      'demo://resource/dynamic/text/7',
    );
    expect(() => core.resources.expand('demo://resource/dynamic/text/{resourceId}', {})).toThrow(
      /resourceId/,
    );
  });

  it('completes a prompt argument with the arguments already chosen as context', async () => {
    const departments = await core.prompts.complete('everything', {
      name: 'completable-prompt',
      argument: { name: 'department', value: 'S' },
    });
    expect(departments.values).toEqual(['Sales', 'Support']);
    const names = await core.prompts.complete('everything', {
      name: 'completable-prompt',
      argument: { name: 'name', value: '' },
      context: { department: 'Engineering' },
    });
    expect(names.values).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  it('subscribes: updates arrive as core events and the subscription is listed', async () => {
    const uri = 'demo://resource/dynamic/text/1';
    await core.resources.subscribe('everything', uri);
    expect(core.resources.servers()[0]!.subscribed).toEqual([uri]);
    const updated = new Promise<{ server: string; uri: string }>((r) => core.once('resourceUpdated', r));
    await core.tools.call('mcp__everything__toggle-subscriber-updates', {}, { preApproved: true });
    expect(await updated).toEqual({ server: 'everything', uri });
    await core.resources.unsubscribe('everything', uri);
    expect(core.resources.servers()[0]!.subscribed).toEqual([]);
  });

  it('a resource becomes parts of a message: its text under a line that names it', async () => {
    const parts = await core.resources.attachment('everything', 'demo://resource/dynamic/text/3');
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ type: 'text' });
    const first = parts[0]!;
    expect(first.type === 'text' && first.text).toMatch(
      /^Resource demo:\/\/resource\/dynamic\/text\/3 from "everything"/,
    );
    const blob = await core.resources.attachment('everything', 'demo://resource/dynamic/blob/3');
    const bytes = blob[0]!;
    expect(bytes.type === 'text' && bytes.text).toMatch(/bytes of binary content, not shown/);
  });
});
