// Tool sets through the router the app uses, on a real core and a real settings.json: forty saves at once
// (twenty pairs, as a UI and a second window could send them) all survive. Each save used to make its own
// settings store whose queue serialised nothing, and about half of them were lost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

describe('tool sets router', () => {
  it('keeps all forty tool sets saved concurrently', { timeout: 120_000 }, async () => {
    const home = tempDir('mooring-toolsets-ui-');
    core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
    const caller = createCallerFactory(appRouter)(createApiContext(core));
    const names = Array.from({ length: 40 }, (_, i) => `set-${i}`);
    await Promise.all(
      names.map((name, i) => caller.toolSets.save({ name, tools: [`mcp__s${i % 5}__tool_${i}`] })),
    );
    const onDisk = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as {
      toolSets: { name: string }[];
    };
    expect(onDisk.toolSets.map((t) => t.name).sort()).toEqual([...names].sort());
    expect((await caller.toolSets.list()).map((t) => t.name).sort()).toEqual([...names].sort());

    await Promise.all(names.slice(0, 20).map((name) => caller.toolSets.remove({ name })));
    expect((await caller.toolSets.list()).map((t) => t.name).sort()).toEqual(names.slice(20).sort());
  });
});
