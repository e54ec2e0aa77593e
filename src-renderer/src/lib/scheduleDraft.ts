// The Schedules screen's form as plain strings, and the schedule it stands for: one place turns a form into
// a `ScheduleInput` (validated with the schema the core writes schedules.json with) and a saved schedule
// back into a form, so editing one and saving it unchanged changes nothing.
import {
  DEFAULT_RUN_LIMIT_S,
  ScheduleInputSchema,
  type MissedRun,
  type Schedule,
  type ScheduleInput,
  type ScheduleWhen,
} from '@shared/schedules';
import { DURATION_HINT, durationMs, formatDuration } from '@shared/scheduleWords';

export type WhenKind = ScheduleWhen['kind'];

export interface ScheduleDraft {
  name: string;
  prompt: string;
  model: string;
  kind: WhenKind;
  /** `15m` for an interval, a cron expression, or an ISO time for a one-off. */
  when: string;
  timezone: string;
  /** '' = every enabled tool. */
  toolSet: string;
  /** The model writes programs over the tools (docs/code-mode.md), each call as policed. */
  codeMode: boolean;
  /** Tool names, one per line or comma-separated; a trailing `*` matches a prefix. */
  allow: string;
  workspace: string;
  missed: MissedRun;
  timeLimit: string;
  notify: boolean;
  paused: boolean;
}

export function emptyDraft(model: string): ScheduleDraft {
  return {
    name: '',
    prompt: '',
    model,
    kind: 'every',
    when: '1h',
    timezone: '',
    toolSet: '',
    codeMode: false,
    allow: '',
    workspace: '',
    missed: 'run-once',
    timeLimit: formatDuration(DEFAULT_RUN_LIMIT_S * 1000),
    notify: true,
    paused: false,
  };
}

export function draftOf(s: Schedule): ScheduleDraft {
  const w = s.when;
  return {
    name: s.name,
    prompt: s.prompt,
    model: s.model,
    kind: w.kind,
    when: w.kind === 'every' ? formatDuration(w.everyMs) : w.kind === 'cron' ? w.expr : w.at,
    timezone: w.kind === 'every' ? '' : (w.timezone ?? ''),
    toolSet: s.toolSet ?? '',
    codeMode: s.codeMode ?? false,
    allow: s.allow.join('\n'),
    workspace: s.workspace ?? '',
    missed: s.missed,
    timeLimit: formatDuration(s.timeLimitS * 1000),
    notify: s.notify,
    paused: s.paused,
  };
}

/** The `when` of a draft, or why it cannot be one (shown under the field). */
export function whenOf(d: Pick<ScheduleDraft, 'kind' | 'when' | 'timezone'>): ScheduleWhen | string {
  const text = d.when.trim();
  const tz = d.timezone.trim() ? { timezone: d.timezone.trim() } : {};
  if (d.kind === 'every') {
    const ms = durationMs(text);
    if (ms === undefined) return `"${text}" is not a duration. ${DURATION_HINT}`;
    if (ms < 60_000) return 'An interval must be at least one minute.';
    return { kind: 'every', everyMs: ms };
  }
  if (!text) return d.kind === 'cron' ? 'Type a cron expression.' : 'Type a date and time.';
  return d.kind === 'cron' ? { kind: 'cron', expr: text, ...tz } : { kind: 'at', at: text, ...tz };
}

export type DraftResult = { ok: true; input: ScheduleInput } | { ok: false; field: string; message: string };

/** The schedule a draft stands for, or the first field that is wrong and why. */
export function inputOf(d: ScheduleDraft): DraftResult {
  const when = whenOf(d);
  if (typeof when === 'string') return { ok: false, field: 'when', message: when };
  const limitMs = durationMs(d.timeLimit);
  if (limitMs === undefined)
    return {
      ok: false,
      field: 'timeLimitS',
      message: `"${d.timeLimit}" is not a duration. ${DURATION_HINT}`,
    };
  const candidate: ScheduleInput = {
    name: d.name.trim(),
    prompt: d.prompt,
    model: d.model.trim(),
    ...(d.toolSet ? { toolSet: d.toolSet } : {}),
    ...(d.codeMode ? { codeMode: true } : {}),
    allow: d.allow
      .split(/[\n,]/)
      .map((t) => t.trim())
      .filter(Boolean),
    workspace: d.workspace.trim() || null,
    when,
    missed: d.missed,
    timeLimitS: Math.round(limitMs / 1000),
    notify: d.notify,
    paused: d.paused,
  };
  const r = ScheduleInputSchema.safeParse(candidate);
  if (r.success) return { ok: true, input: candidate };
  const issue = r.error.issues[0]!;
  return { ok: false, field: String(issue.path[0] ?? 'name'), message: issue.message };
}
