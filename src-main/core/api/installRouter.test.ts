// The install-link consent's doors, as the app uses them for a link the desktop shell received: the offer
// waits in the inbox, the dialog asks for its plan (the link itself never crosses the bridge), installs only
// on Install with the values asked, and dismisses it. A link that cannot be used is kept with its reason.
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

describe('install router', () => {
  it('a link from the shell: planned from the inbox, installed on consent with its input, then dismissed', async () => {
    const secrets = new MemorySecretStore();
    core = await MooringCore.open({ home: tempDir('mooring-install-router-'), secretStore: secrets });
    const caller = createCallerFactory(appRouter)(createApiContext(core));
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=shell-link&config=${b64({
      command: 'node',
      args: [EVERYTHING, 'stdio', '${input:mode}'],
    })}`;
    const offer = core.installLinks.offer(link);
    expect(await caller.install.pending()).toEqual([offer]);
    const plan = await caller.install.planOffer({ id: offer.id });
    expect(plan).toMatchObject({ name: 'shell-link', source: { kind: 'link', link: 'cursor' } });
    expect(plan.inputs.map((i) => i.id)).toEqual(['mode']);
    expect(await core.servers.listMasked()).toEqual([]);
    await expect(caller.install.install({ id: plan.id, inputs: {} })).rejects.toThrow(
      /Required value missing/,
    );
    await caller.install.install({ id: plan.id, inputs: { mode: 'x' } });
    expect(await core.servers.get('shell-link')).toMatchObject({
      args: [EVERYTHING, 'stdio', '${input:mode}'],
    });
    expect(secrets.entries.get('server/shell-link/input/mode')).toBe('x');
    expect(await caller.install.dismiss({ id: offer.id })).toEqual({ dismissed: true });
    await expect(caller.install.planOffer({ id: offer.id })).rejects.toThrow(/no longer pending/);
  });

  it('a plan is installed once; a declined one is gone', async () => {
    core = await MooringCore.open({
      home: tempDir('mooring-install-router-'),
      secretStore: new MemorySecretStore(),
    });
    const caller = createCallerFactory(appRouter)(createApiContext(core));
    const plan = await caller.install.plan({
      ref: `mooring://install?name=once&config=${b64({ command: 'node', args: [EVERYTHING, 'stdio'] })}`,
    });
    expect(await caller.install.decline({ id: plan.id })).toEqual({ declined: true });
    await expect(caller.install.install({ id: plan.id, inputs: {} })).rejects.toThrow(/no longer pending/);
    expect(await core.servers.listMasked()).toEqual([]);
  });
});
