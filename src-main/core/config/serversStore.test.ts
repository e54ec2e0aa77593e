// ServersStore: CRUD on the real file, serialised writes, never overwriting an invalid file,
// and a watch that notices edits made by anyone.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../home';
import { ServersStore, type ServersChange } from './serversStore';

let home: string;
let store: ServersStore;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mooring-store-'));
  store = ServersStore.forHome(home);
});
afterEach(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

const onDisk = async () =>
  JSON.parse(await readFile(homePaths(home).servers, 'utf8')) as { servers: { name: string }[] };

describe('ServersStore', () => {
  it('adds, lists, gets, updates, disables and removes a server on disk', async () => {
    await store.add({ name: 'fs', command: 'npx', args: ['-y', 'server-filesystem'] });
    await store.add({ name: 'web', transport: 'http', url: 'https://example.com/mcp' });
    expect((await store.list()).map((s) => s.name)).toEqual(['fs', 'web']);
    expect(await store.get('fs')).toMatchObject({ command: 'npx', enabled: true });

    await store.update('fs', { name: 'files', command: 'node', args: ['x.js'] });
    expect((await onDisk()).servers.map((s) => s.name)).toEqual(['files', 'web']); // position kept

    await store.setEnabled('web', false);
    expect((await onDisk()).servers[1]).toEqual({
      name: 'web',
      transport: 'http',
      url: 'https://example.com/mcp',
      enabled: false,
    });

    expect((await store.remove('files')).name).toBe('files');
    expect((await store.list()).map((s) => s.name)).toEqual(['web']);
  });

  it('add of a duplicate name fails clearly and writes nothing', async () => {
    await store.add({ name: 'fs', command: 'npx' });
    const before = await readFile(store.file, 'utf8');
    await expect(store.add({ name: 'fs', command: 'node' })).rejects.toMatchObject({
      code: 'config_invalid',
      message: 'A server named "fs" already exists.',
      hint: expect.stringMatching(/another name/),
    });
    expect(await readFile(store.file, 'utf8')).toBe(before);
  });

  it('add of an invalid input (timeout 601) names the server and the field', async () => {
    await expect(store.add({ name: 'slow', command: 'node', timeoutSeconds: 601 })).rejects.toMatchObject({
      code: 'config_invalid',
      message: 'server "slow": timeoutSeconds: must be at most 600 seconds',
    });
    expect(await readdir(home)).toEqual([]);
  });

  it('update that renames onto an existing name is refused', async () => {
    await store.add({ name: 'a', command: 'node' });
    await store.add({ name: 'b', command: 'node' });
    await expect(store.update('a', { name: 'b', command: 'node' })).rejects.toThrow(
      /with that name already exists/,
    );
    expect((await store.list()).map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('get, update, remove and setEnabled of an unknown name are not_found', async () => {
    await expect(store.get('nope')).rejects.toMatchObject({
      code: 'not_found',
      hint: expect.stringMatching(/mcp list/),
    });
    await expect(store.update('nope', { name: 'nope', command: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(store.remove('nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.setEnabled('nope', false)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('concurrent adds are all kept (writes are serialised), even across two stores on one file', async () => {
    const other = new ServersStore({ file: store.file });
    const names = Array.from({ length: 12 }, (_, i) => `s${i}`);
    await Promise.all(names.map((name, i) => (i % 2 ? other : store).add({ name, command: 'node' })));
    expect((await onDisk()).servers.map((s) => s.name).sort()).toEqual([...names].sort());
    expect(await readdir(home)).toEqual(['mcp_servers.json']); // no temp files left
  });

  it('a failed change in the queue does not block the next one', async () => {
    const results = await Promise.allSettled([
      store.add({ name: 'a', command: 'node' }),
      store.add({ name: 'a', command: 'node' }),
      store.add({ name: 'b', command: 'node' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.list()).map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('an invalid file on disk blocks every change and is never overwritten', async () => {
    const handEdited =
      '{\n  "servers": [\n    { "name": "a", "command": "node", "timeoutSeconds": 900 }\n  ]\n}\n';
    await writeFile(store.file, handEdited);
    await expect(store.add({ name: 'b', command: 'node' })).rejects.toMatchObject({
      code: 'config_invalid',
      message: `${store.file}:3:39: servers[0].timeoutSeconds: must be at most 600 seconds`,
    });
    await expect(store.remove('a')).rejects.toMatchObject({ code: 'config_invalid' });
    await expect(store.setEnabled('a', false)).rejects.toMatchObject({ code: 'config_invalid' });
    expect(await readFile(store.file, 'utf8')).toBe(handEdited);
  });

  it('keeps an edit made by hand between two changes', async () => {
    await store.add({ name: 'a', command: 'node' });
    await writeFile(
      store.file,
      JSON.stringify({
        servers: [
          { name: 'a', command: 'node' },
          { name: 'byhand', command: 'deno' },
        ],
      }),
    );
    await store.add({ name: 'c', command: 'node' });
    expect((await store.list()).map((s) => s.name)).toEqual(['a', 'byhand', 'c']);
  });
});

describe('ServersStore.watch', () => {
  /** What a watcher heard, and a wait for the first change matching `pred` (the test's timeout bounds it). */
  function heard() {
    const changes: ServersChange[] = [];
    let wake = () => {};
    return {
      changes,
      push(c: ServersChange) {
        changes.push(c);
        wake();
      },
      async next(pred: (c: ServersChange) => boolean): Promise<ServersChange> {
        for (;;) {
          const hit = changes.find(pred);
          if (hit) return hit;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    };
  }

  it('emits the new list after an external edit, and the error when the file becomes invalid', async () => {
    const changes = heard();
    const stop = await store.watch((c) => changes.push(c));
    await writeFile(store.file, JSON.stringify({ servers: [{ name: 'ext', command: 'node' }] }));
    const ok = await changes.next((c) => c.ok);
    expect(ok.ok && ok.servers.map((s) => s.name)).toEqual(['ext']);

    await writeFile(store.file, '{ "servers": [ { "name": "bad name", "command": "x" } ] }');
    const bad = await changes.next((c) => !c.ok);
    expect(!bad.ok && bad.error.code).toBe('config_invalid');
    expect(!bad.ok && bad.error.message).toMatch(/servers\[0\]\.name/);
    stop();
  });

  it("emits after the store's own atomic write too (the file is replaced by rename)", async () => {
    const changes = heard();
    await store.watch((c) => changes.push(c));
    await store.add({ name: 'mine', command: 'node' });
    const c = await changes.next((x) => x.ok && x.servers.some((s) => s.name === 'mine'));
    expect(c.ok).toBe(true);
  });

  it('emits nothing after close()', async () => {
    const changes: ServersChange[] = [];
    await store.watch((c) => changes.push(c));
    await store.close();
    await writeFile(store.file, JSON.stringify({ servers: [] }));
    // A second watcher sees the event, proving one was delivered to anyone listening.
    const seen = heard();
    const other = new ServersStore({ file: store.file });
    await other.watch((c) => seen.push(c));
    await writeFile(store.file, JSON.stringify({ servers: [{ name: 'x', command: 'node' }] }));
    await seen.next((c) => c.ok && c.servers.length === 1);
    await other.close();
    expect(changes).toEqual([]);
  });
});
