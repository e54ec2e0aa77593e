// The merged UI event stream leaves no listener behind when its consumer goes away.
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { uiEvents } from './eventStream';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

describe('uiEvents', () => {
  it('subscribes to every source while open and unsubscribes from all of them when aborted', async () => {
    core = await MooringCore.open({ home: tempDir('mooring-events-'), secretStore: new MemorySecretStore() });
    const chat = core.chat;
    const sources = [
      [core, ['status', 'interaction', 'tools', 'toolCall', 'log', 'approval']],
      [core.interactions, ['resolved']],
      [core.approvals, ['resolved']],
      [chat, ['chat', 'turn']],
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
});
