// The Electron window's event stream has a bound too (shared/ipc.ts, IPC_WINDOW): a window that stops
// handling its messages (busy, hung) stops receiving once IPC_WINDOW are unacknowledged, so its stream's own
// bounded queue applies and it is told to resync when it handles them again. The renderer's ipcLink and the
// main process's dispatcher, joined by a bridge that holds the window's messages while it is "busy".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import type { LogLine } from '@shared/session';
import type { UiEvent } from '@shared/wire';
import { ipcLink } from '../../src-renderer/src/api/ipcLink';
import { SUBSCRIBER_QUEUE_LIMIT } from '../../src-main/core/api/eventStream';
import { createIpcDispatcher } from '../../src-main/core/api/ipcDispatcher';
import { appRouter, createApiContext, type AppRouter } from '../../src-main/core/api/router';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { IPC_WINDOW, type IpcResponse, type MooringBridge } from '../../shared/ipc';
import { tempDir } from '../helpers/servers';

const line = (n: number): LogLine => ({ server: 'x', at: n, source: 'stderr', level: 'info', text: `${n}` });

describe('the IPC link’s flow control', () => {
  let core: MooringCore;
  let api: ReturnType<typeof createApiContext>;
  beforeAll(async () => {
    core = await MooringCore.open({ home: tempDir(), secretStore: new MemorySecretStore() });
    api = createApiContext(core);
  });
  afterAll(async () => {
    api.dispose();
    await core.close();
  });

  it('a busy window gets at most its window of messages, then resyncs once it handles them', async () => {
    const toWindow = new Set<(m: IpcResponse) => void>();
    let busy = false;
    const held: IpcResponse[] = [];
    const dispatcher = createIpcDispatcher({
      router: appRouter,
      createContext: () => ({ core: api.core, history: api.history }),
      reply: (m) => {
        const copy = structuredClone(m);
        if (busy) held.push(copy);
        else toWindow.forEach((l) => l(copy));
      },
    });
    const bridge: MooringBridge = {
      send: (m) => dispatcher.handle(structuredClone(m)),
      onMessage: (l) => {
        toWindow.add(l);
        return () => toWindow.delete(l);
      },
    };
    const client = createTRPCClient<AppRouter>({ links: [ipcLink<AppRouter>(bridge)] });
    const seen: UiEvent[] = [];
    let onSeen = () => undefined as void;
    const sub = client.events.subscribe(undefined, {
      onData: (e) => {
        seen.push(e);
        onSeen();
      },
    });
    const until = (ok: () => boolean) =>
      new Promise<void>((resolve) => {
        onSeen = () => ok() && resolve();
        onSeen();
      });
    await until(() => seen.some((e) => e.type === 'connected'));

    // The window is busy; the core goes on, batch after batch (as a server's stderr arrives in chunks):
    // many more events than the window and the queue hold.
    busy = true;
    const batch = 200;
    const n = (IPC_WINDOW + SUBSCRIBER_QUEUE_LIMIT) * 3;
    for (let i = 0; i < n; i++) {
      core.events.emit('log', line(i));
      if (i % batch === batch - 1) await new Promise((r) => setImmediate(r));
    }
    // The window was filled, and nothing more was sent.
    const sent = held.filter((m) => m.kind === 'data').length;
    expect(sent).toBeGreaterThan(IPC_WINDOW - 64);
    expect(sent).toBeLessThanOrEqual(IPC_WINDOW);

    // The window handles what it holds: it acknowledges, gets the rest, and is told to resync.
    busy = false;
    for (const m of held.splice(0)) toWindow.forEach((l) => l(m));
    await until(() => seen.some((e) => e.type === 'resync'));
    const resync = seen.find((e) => e.type === 'resync') as Extract<UiEvent, { type: 'resync' }>;
    expect(resync.dropped).toBeGreaterThan(SUBSCRIBER_QUEUE_LIMIT);
    // Every log line it got came in order, and fewer than were sent.
    const got = seen.flatMap((e) => (e.type === 'log' ? [e.line.at] : []));
    expect(got).toEqual([...got].sort((a, b) => a - b));
    expect(got.length).toBeLessThan(n);
    sub.unsubscribe();
    dispatcher.dispose();
  });
});
