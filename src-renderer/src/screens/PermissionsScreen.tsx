// Permissions: everything you allowed once and for all, in one place, with when you gave it and what it is
// pinned to — "always allow" per tool, servers that run tools without asking, "allow for this conversation"
// (until Mooring restarts), approved project-folder servers, sign-ins — and Revoke for each, or all.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Revocation } from '@shared/permissions';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Badge, Button, Dialog, EmptyState, PageHeader, toast } from '../ui';
import { CliHint } from './CliHint';
import { titleOf } from '../shell/screens';

const when = (at: number | undefined) => (at ? new Date(at).toLocaleString() : 'unknown');
const shortPin = (pin: string) => (pin.startsWith('sha256:') ? `${pin.slice(7, 19)}…` : pin);

function Row(props: {
  title: ReactNode;
  meta: ReactNode;
  pin?: string;
  label: string;
  onRevoke: () => void;
  busy: boolean;
  testId?: string;
}) {
  return (
    <li className="perm-row" data-testid={props.testId}>
      <div className="perm-main">
        <div className="perm-title">{props.title}</div>
        <div className="meta">{props.meta}</div>
        {props.pin && (
          <div className="perm-pin" title={props.pin}>
            pinned to {shortPin(props.pin)}
          </div>
        )}
      </div>
      <Button
        size="sm"
        variant="danger"
        aria-label={props.label}
        disabled={props.busy}
        onClick={props.onRevoke}
      >
        Revoke
      </Button>
    </li>
  );
}

function Section({
  title,
  hint,
  children,
  count,
}: {
  title: string;
  hint: string;
  children: ReactNode;
  count: number;
}) {
  if (count === 0) return null;
  return (
    <section className="perm-section" aria-label={title}>
      <h2 className="section-title">
        {title} <Badge>{count}</Badge>
      </h2>
      <p className="muted small">{hint}</p>
      <ul className="plain perm-list">{children}</ul>
    </section>
  );
}

export function PermissionsScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  // Grants change from the chat and from other processes with no event of their own: what this screen
  // shows is read fresh each time it opens, never a copy from a visit a moment ago.
  const list = useQuery({ ...trpc.permissions.list.queryOptions(), refetchOnMount: 'always' });
  const [confirmAll, setConfirmAll] = useState(false);
  const revoke = useMutation(
    trpc.permissions.revoke.mutationOptions({
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.permissions.list.queryKey() });
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
        toast({ tone: 'success', title: r.revoked === 1 ? 'Revoked' : `Revoked ${r.revoked} permissions` });
      },
    }),
  );
  const go = (r: Revocation) => revoke.mutate(r);
  const v = list.data;
  const total = v
    ? v.tools.length +
      v.flows.length +
      v.servers.length +
      v.conversations.length +
      v.workspaces.length +
      v.signIns.length +
      v.skills.length
    : 0;
  const busy = revoke.isPending;
  return (
    <section aria-labelledby="permissions-title" data-testid="permissions">
      <PageHeader
        id="permissions-title"
        title={titleOf('permissions')}
        description="What you allowed to run without asking, and the sign-ins Mooring holds. Revoke one, and the next call asks you again."
        actions={
          total > 0 && (
            <Button variant="danger" onClick={() => setConfirmAll(true)}>
              Revoke all
            </Button>
          )
        }
      />
      <ErrorNote error={list.error ?? revoke.error} />
      {v && total === 0 && (
        <EmptyState
          icon={<ShieldCheck size={24} />}
          title="Nothing allowed for good"
          testId="permissions-empty"
        >
          <p>
            When a tool asks for approval, “Always allow” and “Allow for this conversation” show up here, with
            the project-folder servers you approved and the servers you signed in to. Until then, every call
            that may change something asks you first.
          </p>
        </EmptyState>
      )}
      {v && (
        <>
          <Section
            title="Always allowed tools"
            count={v.tools.length}
            hint="Pinned to the tool as it was: if its server changes its description or schema, it asks again."
          >
            {v.tools.map((t) => (
              <Row
                key={`${t.server}/${t.tool}`}
                testId={`perm-tool-${t.server}-${t.tool}`}
                title={
                  <>
                    {t.tool} <span className="muted">on {t.server}</span>
                  </>
                }
                meta={
                  <span>
                    allowed {when(t.at)} by {t.decidedBy}
                  </span>
                }
                pin={t.fingerprint}
                label={`Revoke always allow for ${t.tool} on ${t.server}`}
                busy={busy}
                onRevoke={() => go({ kind: 'tool', server: t.server, tool: t.tool })}
              />
            ))}
          </Section>
          <Section
            title="Servers that run tools without asking"
            count={v.servers.length}
            hint="Set by the server's approval policy. Revoking sets it back to asking before tools that may change things."
          >
            {v.servers.map((s) => (
              <Row
                key={s.server}
                title={s.server}
                meta={
                  <span>
                    {s.policy === 'trust-all'
                      ? 'every tool runs without asking'
                      : 'read-only tools run without asking'}
                  </span>
                }
                label={`Revoke the policy of ${s.server}`}
                busy={busy}
                onRevoke={() => go({ kind: 'server', server: s.server })}
              />
            ))}
          </Section>
          <Section
            title="Data may flow between servers"
            count={v.flows.length}
            hint="What a conversation read from the first server may go to the second's tools without asking about the flow (docs/trust.md)."
          >
            {v.flows.map((f) => (
              <Row
                key={`${f.from}→${f.to}`}
                testId="perm-flow"
                title={
                  <>
                    {f.from === '*' ? 'any server' : f.from} → {f.to}
                  </>
                }
                meta={<span>allowed {when(f.allowedAt)}</span>}
                label={`Revoke the flow from ${f.from} to ${f.to}`}
                busy={busy}
                onRevoke={() => go({ kind: 'flow', from: f.from, to: f.to })}
              />
            ))}
          </Section>
          <Section
            title="Allowed for a conversation"
            count={v.conversations.length}
            hint="Only in that conversation, and only until Mooring restarts."
          >
            {v.conversations.map((c) => (
              <Row
                key={`${c.conversationId}/${c.server}/${c.tool}`}
                title={
                  <>
                    {c.tool} <span className="muted">on {c.server}</span>
                  </>
                }
                meta={
                  <span>
                    conversation {c.conversationId.slice(0, 8)} · allowed {when(c.at)}
                  </span>
                }
                pin={c.fingerprint}
                label={`Revoke ${c.tool} for conversation ${c.conversationId.slice(0, 8)}`}
                busy={busy}
                onRevoke={() =>
                  go({
                    kind: 'conversation',
                    conversationId: c.conversationId,
                    server: c.server,
                    tool: c.tool,
                  })
                }
              />
            ))}
          </Section>
          <Section
            title="Approved project-folder servers"
            count={v.workspaces.length}
            hint="Pinned to the entry's content: an edited entry asks again."
          >
            {v.workspaces.map((w) => (
              <Row
                key={`${w.workspace}/${w.source}/${w.name}`}
                title={
                  <>
                    {w.name} <span className="muted">from {w.source}</span>
                  </>
                }
                meta={
                  <>
                    <span>{w.workspace}</span>
                    <span>approved {when(w.approvedAt)}</span>
                    {w.heldBackAllowed && (
                      <span className="warn-text">
                        with what the file asks beyond an import (trust, policy…)
                      </span>
                    )}
                    <code>{w.commandLine}</code>
                  </>
                }
                pin={w.pin}
                label={`Revoke the approval of ${w.name} in ${w.workspace}`}
                busy={busy}
                onRevoke={() =>
                  go({ kind: 'workspace', workspace: w.workspace, source: w.source, name: w.name })
                }
              />
            ))}
          </Section>
          <Section
            title="Sign-ins"
            count={v.signIns.length}
            hint="Tokens are in the OS keychain. Revoking signs out and forgets them."
          >
            {v.signIns.map((s) => (
              <Row
                key={s.server}
                title={s.server}
                meta={
                  <>
                    <span>{s.resource}</span>
                    {s.scope && <span>scope {s.scope}</span>}
                    <span>signed in {when(s.savedAt)}</span>
                    {s.expiresAt && <span>expires {when(s.expiresAt)}</span>}
                  </>
                }
                pin={s.issuer ? `issuer ${s.issuer}` : undefined}
                label={`Sign out of ${s.server}`}
                busy={busy}
                onRevoke={() => go({ kind: 'signIn', server: s.server })}
              />
            ))}
          </Section>
          <Section
            title="Approved skills"
            count={v.skills.length}
            hint="Bound to every file of the skill as approved: if the server changes one, loading it asks again."
          >
            {v.skills.map((s) => (
              <Row
                key={`${s.server} ${s.uri}`}
                testId={`perm-skill-${s.server}-${s.name}`}
                title={
                  <>
                    {s.name} <span className="muted">from {s.server}</span>
                  </>
                }
                meta={
                  <>
                    <span>{s.uri}</span>
                    <span>
                      {s.files} file{s.files === 1 ? '' : 's'}
                    </span>
                    {s.toolsGranted && <span>allowed-tools granted</span>}
                    <span>approved {when(s.at)}</span>
                  </>
                }
                label={`Revoke skill ${s.name} from ${s.server}`}
                busy={busy}
                onRevoke={() => go({ kind: 'skill', server: s.server, uri: s.uri })}
              />
            ))}
          </Section>
        </>
      )}
      <Dialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Revoke every permission?"
        description="Every tool asks again, trusted servers go back to asking, approved folder servers stop, and every sign-in is forgotten."
        size="sm"
        footer={
          <>
            <Button onClick={() => setConfirmAll(false)}>Cancel</Button>
            <Button
              variant="danger"
              loading={busy}
              onClick={() => {
                go({ kind: 'all' });
                setConfirmAll(false);
              }}
            >
              Revoke all
            </Button>
          </>
        }
      />
      <CliHint commands={['mooring mcp logout NAME']} />
    </section>
  );
}
