// The Electron IPC link end to end without Electron: the renderer's ipcLink and the main process's
// dispatcher joined by a bridge that clones every message the way IPC does (structured clone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient, TRPCClientError } from '@trpc/client';
import { ipcLink } from '../../src-renderer/src/api/ipcLink';
import { everythingStdio, tempDir } from '../helpers/servers';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { createIpcDispatcher } from '../../src-main/core/api/ipcDispatcher';
import type { IpcResponse, MooringBridge } from '../../shared/ipc';
import { appRouter, createApiContext, type AppRouter } from '../../src-main/core/api/router';

describe('the IPC link', () => {
  let core: MooringCore;
  let api: ReturnType<typeof createApiContext>;
  const listeners = new Set<(m: IpcResponse) => void>();

  beforeAll(async () => {
    core = await MooringCore.open({ home: tempDir(), secretStore: new MemorySecretStore() });
    api = createApiContext(core);
  });
  afterAll(async () => {
    api.dispose();
    await core.close();
  });

  const connect = () => {
    const dispatcher = createIpcDispatcher({
      router: appRouter,
      createContext: () => ({ core: api.core, history: api.history }),
      reply: (m) => listeners.forEach((l) => l(structuredClone(m))),
    });
    const bridge: MooringBridge = {
      send: (m) => dispatcher.handle(structuredClone(m)),
      onMessage: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    return { dispatcher, client: createTRPCClient<AppRouter>({ links: [ipcLink<AppRouter>(bridge)] }) };
  };

  it('runs queries and mutations, and errors arrive as data with code and hint', async () => {
    const { client, dispatcher } = connect();
    expect(await client.servers.list.query()).toEqual([]);
    const added = await client.servers.add.mutate(everythingStdio('everything'));
    expect(added.name).toBe('everything');
    const err = await client.servers.add.mutate(everythingStdio('everything')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<AppRouter>).data?.mooring).toMatchObject({
      message: expect.stringContaining('already exists'),
      hint: expect.any(String),
    });
    const bad = await client.servers.add
      .mutate({ name: 'has space', command: 'node' })
      .catch((e: unknown) => e);
    expect((bad as TRPCClientError<AppRouter>).data?.mooring?.code).toBe('config_invalid');
    dispatcher.dispose();
  });

  it('streams the subscription and stops it on unsubscribe', async () => {
    const { client, dispatcher } = connect();
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      const sub = client.events.subscribe(undefined, {
        onData: (e) => {
          seen.push(e.type === 'status' ? `status:${e.status.state}` : e.type);
          if (e.type === 'status' && e.status.state === 'ready') {
            sub.unsubscribe();
            resolve();
          }
          if (e.type === 'connected') void core.start();
        },
      });
    });
    expect(seen[0]).toBe('connected');
    expect(seen).toContain('status:ready');
    // A stopped subscription is gone on the main side too: status changes send nothing more.
    const messages: IpcResponse[] = [];
    const spy = (m: IpcResponse) => messages.push(m);
    listeners.add(spy);
    let statusEvents = 0;
    const count = () => statusEvents++;
    core.on('status', count);
    await core.servers.setEnabled('everything', false);
    core.off('status', count);
    listeners.delete(spy);
    expect(statusEvents).toBeGreaterThan(0);
    expect(messages.filter((m) => m.kind === 'data')).toEqual([]);
    dispatcher.dispose();
  });

  it('ignores malformed messages', () => {
    const replies: IpcResponse[] = [];
    const d = createIpcDispatcher({
      router: appRouter,
      createContext: () => api,
      reply: (m) => replies.push(m),
    });
    for (const m of [
      null,
      'x',
      { kind: 'request', id: 'a', type: 'query', path: 'servers.list' },
      { kind: 'exec', id: 1 },
    ])
      d.handle(m);
    expect(replies).toEqual([]);
  });
});
