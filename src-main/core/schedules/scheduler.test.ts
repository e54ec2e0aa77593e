// The scheduler's timing on fake timers and a fake clock (docs/schedules.md, "Schedules"), with the real files in
// a temp home: cron expressions in time zones, intervals, one-off times, missed runs (run once or skip), no
// overlap, the time limit and cancel. The prompt's run is the test's own function, so each test decides when
// a run ends; the real chat path is covered by test/integration/scheduleRun.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScheduleEvent, ScheduleInput, ScheduleRun } from '@shared/schedules';
import type { RunPromptInput } from './scheduleRuns';
import { ScheduleService } from './scheduleService';

const MIN = 60_000;
const T0 = Date.parse('2026-03-06T12:00:00Z'); // a Friday; the US changes to summer time on Sunday the 8th

interface Harness {
  svc: ScheduleService;
  /** Each run's prompt input, when it started (the fake clock). */
  started: { at: number; input: RunPromptInput }[];
  /** Ends the oldest unfinished run with this answer. */
  finish(text?: string): void;
  ended(): Promise<ScheduleRun>;
  events: ScheduleEvent[];
  /** When the scheduler looks next (its last look said). */
  wake: number;
}

let harness: Harness | undefined;

function makeHarness(home = mkdtempSync(join(tmpdir(), 'mooring-sched-'))): Harness {
  const started: Harness['started'] = [];
  const waiting: ((text: string) => void)[] = [];
  const events: ScheduleEvent[] = [];
  const svc = new ScheduleService({
    home,
    checkModel: () => undefined,
    checkToolSet: () => undefined,
    runPrompt: (input) => {
      started.push({ at: Date.now(), input });
      input.onConversation(`conv-${started.length}`);
      return new Promise((resolve, reject) => {
        waiting.push((text) => resolve({ conversationId: `conv-${started.length}`, text }));
        input.signal.addEventListener('abort', () => reject(input.signal.reason), { once: true });
      });
    },
  });
  svc.on('event', (e) => events.push(e));
  svc.loop.on('tick', (t) => (h.wake = t.nextAt));
  const h: Harness = {
    svc,
    started,
    events,
    wake: Infinity,
    finish: (text = 'ok') => waiting.shift()?.(text),
    ended: () =>
      new Promise((resolve) => {
        const on = (e: ScheduleEvent) => {
          if (e.type === 'run' && e.run.outcome !== 'running' && e.run.outcome !== 'skipped') {
            svc.off('event', on);
            resolve(e.run);
          }
        };
        svc.on('event', on);
      }),
  };
  harness = h;
  return h;
}

/** Resolves after the scheduler's next look at `at` or later (a look already under way may end first). */
const looked = (svc: ScheduleService, at = Date.now()) =>
  new Promise<void>((resolve) => {
    const on = (t: { at: number }) => {
      if (t.at < at) return;
      svc.loop.off('tick', on);
      resolve();
    };
    svc.loop.on('tick', on);
  });

/**
 * Moves the clock to `at` one look at a time (the scheduler looks at least once a minute, and each look
 * reads its files before it sets the next timer), waiting for the look at `at` when there is one.
 */
async function advanceTo(h: Harness, at: number): Promise<void> {
  while (Date.now() < at) {
    const step = Math.min(h.wake, at);
    if (step > Date.now() && step === at && h.wake > at) {
      await vi.advanceTimersByTimeAsync(at - Date.now());
      return;
    }
    const look = looked(h.svc, step);
    await vi.advanceTimersByTimeAsync(Math.max(0, step - Date.now()));
    await look;
  }
}

/** Sets the clock forward at once (a machine that slept) and lets the scheduler look, as a wake-up does. */
async function jumpTo(h: Harness, at: number): Promise<void> {
  vi.setSystemTime(at);
  const woke = looked(h.svc);
  h.svc.loop.poke();
  await woke;
}

/** This process takes the lease; resolves after the scheduler's first look. */
async function own(h: Harness): Promise<void> {
  const first = looked(h.svc);
  await h.svc.own('test');
  await first;
}

const nextRun = async (h: Harness) => (await h.svc.list())[0]!.next[0];

const input = (over: Partial<ScheduleInput> & Pick<ScheduleInput, 'when'>): ScheduleInput => ({
  name: 'Report',
  prompt: 'Summarise the day',
  model: 'ollama:llama3.2',
  ...over,
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
});

afterEach(async () => {
  await harness?.svc.close();
  harness = undefined;
  vi.useRealTimers();
});

describe('scheduler', () => {
  it('runs an interval on its times, counted from when the schedule was made', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 15 * MIN } }));
    await own(h);
    expect(await nextRun(h)).toBe(T0 + 15 * MIN);
    expect(h.started).toHaveLength(0);

    await advanceTo(h, T0 + 15 * MIN);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 15 * MIN]);
    expect(await nextRun(h)).toBe(T0 + 30 * MIN);
    const ended = h.ended();
    h.finish('All quiet.');
    expect(await ended).toMatchObject({ outcome: 'done', summary: 'All quiet.', trigger: 'schedule' });

    await advanceTo(h, T0 + 30 * MIN);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 15 * MIN, T0 + 30 * MIN]);
    const [row] = await h.svc.list();
    expect(row!.next).toEqual([45, 60, 75, 90, 105].map((m) => T0 + m * MIN));
  });

  it('reads a cron expression in its time zone, across a daylight-saving change', async () => {
    const h = makeHarness();
    const when = { kind: 'cron', expr: '0 9 * * *', timezone: 'America/New_York' } as const;
    // 9:00 in New York is 14:00 UTC in winter and 13:00 UTC from Sunday the 8th.
    expect(h.svc.preview(when).map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-10T13:00:00.000Z',
    ]);
    // 9:00 in Tokyo is midnight UTC.
    expect(h.svc.preview({ ...when, timezone: 'Asia/Tokyo' })[0]).toBe(Date.parse('2026-03-07T00:00:00Z'));
    await h.svc.add(input({ when }));
    await own(h);
    expect(await nextRun(h)).toBe(Date.parse('2026-03-06T14:00:00Z'));
    await advanceTo(h, Date.parse('2026-03-06T14:00:00Z'));
    expect(h.started).toHaveLength(1);
    h.finish();
    // To Saturday and Sunday mornings in jumps (as a laptop that sleeps would), each followed by 9:00.
    await jumpTo(h, Date.parse('2026-03-07T13:58:00Z'));
    await advanceTo(h, Date.parse('2026-03-07T14:00:00Z'));
    h.finish();
    await jumpTo(h, Date.parse('2026-03-08T12:58:00Z'));
    await advanceTo(h, Date.parse('2026-03-08T13:00:00Z'));
    expect(h.started.map((s) => new Date(s.at).toISOString())).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
    ]);
  });

  it('runs a one-off time once, then has no next time', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'at', at: '2026-03-06T13:30', timezone: 'Europe/Berlin' } }));
    // 13:30 in Berlin (UTC+1 in March) is 12:30 UTC.
    expect((await h.svc.list())[0]!.next).toEqual([T0 + 30 * MIN]);
    await own(h);
    await advanceTo(h, T0 + 30 * MIN);
    expect(h.started).toHaveLength(1);
    const ended = h.ended();
    h.finish();
    await ended;
    await advanceTo(h, T0 + 90 * MIN);
    expect(h.started).toHaveLength(1);
    expect((await h.svc.list())[0]!.next).toEqual([]);
    await expect(
      h.svc.add(input({ name: 'Past', when: { kind: 'at', at: '2026-03-06T11:00Z' } })),
    ).rejects.toThrow(/already passed/);
  });

  it('runs missed times once at the next start when the schedule says so', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 10 * MIN }, missed: 'run-once' }));
    // No process owned the scheduler for an hour and a bit: six times passed.
    vi.setSystemTime(T0 + 65 * MIN);
    await own(h);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 65 * MIN]);
    const ended = h.ended();
    h.finish();
    expect(await ended).toMatchObject({ trigger: 'missed', slot: T0 + 60 * MIN, outcome: 'done' });
    expect(await nextRun(h)).toBe(T0 + 70 * MIN);
  });

  it('skips missed times when the schedule says so, and records that it did', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 10 * MIN }, missed: 'skip' }));
    vi.setSystemTime(T0 + 65 * MIN);
    await own(h);
    expect(await nextRun(h)).toBe(T0 + 70 * MIN);
    expect(h.started).toHaveLength(0);
    const [skipped] = await h.svc.history('Report');
    expect(skipped).toMatchObject({ outcome: 'skipped', trigger: 'missed' });
    expect(skipped!.summary).toMatch(/Skipped 6 times that passed while no Mooring process ran schedules/);
    // The next time runs as usual.
    await advanceTo(h, T0 + 70 * MIN);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 70 * MIN]);
  });

  it('never overlaps two runs of one schedule: a time that comes during a run is skipped', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 5 * MIN }, timeLimitS: 3600 }));
    await own(h);
    await advanceTo(h, T0 + 5 * MIN);
    await advanceTo(h, T0 + 10 * MIN);
    expect(h.started).toHaveLength(1);
    await expect(h.svc.runNow('Report')).rejects.toThrow(/already running/);
    const runs = await h.svc.history('Report');
    expect(runs.map((r) => r.outcome)).toEqual(['skipped', 'running']);
    expect(runs[0]!.summary).toMatch(/previous run was still going/);
    const ended = h.ended();
    h.finish();
    await ended;
    await advanceTo(h, T0 + 15 * MIN);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 5 * MIN, T0 + 15 * MIN]);
  });

  it('ends a run at its time limit, and cancels one on request', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 60 * MIN }, timeLimitS: 30 }));
    await own(h);
    let ended = h.ended();
    await advanceTo(h, T0 + 60 * MIN);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await ended).toMatchObject({ outcome: 'timed-out', conversationId: 'conv-1' });
    expect(h.started[0]!.input.signal.aborted).toBe(true);

    ended = h.ended();
    await h.svc.runNow('Report');
    expect(await h.svc.cancel('Report')).toBe(true);
    expect(await ended).toMatchObject({ outcome: 'cancelled', trigger: 'manual' });
    const notes = h.events.filter((e) => e.type === 'notify');
    expect(notes.map((n) => n.type === 'notify' && n.title)).toEqual([
      'Schedule “Report”: timed-out',
      'Schedule “Report”: cancelled',
    ]);
  });

  it('does not run a paused schedule, nor the times that passed while it was paused', async () => {
    const h = makeHarness();
    await h.svc.add(input({ when: { kind: 'every', everyMs: 10 * MIN }, paused: true }));
    await own(h);
    await advanceTo(h, T0 + 10 * MIN);
    await advanceTo(h, T0 + 25 * MIN);
    expect(h.started).toHaveLength(0);
    expect((await h.svc.list())[0]!.next).toEqual([]);
    const look = looked(h.svc);
    await h.svc.setPaused('Report', false);
    await look;
    expect(h.started).toHaveLength(0);
    await advanceTo(h, T0 + 30 * MIN);
    expect(h.started.map((s) => s.at)).toEqual([T0 + 30 * MIN]);
  });
});
