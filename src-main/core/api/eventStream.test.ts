// The merged UI event stream leaves no listener behind when its consumer goes away.
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
  it('subscribes to every source while open and unsubscribes from all of them when aborted', async () => {
    core = await MooringCore.open({ home: tempDir('mooring-events-'), secretStore: new MemorySecretStore() });
    const chat = core.chat;
    const sources = [
      [core, ['status', 'interaction', 'tools', 'log', 'approval']],
      [core.tools, ['toolCall']],
      [core.interactions, ['resolved']],
      [core.approvals, ['resolved']],
      [chat, ['chat', 'turn']],
      [core.installLinks, ['offer']],
    ] as const;
    const counts = () => sources.flatMap(([e, names]) => names.map((n) => e.listenerCount(n)));
    const before = counts();
    const ac = new AbortController();
    const stream = uiEvents(core, ac.signal);
    expect((await stream.next()).value).toEqual({ type: 'connected' });
    expect(counts()).toEqual(before.map((n) => n + 1));
    ac.abort();
    await stream.return(undefined);
    expect(counts()).toEqual(before);
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
