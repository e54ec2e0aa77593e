// MCP Apps, the host side (extension io.modelcontextprotocol/ui, spec 2026-01-26; docs/mcp-apps.md, "MCP
// Apps"): which tools have a view, the view's resource read through the server's own session (cached per
// conversation, dropped when the server says it was updated), its CSP and permissions, and everything a
// view may ask of the host. Views call tools through the one gated path (calls/toolService.ts), labelled as
// coming from the app; they never reach another server's tools or resources. The routers are doors to this.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import {
  APP_CLIENT_PREFIX,
  UI_MIME_TYPE,
  VIEW_PERMISSIONS,
  type ViewPermission,
  type WireAppView,
} from '@shared/appViews';
import { toCallToolResult } from './viewCallResult';
import { DisposableStore, listen, type Disposable } from '../disposable';
import { MooringError } from '../errors';
import type { ToolService } from '../calls/toolService';
import type { InteractionBroker } from '../clientFeatures/interactionBroker';
import { readResource } from '../clientFeatures/resources';
import type { ResourceSubscriptions } from '../clientFeatures/resources';
import type { SessionActor } from '../mcp/sessionActor';
import type { SessionPool } from '../mcp/sessionPool';
import { buildViewCsp, injectCsp, type DeclaredCsp } from './viewCsp';
import { ViewCallTickets } from './viewCallTickets';
import { openLinkForView } from './viewOpenLink';
import { ViewToolGrants, type ViewToolAnswer } from './viewToolGrants';
import { isAppOnly, uiResourceUriOf, visibleToApp } from '../catalog/toolVisibility';
import { isLocalTransport } from '@shared/transports';

/** Where views are framed, set by the host that serves the sandbox pages. */
export interface SandboxHost {
  /** The origin a view's page has (browser mode: one for all; the desktop shell: one per view). */
  originOf: (viewId: string) => string;
  /** The sandbox page of one view. */
  pageUrl: (viewId: string) => string;
}

/** What the sandbox server needs to serve one view's page. */
export interface RegisteredView {
  view: WireAppView;
  conversationId: string | undefined;
  /** The conversation's project folder (canonical) when its server came from there, or may have. */
  workspace: string | undefined;
  /** Who may frame the page (the app's origin). */
  frameAncestor: string;
}

export interface AppViewsDeps {
  tools: ToolService;
  pool: SessionPool;
  /**
   * The project folder of a conversation, canonical, its approved servers started (the workspaces
   * service's `ensure`): a view of a folder's server is read, and calls, through that folder's session.
   */
  workspaceOf?: (conversationId: string) => Promise<string | undefined>;
  /** A folder's own session of a server (an approved project server), when it has one. */
  folderSession?: (workspace: string, server: string) => SessionActor | undefined;
  resources: ResourceSubscriptions;
  interactions: InteractionBroker;
  openExternal?: (url: string) => Promise<void>;
  /** Starts a turn with a message the view sent, labelled as from the app (the chat service). */
  sendMessage: (input: {
    conversationId: string;
    text: string;
    app: { server: string; tool: string };
  }) => Promise<void>;
}

export interface AppViewsEvents {
  /** A view's resource changed on its server: open views of it load it again. */
  updated: [{ server: string; uri: string }];
}

/** Views kept registered for the sandbox at once; the oldest goes first. */
const MAX_VIEWS = 200;
/** The extension's permission names → the iframe `allow` feature names. */
const ALLOW_FEATURE: Record<ViewPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

export class AppViews extends EventEmitter<AppViewsEvents> implements Disposable {
  private sandbox: SandboxHost | undefined;
  private appOrigin = '';
  /** Resource reads per conversation (or the playground), server and uri. */
  private readonly cache = new Map<string, Promise<ReadResourceResult>>();
  private readonly views = new Map<string, RegisteredView>();
  /** Permissions the user allowed, per server, for this process. */
  private readonly granted = new Map<string, Set<ViewPermission>>();
  /** The latest context each view gave the model (`ui/update-model-context`), per conversation. */
  private readonly contexts = new Map<string, Map<string, string>>();
  /** What it follows of the resource subscriptions, ended on `dispose`. */
  private readonly following = new DisposableStore();

  constructor(private readonly deps: AppViewsDeps) {
    super();
    // The extension says nothing of a view whose resource changes (docs/decisions/005-app-view-updates.md):
    // an update of a `ui://` resource drops its reads and open views load it again (the renderer tears the
    // old one down first, as the spec's cleanup asks); a changed list only drops the server's reads, so
    // views opened from then on read afresh while open ones stay as they are.
    this.following.add(
      listen(deps.resources, 'updated', ({ server, uri }) => {
        if (!uri.startsWith('ui://')) return;
        this.dropReads((key) => key.endsWith(`\n${server}\n${uri}`));
        this.emit('updated', { server, uri });
      }),
    );
    this.following.add(
      listen(deps.resources, 'listChanged', ({ server, what }) => {
        if (what === 'resources') this.dropReads((key) => key.split('\n')[2] === server);
      }),
    );
  }

  /** Stops following the servers' resources (the core closes). */
  dispose(): Promise<void> {
    return this.following.dispose();
  }

  private dropReads(match: (key: string) => boolean): void {
    for (const key of [...this.cache.keys()]) if (match(key)) this.cache.delete(key);
  }

  /** The host that serves the sandbox origin says where it is, and which origin may frame it. */
  setSandbox(host: SandboxHost, appOrigin: string): void {
    this.sandbox = host;
    this.appOrigin = appOrigin;
  }

  get available(): boolean {
    return this.sandbox !== undefined;
  }

  /** The `ui://` resource a server's tool names for its view, when it names one. */
  viewUriOf(server: string, tool: string, workspace?: string): string | undefined {
    const entry = this.entryOf(server, tool, workspace);
    return entry ? uiResourceUriOf(entry.handle.definition) : undefined;
  }

  /**
   * A tool as a conversation in `workspace` sees it: the folder's catalog holds its approved servers
   * (overriding global ones of the same name); a folder server not approved has no session, so none of
   * its tools, and no view (docs/mcp-apps.md, "MCP Apps").
   */
  private entryOf(server: string, tool: string, workspace: string | undefined) {
    return this.deps.tools
      .catalog(workspace ? { workspace } : {})
      .entries.find((e) => e.server === server && e.tool === tool && !e.handle.removed);
  }

  private actorOf(server: string, workspace: string | undefined): SessionActor | undefined {
    return (
      (workspace ? this.deps.folderSession?.(workspace, server) : undefined) ?? this.deps.pool.get(server)
    );
  }

  /** Reads the view of a tool's result and registers it with the sandbox; undefined when the tool has none. */
  async open(input: {
    server: string;
    tool: string;
    conversationId?: string;
  }): Promise<WireAppView | undefined> {
    const workspace = input.conversationId ? await this.deps.workspaceOf?.(input.conversationId) : undefined;
    const uri = this.viewUriOf(input.server, input.tool, workspace);
    if (!uri) return undefined;
    const sandbox = this.sandbox;
    if (!sandbox)
      throw new MooringError(
        'usage',
        'This host cannot show MCP App views.',
        'The text result is shown instead.',
      );
    const actor = this.actorOf(input.server, workspace);
    if (!actor)
      throw new MooringError('not_found', `No server "${input.server}".`, 'It may have been removed.');
    // The folder is part of the key: a folder's server may share its name with a global one.
    const key = `${input.conversationId ?? 'playground'}\n${workspace ?? ''}\n${input.server}\n${uri}`;
    let read = this.cache.get(key);
    if (!read) {
      read = readResource(actor, uri);
      this.cache.set(key, read);
      read.catch(() => this.cache.delete(key));
      // A server that offers subscriptions says when the view changed (`resources/updated`, spec
      // "Resources: Subscriptions"); the subscription is renewed on reconnect like the user's own.
      if (
        actor.requests.capabilities()?.resources?.subscribe &&
        !this.deps.resources.subscriptions(input.server).includes(uri)
      )
        void this.deps.resources.subscribe(actor, uri).catch(() => undefined);
    }
    const content = (await read).contents.find((c) => c.uri === uri) ?? (await read).contents[0];
    if (!content || !('text' in content) || typeof content.text !== 'string')
      throw new MooringError(
        'protocol_error',
        `${input.server} sent no HTML for ${uri}.`,
        'The text result is shown instead.',
      );
    if (content.mimeType && content.mimeType !== UI_MIME_TYPE)
      throw new MooringError(
        'protocol_error',
        `${input.server} sent ${uri} as ${content.mimeType}, not ${UI_MIME_TYPE}.`,
        'The text result is shown instead.',
      );
    const ui = ((content._meta as { ui?: Record<string, unknown> } | undefined)?.ui ?? {}) as {
      csp?: DeclaredCsp;
      permissions?: Record<string, unknown>;
      prefersBorder?: boolean;
    };
    const local = isLocalTransport(actor.config.transport) || actor.config.allowPrivateNetwork === true;
    const csp = buildViewCsp(ui.csp, {
      allowPrivateNetwork: local,
      ...(actor.config.allowLinkLocalHosts ? { allowLinkLocalHosts: actor.config.allowLinkLocalHosts } : {}),
    });
    for (const d of csp.dropped)
      actor.hostLog('warning', `view ${uri}: dropped ${d.field} "${d.origin}": ${d.why}`);
    const requested = VIEW_PERMISSIONS.filter((p) => ui.permissions && p in ui.permissions);
    // Grants are the person's for a configured server, by name; a project folder's server of the same
    // name is another program (a cloned repo may name its server after one the person trusts): its views
    // get no device permission.
    const granted =
      workspace === undefined ? requested.filter((p) => this.granted.get(input.server)?.has(p)) : [];
    const viewId = randomUUID();
    const view: WireAppView = {
      viewId,
      server: input.server,
      tool: input.tool,
      uri,
      html: injectCsp(content.text, csp.policy),
      proxyUrl: sandbox.pageUrl(viewId),
      sandboxOrigin: sandbox.originOf(viewId),
      csp: csp.policy,
      dropped: csp.dropped,
      permissions: { requested, granted },
      allow: granted.map((p) => ALLOW_FEATURE[p]).join('; '),
      ...(ui.prefersBorder !== undefined ? { prefersBorder: ui.prefersBorder === true } : {}),
    };
    this.views.set(viewId, {
      view,
      conversationId: input.conversationId,
      workspace,
      frameAncestor: this.appOrigin,
    });
    while (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
    return view;
  }

  /** The sandbox server's question: the view a page address names. */
  registered(viewId: string): RegisteredView | undefined {
    return this.views.get(viewId);
  }

  /** The user allowed (or took back) what a server's views asked for; views opened from now on get it. */
  setPermissions(server: string, permissions: ViewPermission[]): void {
    this.granted.set(server, new Set(permissions));
  }

  /** What the person answered for each view's calls of its tools for views only. */
  private readonly grants = new ViewToolGrants();
  /** Views' tool calls in flight, each answered at once with a ticket (apps/viewCallTickets.ts). */
  readonly calls = new ViewCallTickets();

  /** Starts `callTool` for a view; its outcome comes by ticket, so no request waits for an approval. */
  startCall(input: { viewId: string; name: string; arguments: Record<string, unknown> }): { ticket: string } {
    this.view(input.viewId);
    return { ticket: this.calls.start(input.viewId, () => this.callTool(input)) };
  }

  /**
   * A view calls a tool of its own server: through the same catalog and gate as the model's calls, labelled
   * as coming from the app, so the approval dialog and the audit log say so. App-only tools are callable
   * here and nowhere else.
   */
  async callTool(input: { viewId: string; name: string; arguments: Record<string, unknown> }) {
    const { view, conversationId, workspace } = this.view(input.viewId);
    const entry = this.entryOf(view.server, input.name, workspace);
    if (!entry || !visibleToApp(entry.handle.definition))
      throw new MooringError(
        'not_found',
        `The view of ${view.server} asked for "${input.name}", which ${view.server} does not offer to views.`,
        'Only tools of the view’s own server that are visible to apps can be called.',
      );
    // A refusal (the person said no, the gate refused) is the tool's failure as the view sees it, not a
    // transport error: the view gets `isError` with the reason.
    const run = (earlier: ViewToolAnswer | undefined) =>
      earlier === 'denied'
        ? Promise.resolve(
            new MooringError(
              'refused',
              `You denied "${input.name}" for this ${view.tool} view.`,
              'Open the view again to be asked again.',
            ),
          )
        : this.deps.tools
            .call(entry, input.arguments, {
              client: `${APP_CLIENT_PREFIX}${view.server}/${view.tool}`,
              ...(conversationId ? { conversationId } : {}),
              ...(workspace ? { workspace } : {}),
              interactive: true,
              fromApp: true,
              // A control in the view is the person's own call: a tool that is off for models is asked about.
              caller: 'person',
              id: randomUUID(),
              ...(earlier === 'allowed'
                ? { preApproved: true, approvedBy: `user (allowed for this ${view.tool} view)` }
                : {}),
            })
            .catch((err: unknown) => {
              if (err instanceof MooringError) return err;
              throw err;
            });
    // A tool for views only is asked about once per view (apps/viewToolGrants.ts); others at every call.
    const outcome = entry.appOnly
      ? await this.grants.run(input.viewId, input.name, run, (o) =>
          o instanceof MooringError
            ? o.code === 'refused'
              ? 'denied'
              : undefined
            : o.decision === 'approve'
              ? 'allowed'
              : undefined,
        )
      : await run(undefined);
    if (outcome instanceof MooringError)
      return { isError: true, content: [{ type: 'text', text: outcome.message }] } satisfies CallToolResult;
    return toCallToolResult(outcome.result);
  }

  /** A view reads a resource of its own server (never another server's). */
  async readResource(input: { viewId: string; uri: string }): Promise<ReadResourceResult> {
    const { view, workspace } = this.view(input.viewId);
    const actor = this.actorOf(view.server, workspace);
    if (!actor)
      throw new MooringError('not_found', `No server "${view.server}".`, 'It may have been removed.');
    return readResource(actor, input.uri);
  }

  /** `ui/message`: a message into the conversation, labelled as from the app, which starts a turn. */
  async message(input: { viewId: string; text: string }): Promise<void> {
    const { view, conversationId } = this.view(input.viewId);
    if (!conversationId)
      throw new MooringError('usage', 'This view is not in a conversation.', 'Open the tool from the chat.');
    await this.deps.sendMessage({
      conversationId,
      text: input.text,
      app: { server: view.server, tool: view.tool },
    });
  }

  /** `ui/update-model-context`: the latest context of each view, given to the model with the next turn. */
  updateContext(input: { viewId: string; text: string }): void {
    const { view, conversationId } = this.view(input.viewId);
    if (!conversationId) return;
    let map = this.contexts.get(conversationId);
    if (!map) this.contexts.set(conversationId, (map = new Map()));
    map.set(`${view.server} (${view.tool} view)`, input.text);
  }

  /** What the conversation's views told the model, one labelled paragraph each. */
  contextFor(conversationId: string): string | undefined {
    const map = this.contexts.get(conversationId);
    if (!map?.size) return undefined;
    return [...map].map(([who, text]) => `Context from the ${who}, not from the user:\n${text}`).join('\n\n');
  }

  /** `ui/open-link` for a page: answers at once with a ticket (apps/viewOpenLink.ts). */
  startOpenLink(input: { viewId: string; url: string }): { ticket: string } {
    const { view } = this.view(input.viewId);
    return { ticket: this.calls.start(input.viewId, () => openLinkForView(this.deps, view, input)) };
  }

  private view(viewId: string): RegisteredView {
    const v = this.views.get(viewId);
    if (!v) throw new MooringError('not_found', 'That view is closed.', 'Open the tool’s result again.');
    return v;
  }
}

export { isAppOnly };
