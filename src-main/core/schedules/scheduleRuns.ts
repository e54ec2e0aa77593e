// One run of a schedule, start to end (docs/schedules.md, "Schedules"): claimed in `schedule-runs.json` under
// its lock — a schedule with a run still going (in any live process) gets no second one — then the prompt runs
// as a conversation under the unattended policy, with the schedule's time limit and a cancel, and the run's
// outcome is written back. A run whose process died is ended as failed by the next claim.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ChatMessage } from '@shared/chat';
import type { RunOutcome, Schedule, ScheduleRun, ScheduleState } from '@shared/schedules';
import { MooringError, toErrorData } from '../errors';
import { processAlive, scheduleStateStore, trimRuns } from './scheduleFiles';
import { formatDuration } from '@shared/scheduleWords';

/** What a run hands the chat: the schedule, its cancel, and where each saved message goes. */
export interface RunPromptInput {
  schedule: Schedule;
  signal: AbortSignal;
  /** The run's conversation exists (before the model is asked): the screen can open it while it runs. */
  onConversation: (conversationId: string) => void;
  onMessage: (message: ChatMessage) => void;
}

/** Runs the prompt as a conversation; resolves with the model's last answer, throws as a chat turn does. */
export type RunPrompt = (input: RunPromptInput) => Promise<{ conversationId: string; text: string }>;

export interface ScheduleRunsEvents {
  /** A run started, changed (its conversation exists) or ended; or a time was skipped. */
  run: [ScheduleRun, Schedule];
}

type Trigger = ScheduleRun['trigger'];

const SUMMARY_CHARS = 300;

const firstLines = (text: string) => {
  const one = text.trim().replace(/\n{2,}/g, '\n');
  return one.length > SUMMARY_CHARS ? `${one.slice(0, SUMMARY_CHARS - 1)}…` : one;
};

export class ScheduleRuns extends EventEmitter<ScheduleRunsEvents> {
  readonly store: ReturnType<typeof scheduleStateStore>;
  /** The runs of this process: by schedule id. */
  private readonly active = new Map<string, { runId: string; ac: AbortController }>();

  constructor(private readonly deps: { file: string; runPrompt: RunPrompt }) {
    super();
    this.store = scheduleStateStore(deps.file);
  }

  state(): Promise<ScheduleState> {
    return this.store.read();
  }

  isRunning(scheduleId: string): boolean {
    return this.active.has(scheduleId);
  }

  /**
   * Claims a run of `schedule` for `slot`: the record is written (outcome `running`, this pid) under the
   * file's lock. When a run of it is still going, a scheduled time is recorded as skipped (and null
   * returned); a run by hand fails with what to do. `handled` moves the schedule's last handled time.
   */
  async claim(
    schedule: Schedule,
    o: { slot: number; trigger: Trigger; handled?: number },
  ): Promise<ScheduleRun | null> {
    let claimed: ScheduleRun | null = null;
    let skipped: ScheduleRun | undefined;
    let busySince: number | undefined;
    await this.store.update((state) => {
      claimed = null;
      skipped = undefined;
      busySince = undefined;
      const now = Date.now();
      this.endOrphans(state, now);
      if (o.handled !== undefined)
        state.handled[schedule.id] = Math.max(state.handled[schedule.id] ?? 0, o.handled);
      const busy = state.runs.find((r) => r.scheduleId === schedule.id && r.outcome === 'running');
      if (busy) {
        busySince = busy.startedAt;
        if (o.trigger !== 'manual') {
          skipped = this.record(schedule, {
            slot: o.slot,
            trigger: o.trigger,
            outcome: 'skipped',
            summary: 'Skipped: the previous run was still going.',
          });
          state.runs.push(skipped);
        }
      } else {
        claimed = { ...this.record(schedule, { ...o, outcome: 'running' }), pid: process.pid };
        state.runs.push(claimed);
      }
      return { ...state, runs: trimRuns(state.runs) };
    });
    if (skipped) this.emit('run', skipped, schedule);
    if (busySince !== undefined && o.trigger === 'manual')
      throw new MooringError(
        'usage',
        `"${schedule.name}" is already running (since ${new Date(busySince).toLocaleString()})`,
        'Wait for it to finish, or cancel it first.',
      );
    if (claimed) this.emit('run', claimed, schedule);
    return claimed;
  }

  /** Records times that passed unrun (the schedule says skip), and moves its last handled time. */
  async skipMissed(schedule: Schedule, o: { slot: number; count: number; handled: number }): Promise<void> {
    const run = this.record(schedule, {
      slot: o.slot,
      trigger: 'missed',
      outcome: 'skipped',
      summary: `Skipped ${o.count === 1 ? 'a time' : `${o.count.toLocaleString('en-US')} times`} that passed while no Mooring process ran schedules (this schedule skips missed runs).`,
    });
    await this.store.update((state) => {
      state.handled[schedule.id] = Math.max(state.handled[schedule.id] ?? 0, o.handled);
      state.runs.push(run);
      return state;
    });
    this.emit('run', run, schedule);
  }

  /** Moves the schedule's last handled time without a run (a new schedule, an edited time). */
  async setHandled(scheduleId: string, at: number): Promise<void> {
    await this.store.update((state) => ({ ...state, handled: { ...state.handled, [scheduleId]: at } }));
  }

  /** Runs a claimed run to its end, within the schedule's time limit; resolves with its final record. */
  async execute(schedule: Schedule, run: ScheduleRun): Promise<ScheduleRun> {
    const ac = new AbortController();
    this.active.set(schedule.id, { runId: run.id, ac });
    const limitMs = schedule.timeLimitS * 1000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new MooringError('cancelled', `The run reached its time limit (${formatDuration(limitMs)})`));
    }, limitMs);
    const refusals: ScheduleRun['refusals'] = [];
    let conversationId: string | undefined;
    let end: { outcome: RunOutcome; summary: string };
    try {
      const result = await this.deps.runPrompt({
        schedule,
        signal: ac.signal,
        onConversation: (cid) => {
          conversationId = cid;
          void this.patch(run.id, { conversationId: cid }).then((r) => r && this.emit('run', r, schedule));
        },
        onMessage: (m) => {
          if (m.role === 'tool' && m.status === 'refused') refusals.push({ tool: m.name, reason: m.text });
        },
      });
      conversationId = result.conversationId;
      end = { outcome: 'done', summary: firstLines(result.text) || '(no answer)' };
    } catch (err) {
      const e = toErrorData(err);
      if (timedOut)
        end = {
          outcome: 'timed-out',
          summary: `Stopped at the time limit (${formatDuration(limitMs)}).`,
        };
      else if (e.code === 'cancelled') end = { outcome: 'cancelled', summary: 'Cancelled.' };
      else end = { outcome: 'failed', summary: firstLines(e.hint ? `${e.message}. ${e.hint}` : e.message) };
    } finally {
      clearTimeout(timer);
      this.active.delete(schedule.id);
    }
    const final = await this.patch(run.id, {
      ...end,
      endedAt: Date.now(),
      refusals,
      ...(conversationId ? { conversationId } : {}),
      pid: undefined,
    });
    const done = final ?? { ...run, ...end, endedAt: Date.now(), refusals };
    this.emit('run', done, schedule);
    return done;
  }

  /** Cancels this process's run of the schedule; false when none runs here. */
  cancel(scheduleId: string): boolean {
    const a = this.active.get(scheduleId);
    if (!a) return false;
    a.ac.abort(new MooringError('cancelled', 'Cancelled by the user'));
    return true;
  }

  cancelAll(reason = 'Mooring is closing'): void {
    for (const a of this.active.values()) a.ac.abort(new MooringError('cancelled', reason));
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  private async patch(runId: string, change: Partial<ScheduleRun>): Promise<ScheduleRun | undefined> {
    let out: ScheduleRun | undefined;
    await this.store.update((state) => {
      const i = state.runs.findIndex((r) => r.id === runId);
      if (i < 0) return state;
      const next = { ...state.runs[i]!, ...change };
      if (change.pid === undefined && 'pid' in change) delete next.pid;
      state.runs[i] = next;
      out = next;
      return state;
    });
    return out;
  }

  /** A run left `running` by a process that is gone (a crash, a kill) is ended as failed. */
  private endOrphans(state: ScheduleState, now: number): void {
    for (const r of state.runs) {
      if (r.outcome !== 'running') continue;
      const mine = r.pid === process.pid;
      const alive = mine ? this.active.get(r.scheduleId)?.runId === r.id : processAlive(r.pid ?? -1);
      if (alive) continue;
      r.outcome = 'failed';
      r.endedAt = now;
      r.summary = 'The Mooring process running it ended before it finished.';
      delete r.pid;
    }
  }

  private record(
    schedule: Schedule,
    o: { slot: number; trigger: Trigger; outcome: RunOutcome; summary?: string },
  ): ScheduleRun {
    const now = Date.now();
    return {
      id: randomUUID(),
      scheduleId: schedule.id,
      slot: o.slot,
      startedAt: now,
      ...(o.outcome === 'running' ? {} : { endedAt: now }),
      trigger: o.trigger,
      outcome: o.outcome,
      summary: o.summary ?? '',
      refusals: [],
    };
  }
}
