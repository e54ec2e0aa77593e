// Browse servers (README, "Installing servers"): search the MCP registry (the official one, or the one
// MOORING_REGISTRY_URL / the registryUrl setting names), see how each entry runs, open one for its details
// and install it through the consent; or paste an install link (mooring://, Cursor, VS Code). Everything a
// registry says is shown escaped.
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Link2, PackageSearch, Search } from 'lucide-react';
import { useState } from 'react';
import type { InstallResult, RegistryServerSummary } from '@shared/registry';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { useUi } from '../../stores/uiStore';
import { Badge, Button, Callout, Card, CardHeader, EmptyState, PageHeader } from '../../ui';
import { CliHint } from '../CliHint';
import { InstallConsent } from './InstallConsent';
import { titleOf } from '../../shell/screens';

function ResultCard(props: { server: RegistryServerSummary; onOpen: () => void; busy: boolean }) {
  const s = props.server;
  return (
    <li data-testid="registry-result">
      <Card>
        <CardHeader
          title={shown(s.title ?? s.name)}
          sub={s.title ? `${shown(s.name)} · ${shown(s.version)}` : shown(s.version)}
          actions={
            <Button
              size="sm"
              onClick={props.onOpen}
              disabled={props.busy}
              aria-label={`Details of ${s.name}`}
            >
              Details
            </Button>
          }
        />
        {s.description && <p className="description registry-description">{shown(s.description)}</p>}
        <div className="meta registry-runs">
          <span>Runs:</span>{' '}
          {s.options.length ? (
            s.options.map((o, i) => (
              <span key={i}>
                {i > 0 && <span className="sr-only">; </span>}
                <Badge
                  tone={o.unsupported ? 'warning' : 'neutral'}
                  title={o.unsupported ? shown(o.unsupported) : undefined}
                >
                  {shown(o.label)}
                  {o.unsupported && ' (not installable)'}
                </Badge>
              </span>
            ))
          ) : (
            <span>nothing listed</span>
          )}
        </div>
      </Card>
    </li>
  );
}

export function BrowseScreen() {
  const trpc = useTRPC();
  const ui = useUi();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [link, setLink] = useState('');
  const [done, setDone] = useState<InstallResult | null>(null);
  const results = useInfiniteQuery(
    trpc.install.search.infiniteQueryOptions(
      { query },
      { getNextPageParam: (p) => p.nextCursor, retry: false },
    ),
  );
  const plan = useMutation(trpc.install.plan.mutationOptions());
  const pages = results.data?.pages ?? [];
  const servers = pages.flatMap((p) => p.servers);
  const skipped = pages.reduce((n, p) => n + p.skipped.length, 0);
  const registry = pages[0]?.registry;
  const open = (ref: string) => {
    setDone(null);
    plan.mutate({ ref });
  };

  return (
    <section aria-labelledby="browse-title" data-testid="browse" className="browse">
      <PageHeader
        id="browse-title"
        title={titleOf('browse')}
        description={
          <>
            Servers from the MCP registry{registry ? ` at ${shown(registry)}` : ''}. Installing shows what
            will run first; nothing runs until you say so.
          </>
        }
      />
      <div className="browse-bars">
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(typed.trim());
          }}
        >
          <div className="searchbox">
            <Search size={15} aria-hidden />
            <input
              type="search"
              aria-label="Search the registry"
              placeholder="Search the registry"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          <Button type="submit" variant="primary">
            Search
          </Button>
        </form>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            open(link.trim());
          }}
        >
          <div className="searchbox">
            <Link2 size={15} aria-hidden />
            <input
              aria-label="Install link"
              placeholder="…or paste an install link (mooring://, cursor://, vscode:)"
              value={link}
              onChange={(e) => setLink(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={!link.trim()} loading={plan.isPending && !!link.trim()}>
            Review link
          </Button>
        </form>
      </div>
      <ErrorNote error={results.error} testId="registry-error" />
      <ErrorNote error={plan.error} testId="plan-error" />
      {done && (
        <Callout
          tone="success"
          role="status"
          testId="install-done"
          title={`Installed ${done.name}`}
          actions={
            <>
              <Button size="sm" onClick={() => ui.navigate('servers')}>
                Open Servers
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setDone(null)}>
                Dismiss
              </Button>
            </>
          }
        >
          <code className="command-line">{shown(done.commandLine)}</code>
          {done.safeDefaults.message && (
            <p>
              {shown(done.safeDefaults.message)} (the default safe set): turn one on in Tools if you need it.
            </p>
          )}
          {done.secrets.length > 0 && <p>Kept in the keychain: {shown(done.secrets.join(', '))}.</p>}
        </Callout>
      )}
      {plan.data && (
        <InstallConsent
          key={plan.data.id}
          plan={plan.data}
          onFinished={(r) => {
            if (r) {
              setDone(r);
              setLink('');
              if (r.safeDefaults.disabledCount > 0) ui.notify({ servers: [r.name] });
            }
            plan.reset();
          }}
        />
      )}
      {results.isSuccess && servers.length === 0 ? (
        <EmptyState
          icon={<PackageSearch size={24} />}
          title="No servers found"
          cli={`mooring mcp search ${query || 'WORDS'}`}
        >
          <p>Try other words, or paste an install link above.</p>
        </EmptyState>
      ) : (
        <ul className="plain list" aria-label="Registry results">
          {servers.map((s) => (
            <ResultCard key={s.name} server={s} busy={plan.isPending} onOpen={() => open(s.name)} />
          ))}
        </ul>
      )}
      {results.hasNextPage && (
        <div className="browse-more">
          <Button loading={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()}>
            More servers
          </Button>
        </div>
      )}
      {skipped > 0 && <p className="muted">{skipped} entries were not valid and are not listed.</p>}
      <CliHint
        commands={['mooring mcp search WORDS', 'mooring mcp install NAME', 'mooring mcp install LINK']}
      />
    </section>
  );
}
