// A server's confinement on its card (docs/confinement.md): whether it runs confined, what it may write and
// reach, how many accesses were refused; the panel lists each refusal with its one-click answer ("Allow this
// path", "Allow this domain") and, where confinement cannot run here, why and the choice to run it unconfined.
// And the managed policy's banner: what is managed, and by whom. Paths and hosts come from the confined
// process: shown as text.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Shield, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import type { SandboxViolation } from '@shared/confinement';
import type { ServerRow } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Badge, Button, Callout } from '../ui';

export function ConfinementLine({ row }: { row: ServerRow }) {
  const [open, setOpen] = useState(false);
  const c = row.confinement;
  if (!c || c.state === 'remote') return null;
  const badge =
    c.state === 'confined' ? (
      <Badge tone="success" icon={<Shield size={12} aria-hidden />}>
        confined
      </Badge>
    ) : c.state === 'unavailable' ? (
      <Badge tone="danger" icon={<ShieldOff size={12} aria-hidden />}>
        cannot run confined here
      </Badge>
    ) : (
      <Badge tone="warning" icon={<ShieldOff size={12} aria-hidden />}>
        unconfined
      </Badge>
    );
  return (
    <div className="confinement" data-testid={`confinement-${row.config.name}`}>
      <div className="confinement-line">
        {badge}
        <span className="confinement-summary">{c.summary}</span>
        {(c.violations > 0 || c.state === 'unavailable' || row.config.sandboxEnabled) && (
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
            {c.violations > 0 ? `${c.violations} refused` : 'Details'}
          </Button>
        )}
      </div>
      {open && <ConfinementPanel name={row.config.name} />}
    </div>
  );
}

function ConfinementPanel({ name }: { name: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const shown = useQuery(trpc.confinement.show.queryOptions({ name }));
  const settle = () => {
    void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.confinement.show.queryKey({ name }) });
  };
  const allow = useMutation(trpc.confinement.allow.mutationOptions({ onSuccess: settle }));
  const unconfinedHere = useMutation(
    trpc.confinement.runUnconfinedHere.mutationOptions({ onSuccess: settle }),
  );
  const s = shown.data;
  if (!s) return <ErrorNote error={shown.error} />;
  return (
    <div className="confinement-panel" aria-label={`Confinement of ${name}`}>
      {s.view.state === 'unavailable' && (
        <Callout
          tone="danger"
          title="It does not start: confinement cannot run here"
          actions={
            !s.view.required && (
              <Button size="sm" onClick={() => unconfinedHere.mutate({ name, on: true })}>
                Run it unconfined on this machine
              </Button>
            )
          }
        >
          <p>{s.view.reason}</p>
          <p>{s.view.hint}</p>
        </Callout>
      )}
      {s.sandboxEnabled && !s.view.observesFiles && s.view.state === 'confined' && (
        <p className="muted">Refused file accesses are not observed here: install strace to see them.</p>
      )}
      {s.violations.length === 0 ? (
        <p className="muted">Nothing refused so far.</p>
      ) : (
        <ul className="plain violations">
          {s.violations.map((v) => (
            <ViolationItem
              key={`${v.kind}:${v.target}:${v.operation}`}
              v={v}
              busy={allow.isPending}
              onAllow={(change) => allow.mutate({ name, ...change })}
            />
          ))}
        </ul>
      )}
      <ErrorNote error={allow.error ?? unconfinedHere.error} />
    </div>
  );
}

function ViolationItem(props: {
  v: SandboxViolation;
  busy: boolean;
  onAllow: (change: { write?: string[]; domain?: string[] }) => void;
}) {
  const { v } = props;
  return (
    <li className="violation" data-testid="violation">
      <span className="violation-what">
        {v.kind === 'network' ? 'network' : v.kind}: {v.operation} <code>{v.target}</code>
        {v.count > 1 ? ` (${v.count} times)` : ''}
      </span>
      {v.allow?.write ? (
        <Button size="sm" disabled={props.busy} onClick={() => props.onAllow({ write: [v.allow!.write!] })}>
          Allow this path
        </Button>
      ) : v.allow?.domain ? (
        <Button size="sm" disabled={props.busy} onClick={() => props.onAllow({ domain: [v.allow!.domain!] })}>
          Allow this domain
        </Button>
      ) : (
        <span className="muted">{v.noAllowReason}</span>
      )}
    </li>
  );
}

/** What the managed policy decides on this machine, and who manages it. */
export function ManagedPolicyBanner() {
  const trpc = useTRPC();
  const policy = useQuery(trpc.confinement.policy.queryOptions());
  const p = policy.data;
  if (!p?.active) return null;
  return (
    <Callout
      tone={p.error ? 'danger' : 'info'}
      testId="managed-policy"
      title={`Managed by ${p.managedBy ?? 'your organisation'}`}
    >
      {p.error ? (
        <p>
          The policy at <code>{p.file}</code> cannot be used: {p.error}. Nothing is added or started until it
          is fixed.
        </p>
      ) : (
        <ul className="managed-rules">
          {p.rules.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
    </Callout>
  );
}
