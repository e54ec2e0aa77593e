// The merged UI event stream: one subscription to the core's bus, left when its consumer goes away, and a
// bounded queue per consumer (a consumer that falls behind resyncs).
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { uiEvents } from './eventStream';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

describe('uiEvents', () => {
  it('reads the core through one subscription to its bus, and leaves it when aborted', async () => {
    core = await MooringCore.open({ home: tempDir('mooring-events-'), secretStore: new MemorySecretStore() });
    const before = core.events.listenerCount();
    const ac = new AbortController();
    const stream = uiEvents(core, ac.signal);
    expect((await stream.next()).value).toEqual({ type: 'connected' });
    expect(core.events.listenerCount()).toBe(before + 1);
    ac.abort();
    await stream.return(undefined);
    expect(core.events.listenerCount()).toBe(before);
  });

  it('a consumer that falls behind is told to resync, then gets the snapshot and the live events again', async () => {
    core = await MooringCore.open({ home: tempDir('mooring-events-'), secretStore: new MemorySecretStore() });
    const ac = new AbortController();
    const stream = uiEvents(core, ac.signal, { limit: 10 });
    expect((await stream.next()).value).toEqual({ type: 'connected' });
    const line = (n: number) => ({
      server: 'x',
      at: n,
      source: 'stderr' as const,
      level: 'info' as const,
      text: `${n}`,
    });
    // Nobody reads while 25 lines arrive: the first 10 wait, the 11th overflows the queue.
    for (let n = 0; n < 25; n++) core.events.emit('log', line(n));
    expect((await stream.next()).value).toEqual({ type: 'resync', dropped: 25 });
    // Then the live events again, in order.
    core.events.emit('log', line(100));
    expect((await stream.next()).value).toEqual({ type: 'log', line: line(100) });
    ac.abort();
    await stream.return(undefined);
  });

  it('an install link the shell hands over reaches the UI as an event and stays listed until dismissed', async () => {
    core = await MooringCore.open({ home: tempDir('mooring-events-'), secretStore: new MemorySecretStore() });
    const ac = new AbortController();
    const stream = uiEvents(core, ac.signal);
    expect((await stream.next()).value).toEqual({ type: 'connected' });
    const config = Buffer.from(JSON.stringify({ command: 'node', args: ['server.js'] })).toString('base64');
    const offer = core.installLinks.offer(`mooring://install?name=demo&config=${config}`);
    expect((await stream.next()).value).toEqual({ type: 'installLink', offer });
    ac.abort();
    await stream.return(undefined);

    const ctx = createApiContext(core);
    const api = createCallerFactory(appRouter)(ctx);
    expect(await api.install.pending()).toEqual([offer]);
    expect(offer.result).toMatchObject({ ok: true, server: { name: 'demo', command: 'node' } });
    expect(await api.install.dismiss({ id: offer.id })).toEqual({ dismissed: true });
    expect(await api.install.pending()).toEqual([]);
    // Nothing was installed: the link only waited for the user.
    expect(await core.servers.configs()).toEqual([]);
    ctx.dispose();
  });
});
