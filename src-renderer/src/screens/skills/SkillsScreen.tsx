// Skills: what each server that declares the Skills extension publishes (docs/skills.md), per server — each
// skill with its origin, its files and sizes, the `allowed-tools` it asks for, the skill it is nested in and
// the state of its approval — with View, Approve and Revoke. Names shared by two skills are shown with their
// server and path (the core labels them). Every name, description and file came from a server: text only.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BookOpenCheck, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { SkillServerView, SkillView } from '@shared/skills';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { titleOf } from '../../shell/screens';
import {
  Badge,
  Button,
  Callout,
  Card,
  CardHeader,
  EmptyState,
  PageHeader,
  TabPanel,
  Tabs,
  toast,
} from '../../ui';
import type { Tone } from '../../ui/Badge';
import { CliHint } from '../CliHint';
import { ApproveSkillDialog, ViewSkillDialog } from './SkillDialogs';
import './skills.css';

const STATE: Record<SkillView['approval']['state'], { word: string; tone: Tone }> = {
  none: { word: 'not approved', tone: 'neutral' },
  approved: { word: 'approved', tone: 'success' },
  changed: { word: 'changed: asks again', tone: 'danger' },
  dynamic: { word: 'dynamic: asks every time', tone: 'warning' },
};

function SkillCard(props: {
  skill: SkillView;
  onView: () => void;
  onApprove: () => void;
  onRevoke: () => void;
}) {
  const s = props.skill;
  const state = STATE[s.approval.state];
  const held = s.approval.state === 'approved' || s.approval.state === 'changed';
  return (
    <Card className="skill-card" data-testid={`skill-${s.server}-${s.name}`}>
      <CardHeader
        title={
          <>
            {s.label} <Badge tone={state.tone}>{state.word}</Badge>
          </>
        }
        sub={`${s.uri} · from ${s.server}`}
        actions={
          <>
            <Button size="sm" variant="ghost" onClick={props.onView} aria-label={`View skill ${s.label}`}>
              View
            </Button>
            {s.approval.state !== 'approved' && !s.dynamic && (
              <Button size="sm" onClick={props.onApprove} aria-label={`Approve skill ${s.label}`}>
                {s.approval.state === 'changed' ? 'Review changes' : 'Approve'}
              </Button>
            )}
            {held && (
              <Button
                size="sm"
                variant="danger"
                onClick={props.onRevoke}
                aria-label={`Revoke skill ${s.label}`}
              >
                Revoke
              </Button>
            )}
          </>
        }
      />
      <p className="skill-desc">{s.description}</p>
      <div className="meta">
        <span>
          {s.files
            ? `${s.files.length} file${s.files.length === 1 ? '' : 's'}, ${s.totalBytes} bytes`
            : 'no digests (dynamic)'}
        </span>
        {s.nestedIn && <span>nested in {s.nestedIn}</span>}
        {s.allowedTools.length > 0 && (
          <span>
            asks for allowed-tools {s.allowedTools.join(', ')} (
            {s.approval.toolsGranted ? 'granted' : 'not granted'})
          </span>
        )}
      </div>
    </Card>
  );
}

function ServerSkills({ view }: { view: SkillServerView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [viewing, setViewing] = useState<SkillView | null>(null);
  const [approving, setApproving] = useState<SkillView | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.skills.servers.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.permissions.list.queryKey() });
  };
  const revoke = useMutation(
    trpc.skills.revoke.mutationOptions({
      onSuccess: () => {
        refresh();
        toast({ tone: 'success', title: 'Skill approval revoked' });
      },
    }),
  );
  return (
    <div className="skills-list">
      {view.error && (
        <Callout tone="danger" title={`${view.server}: its skills could not be listed`}>
          {view.error}
        </Callout>
      )}
      {!view.error && view.skills.length === 0 && <p className="muted">{view.server} lists no skills.</p>}
      {view.skills.map((s) => (
        <SkillCard
          key={s.uri}
          skill={s}
          onView={() => setViewing(s)}
          onApprove={() => setApproving(s)}
          onRevoke={() => revoke.mutate({ server: s.server, uri: s.uri })}
        />
      ))}
      {view.invalid.map((bad) => (
        <Callout
          key={`${bad.uri}-${bad.reason}`}
          tone="warning"
          title={`Refused: ${bad.uri ?? 'an entry without a URI'}`}
        >
          {bad.reason}
        </Callout>
      ))}
      <ErrorNote error={revoke.error} />
      {viewing && <ViewSkillDialog skill={viewing} onClose={() => setViewing(null)} />}
      {approving && (
        <ApproveSkillDialog
          skill={approving}
          onClose={() => setApproving(null)}
          onApproved={() => {
            setApproving(null);
            refresh();
            toast({ tone: 'success', title: 'Skill approved' });
          }}
        />
      )}
    </div>
  );
}

export function SkillsScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const servers = useQuery({ ...trpc.skills.servers.queryOptions(), refetchOnMount: 'always' });
  const [tab, setTab] = useState('');
  const list = servers.data ?? [];
  useEffect(() => {
    if (list.length && !list.some((v) => v.server === tab)) setTab(list[0]!.server);
  }, [list, tab]);
  const again = () =>
    void qc.fetchQuery(trpc.skills.servers.queryOptions({ refresh: true })).then(() => servers.refetch());
  return (
    <section aria-labelledby="skills-title" data-testid="skills">
      <PageHeader
        id="skills-title"
        title={titleOf('skills')}
        description="Instructions servers publish for the model. Approve a skill to let the model load it; any change to its files asks you again."
        actions={
          <Button variant="secondary" icon={<RefreshCw size={14} />} onClick={again}>
            Refresh
          </Button>
        }
      />
      <ErrorNote error={servers.error} />
      {servers.isSuccess && list.length === 0 && (
        <EmptyState
          icon={<BookOpenCheck size={24} />}
          title="No server publishes skills"
          cli="mooring mcp skills NAME"
        >
          <p>Servers that declare the Skills extension list their skills here once they are running.</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <Tabs
          variant="side"
          label="Servers with skills"
          value={tab}
          onValueChange={setTab}
          items={list.map((v) => ({ value: v.server, label: `${v.server} (${v.skills.length})` }))}
        >
          {list.map((v) => (
            <TabPanel key={v.server} value={v.server}>
              <ServerSkills view={v} />
            </TabPanel>
          ))}
        </Tabs>
      )}
      <CliHint commands={['mooring mcp skills NAME', 'mooring mcp skill NAME URI [--file PATH]']} />
    </section>
  );
}
