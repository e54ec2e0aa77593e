// The Schedules screen's router on a real core and a real home: the preview reads a timetable as the
// scheduler does (or says what is wrong), an edit keeps the schedule's id and is on disk, a name taken
// twice is refused with what to do, and pause empties the next times.
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

const input = (name: string) => ({
  name,
  prompt: 'Summarise the folder',
  model: 'openai:gpt-4o',
  when: { kind: 'every' as const, everyMs: 3_600_000 },
});

describe('schedules router', () => {
  it('previews, adds, edits, pauses and removes a schedule', { timeout: 60_000 }, async () => {
    const home = tempDir('mooring-schedules-ui-');
    core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
    const caller = createCallerFactory(appRouter)(createApiContext(core));

    const times = await caller.schedules.preview({
      when: { kind: 'cron', expr: '30 9 * * *', timezone: 'Asia/Tokyo' },
    });
    expect(times).toHaveLength(5);
    for (const t of times)
      expect(new Date(t).toLocaleTimeString('en-GB', { timeZone: 'Asia/Tokyo' })).toBe('09:30:00');
    await expect(caller.schedules.preview({ when: { kind: 'cron', expr: '61 * * * *' } })).rejects.toThrow(
      /not a cron expression/,
    );

    const added = await caller.schedules.add(input('Report'));
    await expect(caller.schedules.add(input('Report'))).rejects.toThrow(/already exists/);
    const edited = await caller.schedules.update({
      id: added.id,
      schedule: { ...input('Weekly report'), when: { kind: 'cron', expr: '0 9 * * 1' } },
    });
    expect(edited.id).toBe(added.id);
    const onDisk = JSON.parse(readFileSync(join(home, 'schedules.json'), 'utf8')) as {
      schedules: { id: string; name: string; when: { kind: string } }[];
    };
    expect(onDisk.schedules).toMatchObject([{ id: added.id, name: 'Weekly report', when: { kind: 'cron' } }]);

    expect((await caller.schedules.list())[0]!.next).toHaveLength(5);
    await caller.schedules.setPaused({ id: added.id, paused: true });
    expect((await caller.schedules.list())[0]).toMatchObject({ next: [], schedule: { paused: true } });
    expect(await caller.schedules.history({ id: added.id })).toEqual([]);
    expect(await caller.schedules.status()).toEqual({ owner: null, mine: false });

    await caller.schedules.remove({ id: added.id });
    expect(await caller.schedules.list()).toEqual([]);
  });
});
