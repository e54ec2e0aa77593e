// Scheduled prompts (ARCHITECTURE.md, "Schedules"): every schedule with when it runs next, its last outcome
// and its history of runs; run one now, pause it, edit or remove it. Runs happen in whichever Mooring process
// holds the schedules (the app, `mooring web` or `mooring serve`); the header says which, so a schedule
// that does not run is never a mystery. A run is a conversation: the history opens it in the chat.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, History, Pause, Pencil, Play, Plus, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ScheduleRow, SchedulerStatus } from '@shared/schedules';
import { describeWhen } from '@shared/scheduleWords';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { useUi } from '../../stores/uiStore';
import { Badge, Button, Callout, Card, CardHeader, EmptyState, IconButton, PageHeader } from '../../ui';
import { useChat } from '../chat/chatStore';
import { CliHint } from '../CliHint';
import { OutcomeBadge, RunHistory, when } from './RunHistory';
import { ScheduleEditor } from './ScheduleEditor';
import './schedules.css';
import { titleOf } from '../../shell/screens';

type Editing = { id: string | null; row?: ScheduleRow };

export function SchedulesScreen() {
  const trpc = useTRPC();
  const list = useQuery(trpc.schedules.list.queryOptions());
  const status = useQuery(trpc.schedules.status.queryOptions());
  const [editing, setEditing] = useState<Editing | null>(null);
  const create = () => setEditing({ id: null });
  return (
    <section aria-labelledby="schedules-title" data-testid="schedules">
      <PageHeader
        id="schedules-title"
        title={titleOf('schedules')}
        description="Prompts that run on their own, on a timetable, with only read-only tools and the ones you allow. Each run is a conversation you can open."
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={create}>
            New schedule
          </Button>
        }
      />
      {status.data && <OwnerNote status={status.data} />}
      <ErrorNote error={list.error ?? status.error} />
      {list.isSuccess && list.data.length === 0 ? (
        <EmptyState
          icon={<CalendarClock size={24} />}
          title="No schedules yet"
          cli='mooring schedule add "Morning summary" --cron "0 9 * * 1-5" --model openai:gpt-4o "Summarise what changed"'
          actions={
            <Button variant="primary" onClick={create}>
              Create a schedule
            </Button>
          }
        >
          <p>
            For example a summary of a project folder every weekday at nine. Nobody is there to approve a tool
            call, so a run uses read-only tools and the tools you allow; anything else is refused and
            reported.
          </p>
        </EmptyState>
      ) : (
        <ul className="plain list">
          {(list.data ?? []).map((row) => (
            <ScheduleCard
              key={row.schedule.id}
              row={row}
              onEdit={() => setEditing({ id: row.schedule.id, row })}
            />
          ))}
        </ul>
      )}
      {editing && (
        <ScheduleEditor
          key={editing.id ?? 'new'}
          id={editing.id}
          {...(editing.row ? { schedule: editing.row.schedule } : {})}
          onClose={() => setEditing(null)}
        />
      )}
      <CliHint commands={['mooring schedule list', 'mooring schedule run NAME']} />
    </section>
  );
}

function OwnerNote({ status }: { status: SchedulerStatus }) {
  if (status.mine) return null;
  if (status.owner)
    return (
      <Callout tone="info" role="status" testId="schedules-owner">
        Schedules run in {status.owner.kind} (process {status.owner.pid}
        {status.owner.host ? ` on ${status.owner.host}` : ''}), not in this window's Mooring. “Run now” runs
        here.
      </Callout>
    );
  return (
    <Callout tone="warning" role="status" title="No Mooring runs schedules now" testId="schedules-owner">
      Schedules run while the app, <code>mooring web</code> or <code>mooring serve</code> is open. A time
      missed meanwhile runs once at the next start, or is skipped, as each schedule says.
    </Callout>
  );
}

function ScheduleCard({ row, onEdit }: { row: ScheduleRow; onEdit: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const s = row.schedule;
  const [showHistory, setShowHistory] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.schedules.pathKey() });
  const runNow = useMutation(trpc.schedules.runNow.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.schedules.cancel.mutationOptions({ onSuccess: refresh }));
  const pause = useMutation(trpc.schedules.setPaused.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.schedules.remove.mutationOptions({ onSuccess: refresh }));
  const openConversation = (id: string) => {
    useChat.getState().select(id);
    useUi.getState().navigate('chat');
  };
  return (
    <li data-testid={`schedule-${s.name}`}>
      <Card>
        <CardHeader
          title={
            <span className="row-inline">
              {s.name}
              {s.paused && <Badge tone="warning">paused</Badge>}
              {row.running && (
                <Badge tone="accent" dot>
                  running
                </Badge>
              )}
              {!row.running && row.lastRun && <OutcomeBadge outcome={row.lastRun.outcome} />}
            </span>
          }
          sub={`${describeWhen(s.when)} · ${s.model}${s.toolSet ? ` · tool set ${s.toolSet}` : ''}`}
          actions={
            <>
              {row.running ? (
                <Button size="sm" icon={<Square size={14} />} onClick={() => cancel.mutate({ id: s.id })}>
                  Stop
                </Button>
              ) : (
                <Button
                  size="sm"
                  icon={<Play size={14} />}
                  loading={runNow.isPending}
                  onClick={() => runNow.mutate({ id: s.id })}
                >
                  Run now
                </Button>
              )}
              <IconButton
                size="sm"
                label={s.paused ? `Resume ${s.name}` : `Pause ${s.name}`}
                icon={s.paused ? <Play size={15} /> : <Pause size={15} />}
                onClick={() => pause.mutate({ id: s.id, paused: !s.paused })}
              />
              <IconButton
                size="sm"
                label={`History of ${s.name}`}
                icon={<History size={15} />}
                aria-expanded={showHistory}
                onClick={() => setShowHistory((v) => !v)}
              />
              <IconButton size="sm" label={`Edit ${s.name}`} icon={<Pencil size={15} />} onClick={onEdit} />
              <IconButton
                size="sm"
                label={`Remove ${s.name}`}
                icon={<Trash2 size={15} />}
                onClick={() => remove.mutate({ id: s.id })}
              />
            </>
          }
        />
        <p className="schedule-prompt">{s.prompt}</p>
        <p className="muted small" data-testid="schedule-next">
          {row.next.length
            ? `Next: ${row.next.slice(0, 3).map(when).join(' · ')}`
            : s.paused
              ? 'Paused: it runs again when you resume it.'
              : 'No more runs.'}
        </p>
        {row.lastRun && (
          <p className="muted small" data-testid="schedule-last">
            Last run {when(row.lastRun.startedAt)}: {row.lastRun.summary || row.lastRun.outcome}
            {row.lastRun.conversationId && (
              <>
                {' '}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => openConversation(row.lastRun!.conversationId!)}
                >
                  Open conversation
                </Button>
              </>
            )}
          </p>
        )}
        <ErrorNote error={runNow.error ?? cancel.error ?? pause.error ?? remove.error} />
        {showHistory && <RunHistory id={s.id} onOpen={openConversation} />}
      </Card>
    </li>
  );
}
