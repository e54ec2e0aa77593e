// Resources: what each server offers to read (MCP 2025-11-25 "Resources"), per server. Its resources, read
// into a viewer (text, an image, or bytes to save); subscriptions where the server offers them, with a
// live badge that counts its updates (the viewer reads the resource again on each); templates, whose
// variables are filled in with the server's completions (MCP 2025-11-25 "Completion"). Every name, URI
// and content came from a server and is rendered as text; images are shown from blob: URLs only.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing, Download, FileText, FolderOpen } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type {
  ResourceContentView,
  ResourceServerView,
  ResourceTemplateView,
  ResourceView,
} from '@shared/resources';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { missingVariables, TemplateFields } from '../components/TemplateFields';
import { blobUrl } from '../lib/media';
import { updateKey, useResourceUpdates } from '../stores/resourceUpdates';
import { Badge, Button, Card, CardHeader, CodeBlock, EmptyState, PageHeader } from '../ui';
import { CliHint } from './CliHint';
import { ServerTabs } from './ServerTabs';
import './resources.css';
import { titleOf } from '../shell/screens';

/** What the viewer shows: the URI that was read (a template's expanded one) and what came back. */
interface Viewed {
  uri: string;
  contents: ResourceContentView[];
}

export function ResourcesScreen() {
  return (
    <section aria-labelledby="resources-title">
      <PageHeader
        id="resources-title"
        title={titleOf('resources')}
        description="What each server offers to read: files, records, documents. Read one, follow its changes, or fill in a template."
      />
      <ServerTabs
        empty={
          <EmptyState
            icon={<FolderOpen size={24} />}
            title="No servers, so no resources"
            cli="mooring mcp add"
          >
            <p>Each server's resources appear here once it is added and running.</p>
          </EmptyState>
        }
      >
        {(server) => <ServerResources server={server} />}
      </ServerTabs>
      <CliHint commands={['mooring mcp resources NAME', 'mooring mcp read NAME URI']} />
    </section>
  );
}

function ServerResources({ server }: { server: string }) {
  const trpc = useTRPC();
  const offers = useQuery(trpc.resources.servers.queryOptions());
  const caps = offers.data?.find((s) => s.server === server);
  const enabled = caps?.resources === true;
  const list = useQuery({ ...trpc.resources.list.queryOptions({ server }), enabled });
  const templates = useQuery({ ...trpc.resources.templates.queryOptions({ server }), enabled });
  const [viewed, setViewed] = useState<Viewed | null>(null);
  useEffect(() => setViewed(null), [server]);

  if (offers.isSuccess && !caps)
    return (
      <EmptyState icon={<FolderOpen size={24} />} title={`${server} is not running`}>
        <p>Its resources are listed once it is connected (see Servers).</p>
      </EmptyState>
    );
  if (caps && !caps.resources)
    return (
      <EmptyState icon={<FolderOpen size={24} />} title={`${server} offers no resources`}>
        <p>This server does not declare the resources capability.</p>
      </EmptyState>
    );
  return (
    <div className="resources-layout" data-testid="resources-view">
      <div className="stack-md">
        <ErrorNote error={offers.error ?? list.error ?? templates.error} />
        <section aria-label="Resources" className="stack-sm">
          <h2 className="section-title">Resources</h2>
          {list.isSuccess && list.data.length === 0 && <p className="muted">No resources listed.</p>}
          <ul className="resource-list">
            {(list.data ?? []).map((r) => (
              <ResourceRow
                key={r.uri}
                server={server}
                resource={r}
                caps={caps}
                viewing={viewed?.uri === r.uri}
                onRead={setViewed}
              />
            ))}
          </ul>
        </section>
        {(templates.data?.length ?? 0) > 0 && (
          <section aria-label="Templates" className="stack-sm">
            <h2 className="section-title">Templates</h2>
            {templates.data!.map((t) => (
              <TemplateForm key={t.uriTemplate} server={server} template={t} onRead={setViewed} />
            ))}
          </section>
        )}
      </div>
      <ResourceViewer server={server} viewed={viewed} onRead={setViewed} />
    </div>
  );
}

function ResourceRow(props: {
  server: string;
  resource: ResourceView;
  caps: ResourceServerView | undefined;
  viewing: boolean;
  onRead: (v: Viewed) => void;
}) {
  const { server, resource: r } = props;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const subscribed = props.caps?.subscribed.includes(r.uri) ?? false;
  const updates = useResourceUpdates((s) => s.counts[updateKey(server, r.uri)] ?? 0);
  const read = useMutation(
    trpc.resources.read.mutationOptions({ onSuccess: (contents) => props.onRead({ uri: r.uri, contents }) }),
  );
  const refreshOffers = () => void qc.invalidateQueries({ queryKey: trpc.resources.servers.queryKey() });
  const subscribe = useMutation(trpc.resources.subscribe.mutationOptions({ onSuccess: refreshOffers }));
  const unsubscribe = useMutation(trpc.resources.unsubscribe.mutationOptions({ onSuccess: refreshOffers }));
  const label = r.title ?? r.name;
  return (
    <li className={props.viewing ? 'resource-row viewing' : 'resource-row'} data-testid="resource-row">
      <div className="resource-text">
        <span className="resource-name">{label}</span>
        <code className="resource-uri">{r.uri}</code>
        {r.description && <span className="muted small">{r.description}</span>}
      </div>
      <div className="resource-actions">
        {r.mimeType && <Badge>{r.mimeType}</Badge>}
        {subscribed && (
          <Badge tone={updates ? 'accent' : 'neutral'} icon={<BellRing size={12} />}>
            {updates ? `Updated ${updates}×` : 'Following'}
          </Badge>
        )}
        {props.caps?.subscribe && (
          <Button
            size="sm"
            variant="ghost"
            loading={subscribe.isPending || unsubscribe.isPending}
            aria-label={`${subscribed ? 'Stop following' : 'Follow'} ${label}`}
            onClick={() => (subscribed ? unsubscribe : subscribe).mutate({ server, uri: r.uri })}
          >
            {subscribed ? 'Stop following' : 'Follow'}
          </Button>
        )}
        <Button
          size="sm"
          icon={<FileText size={14} />}
          loading={read.isPending}
          aria-label={`Read ${label}`}
          onClick={() => read.mutate({ server, uri: r.uri })}
        >
          Read
        </Button>
      </div>
      <ErrorNote error={read.error ?? subscribe.error ?? unsubscribe.error} />
    </li>
  );
}

function TemplateForm(props: {
  server: string;
  template: ResourceTemplateView;
  onRead: (v: Viewed) => void;
}) {
  const { server, template: t } = props;
  const trpc = useTRPC();
  const [values, setValues] = useState<Record<string, string>>({});
  const read = useMutation(trpc.resources.readTemplate.mutationOptions({ onSuccess: props.onRead }));
  const missing = missingVariables(t, values);
  return (
    <Card data-testid="template-form">
      <form
        className="stack-sm"
        aria-label={`Template ${t.title ?? t.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (!missing.length) read.mutate({ server, uriTemplate: t.uriTemplate, variables: values });
        }}
      >
        <CardHeader title={t.title ?? t.name} sub={<code className="resource-uri">{t.uriTemplate}</code>} />
        {t.description && <p className="muted small">{t.description}</p>}
        <div className="template-fields">
          <TemplateFields server={server} template={t} values={values} onChange={setValues} />
          <Button type="submit" size="sm" loading={read.isPending} disabled={missing.length > 0}>
            Read
          </Button>
        </div>
        <ErrorNote error={read.error} />
      </form>
    </Card>
  );
}

function ResourceViewer(props: { server: string; viewed: Viewed | null; onRead: (v: Viewed) => void }) {
  const { server, viewed, onRead } = props;
  const trpc = useTRPC();
  const updates = useResourceUpdates((s) => (viewed ? (s.counts[updateKey(server, viewed.uri)] ?? 0) : 0));
  const reread = useMutation(trpc.resources.read.mutationOptions());
  // Below 1100 px the viewer sits under the list, out of sight: bring what Read returned into view, or
  // pressing Read looks like it did nothing. A re-read on an update leaves the scroll where the person is.
  const box = useRef<HTMLDivElement>(null);
  const fromUpdate = useRef(false);
  useEffect(() => {
    if (viewed && !fromUpdate.current) box.current?.scrollIntoView?.({ block: 'nearest' });
    fromUpdate.current = false;
  }, [viewed]);
  // A change to the resource on view: read it again, so the viewer shows what the server has now.
  useEffect(() => {
    if (!viewed || updates === 0) return;
    reread.mutate(
      { server, uri: viewed.uri },
      {
        onSuccess: (contents) => {
          fromUpdate.current = true;
          onRead({ uri: viewed.uri, contents });
        },
      },
    );
    // Only a new update reads again; `viewed` changing is the read that just happened.
  }, [updates]);
  if (!viewed)
    return (
      <Card className="resource-viewer" data-testid="resource-viewer">
        <p className="muted">Choose Read on a resource or a template to see its contents here.</p>
      </Card>
    );
  return (
    <div ref={box}>
      <Card
        className="resource-viewer"
        data-testid="resource-viewer"
        aria-label={`Contents of ${viewed.uri}`}
      >
        <CardHeader title="Contents" sub={<code className="resource-uri">{viewed.uri}</code>} />
        <ErrorNote error={reread.error} />
        {viewed.contents.length === 0 && <p className="muted">The server returned no contents.</p>}
        {viewed.contents.map((c, i) => (
          <ContentItem
            key={`${viewed.uri}-${i}-${updates}`}
            content={c}
            index={i}
            many={viewed.contents.length > 1}
          />
        ))}
      </Card>
    </div>
  );
}

function ContentItem({
  content: c,
  index,
  many,
}: {
  content: ResourceContentView;
  index: number;
  many: boolean;
}) {
  const image = c.kind === 'blob' && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType ?? '');
  // Bytes become a blob: URL (the CSP allows blob: images), released when the item goes.
  const url = useMemo(
    () => (c.kind === 'blob' ? blobUrl(c.base64, c.mimeType ?? 'application/octet-stream') : null),
    [c],
  );
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return (
    <div className="stack-sm resource-content">
      {many && (
        <p className="muted small">
          {c.uri}
          {c.mimeType ? ` (${c.mimeType})` : ''}
        </p>
      )}
      {c.kind === 'text' && (
        <CodeBlock code={c.text} label="contents" wrap maxHeight={480} testId="resource-text" />
      )}
      {c.kind === 'blob' && image && url && (
        <img className="resource-image" src={url} alt={`Image contents of ${c.uri}`} />
      )}
      {c.kind === 'blob' && (
        <p className="resource-binary">
          <span>
            {c.mimeType ?? 'binary'}, {c.size.toLocaleString()} bytes
          </span>
          {url && (
            <a className="btn btn-secondary btn-sm" href={url} download={`resource-${index + 1}`}>
              <Download size={14} aria-hidden /> Save
            </a>
          )}
        </p>
      )}
    </div>
  );
}
