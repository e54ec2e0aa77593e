// Browse servers (README, "Installing servers"): search the MCP registry (the official one, or the one
// MOORING_REGISTRY_URL / the registryUrl setting names), see how each entry runs, open one for its details
// and install it through the consent; or paste an install link (mooring://, Cursor, VS Code). Everything a
// registry says is shown escaped.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { InstallResult, RegistryServerSummary } from '@shared/registry';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { InstallConsent } from './InstallConsent';

function ResultRow(props: { server: RegistryServerSummary; onOpen: () => void; busy: boolean }) {
  const s = props.server;
  return (
    <li className="consent-row" data-testid="registry-result">
      <div className="inline">
        <strong>{shown(s.title ?? s.name)}</strong> <span className="muted">{shown(s.version)}</span>
        <span className="spacer" />
        <button
          type="button"
          onClick={props.onOpen}
          disabled={props.busy}
          aria-label={`Details of ${s.name}`}
        >
          Details…
        </button>
      </div>
      <div className="muted">{shown(s.name)}</div>
      {s.description && <p className="description">{shown(s.description)}</p>}
      <div className="muted">
        Runs:{' '}
        {s.options.length
          ? s.options
              .map((o) => (o.unsupported ? `${shown(o.label)} (not installable)` : shown(o.label)))
              .join('; ')
          : 'nothing listed'}
      </div>
    </li>
  );
}

export function BrowseScreen() {
  const trpc = useTRPC();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [link, setLink] = useState('');
  const [done, setDone] = useState<InstallResult | null>(null);
  const results = useQuery(trpc.install.search.queryOptions({ query }, { retry: false }));
  const plan = useMutation(trpc.install.plan.mutationOptions());

  return (
    <div className="browse">
      <h2>Browse servers</h2>
      <p className="muted">
        Servers from the MCP registry{results.data ? ` at ${results.data.registry}` : ''}. Installing shows
        what will run first; nothing runs until you say so.
      </p>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(typed.trim());
        }}
      >
        <input
          type="search"
          aria-label="Search the registry"
          placeholder="Search the registry"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          plan.mutate({ ref: link.trim() });
        }}
      >
        <input
          aria-label="Install link"
          placeholder="…or paste an install link (mooring://, cursor://, vscode:)"
          value={link}
          onChange={(e) => setLink(e.target.value)}
        />
        <button type="submit" disabled={!link.trim() || plan.isPending}>
          Review link
        </button>
      </form>
      <ErrorNote error={results.error} testId="registry-error" />
      <ErrorNote error={plan.error} testId="plan-error" />
      {done && (
        <p className="ok-text" role="status" data-testid="install-done">
          Installed {done.name}: {shown(done.commandLine)}
        </p>
      )}
      {plan.data && !done && (
        <InstallConsent
          key={plan.data.id}
          plan={plan.data}
          onFinished={(r) => {
            setDone(r);
            plan.reset();
          }}
        />
      )}
      <ul className="plain" aria-label="Registry results">
        {results.data?.servers.map((s) => (
          <ResultRow
            key={s.name}
            server={s}
            busy={plan.isPending}
            onOpen={() => {
              setDone(null);
              plan.mutate({ ref: s.name });
            }}
          />
        ))}
      </ul>
      {results.data && results.data.servers.length === 0 && <p className="muted">No servers found.</p>}
      {results.data && results.data.skipped.length > 0 && (
        <p className="muted">{results.data.skipped.length} entries were not valid and are not listed.</p>
      )}
    </div>
  );
}
