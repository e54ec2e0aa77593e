// Create or edit a schedule: what to ask, which model and tools, when — with the next five times it would
// run, computed by the core from what is typed (the same reading as the scheduler's), and what happens to a
// missed time. The form's strings become a schedule in lib/scheduleDraft.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { Schedule } from '@shared/schedules';
import { useTRPC } from '../../api/trpc';
import { errorOf } from '../../api/errors';
import { ErrorNote } from '../../components/ErrorNote';
import {
  draftOf,
  emptyDraft,
  inputOf,
  whenOf,
  type ScheduleDraft,
  type WhenKind,
} from '../../lib/scheduleDraft';
import { Button, Dialog, Field, Switch } from '../../ui';
import { when as formatTime } from './RunHistory';

const WHEN_LABELS: Record<WhenKind, { label: string; placeholder: string; hint: string }> = {
  every: {
    label: 'Every',
    placeholder: '1h',
    hint: 'An interval from now: 15m, 2h, 1d, 1h30m (at least 1m).',
  },
  cron: {
    label: 'Cron expression',
    placeholder: '0 9 * * 1-5',
    hint: 'minute hour day-of-month month day-of-week; “0 9 * * 1-5” is 9:00 on weekdays.',
  },
  at: { label: 'Once, at', placeholder: '2030-05-01T09:00', hint: 'A date and time: 2030-05-01T09:00.' },
};

export function ScheduleEditor(props: { id: string | null; schedule?: Schedule; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const defaultModel = useQuery(trpc.chat.defaultModel.queryOptions());
  const toolSets = useQuery(trpc.toolSets.list.queryOptions());
  const [draft, setDraft] = useState<ScheduleDraft | null>(props.schedule ? draftOf(props.schedule) : null);
  const [tried, setTried] = useState(false);
  // The default model arrives after the form may have been typed in: it fills the field until it is edited.
  const [modelEdited, setModelEdited] = useState(false);
  const d0 = draft ?? emptyDraft('');
  const d = !d0.model && !modelEdited ? { ...d0, model: defaultModel.data ?? '' } : d0;
  const set = (patch: Partial<ScheduleDraft>) => setDraft({ ...d, ...patch });
  const parsed = whenOf(d);
  const deferredWhen = useDeferredValue(typeof parsed === 'string' ? null : parsed);
  const preview = useQuery({
    ...trpc.schedules.preview.queryOptions({ when: deferredWhen ?? { kind: 'every', everyMs: 60_000 } }),
    enabled: deferredWhen !== null,
    retry: false,
  });
  const done = () => {
    void qc.invalidateQueries({ queryKey: trpc.schedules.pathKey() });
    props.onClose();
  };
  const add = useMutation(trpc.schedules.add.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.schedules.update.mutationOptions({ onSuccess: done }));
  const result = inputOf(d);
  const fieldError = (field: string) =>
    tried && !result.ok && result.field === field ? result.message : null;
  const save = () => {
    setTried(true);
    if (!result.ok) return;
    if (props.id) update.mutate({ id: props.id, schedule: result.input });
    else add.mutate(result.input);
  };
  const w = WHEN_LABELS[d.kind];
  const previewError = typeof parsed === 'string' ? parsed : errorOf(preview.error)?.message;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && props.onClose()}
      title={props.schedule ? `Edit ${props.schedule.name}` : 'New schedule'}
      size="lg"
      testId="schedule-editor"
      footer={
        <>
          <span className="spacer" />
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="primary" loading={add.isPending || update.isPending} onClick={save}>
            Save schedule
          </Button>
        </>
      }
    >
      <div className="stack-md">
        <Field label="Name" error={fieldError('name')}>
          <input
            value={d.name}
            placeholder="Morning summary"
            onChange={(e) => set({ name: e.target.value })}
          />
        </Field>
        <Field label="Prompt" error={fieldError('prompt')}>
          <textarea
            rows={4}
            value={d.prompt}
            placeholder="Summarise what changed in my project folder since yesterday."
            onChange={(e) => set({ prompt: e.target.value })}
          />
        </Field>
        <div className="form-row">
          <Field label="Model" hint="provider:model, as in the chat" error={fieldError('model')}>
            <input
              value={d.model}
              placeholder="openai:gpt-4o"
              onChange={(e) => {
                setModelEdited(true);
                set({ model: e.target.value });
              }}
            />
          </Field>
          <Field
            label="Tools"
            hint="Read-only ones run; others only if allowed below"
            error={fieldError('toolSet')}
          >
            <select value={d.toolSet} onChange={(e) => set({ toolSet: e.target.value })}>
              <option value="">All enabled tools</option>
              {(toolSets.data ?? []).map((t) => (
                <option key={t.name} value={t.name}>
                  Tool set: {t.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="form-row">
          <Field label="Runs">
            <select value={d.kind} onChange={(e) => set({ kind: e.target.value as WhenKind, when: '' })}>
              <option value="every">at an interval</option>
              <option value="cron">on a cron timetable</option>
              <option value="at">once</option>
            </select>
          </Field>
          <Field label={w.label} hint={w.hint} error={fieldError('when')}>
            <input
              value={d.when}
              placeholder={w.placeholder}
              onChange={(e) => set({ when: e.target.value })}
            />
          </Field>
          {d.kind !== 'every' && (
            <Field label="Time zone" hint="Empty: this computer's">
              <input
                value={d.timezone}
                placeholder="Europe/Berlin"
                onChange={(e) => set({ timezone: e.target.value })}
              />
            </Field>
          )}
        </div>
        <div className="schedule-preview" aria-live="polite" data-testid="schedule-preview">
          <span className="field-label">Next runs</span>
          {previewError ? (
            <p className="field-error">{previewError}</p>
          ) : preview.data?.length ? (
            <ol>
              {preview.data.map((t) => (
                <li key={t}>{formatTime(t)}</li>
              ))}
            </ol>
          ) : (
            <p className="muted small">
              {preview.isFetching ? 'Working them out…' : 'None: that time has passed.'}
            </p>
          )}
        </div>
        <Field
          label="Also allow"
          hint="Tools that may change things in this schedule's runs, one per line (mcp__server__tool; a trailing * matches a prefix)"
          error={fieldError('allow')}
        >
          <textarea rows={2} value={d.allow} onChange={(e) => set({ allow: e.target.value })} />
        </Field>
        <div className="form-row">
          <Field
            label="Project folder"
            hint="Optional: the folder its servers work in"
            error={fieldError('workspace')}
          >
            <input
              value={d.workspace}
              placeholder="/home/me/project"
              onChange={(e) => set({ workspace: e.target.value })}
            />
          </Field>
          <Field label="When Mooring was closed at a run time">
            <select
              value={d.missed}
              onChange={(e) => set({ missed: e.target.value as ScheduleDraft['missed'] })}
            >
              <option value="run-once">Run once at the next start</option>
              <option value="skip">Skip it</option>
            </select>
          </Field>
          <Field label="Time limit" hint="A run still going is stopped" error={fieldError('timeLimitS')}>
            <input value={d.timeLimit} onChange={(e) => set({ timeLimit: e.target.value })} />
          </Field>
        </div>
        <Switch
          label="Code mode"
          description="The model may write one program that calls many tools. Each of its calls is policed as in any run of this schedule: one that would ask is refused, and the program gets the refusal as an exception."
          checked={d.codeMode}
          onCheckedChange={(codeMode) => set({ codeMode })}
        />
        <Switch
          label="Notify me of each run's outcome"
          checked={d.notify}
          onCheckedChange={(notify) => set({ notify })}
        />
        <Switch label="Paused" checked={d.paused} onCheckedChange={(paused) => set({ paused })} />
        <ErrorNote error={add.error ?? update.error} testId="schedule-save-error" />
      </div>
    </Dialog>
  );
}
