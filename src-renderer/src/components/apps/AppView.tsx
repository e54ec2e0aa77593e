// An MCP App view of a tool result (extension io.modelcontextprotocol/ui, spec 2026-01-26; docs/mcp-apps.md,
// "MCP Apps"): the sandbox page (another origin) framed here, the view inside it, and the extension's
// host side (`AppBridge` from @modelcontextprotocol/ext-apps) talking to it through a guarded transport.
// Whatever the view asks goes to the core's one apps service; the view can be inline, fullscreen or
// picture-in-picture, and the person can always close it: the text result stays on the card.
import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { AppBridge, type McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Maximize2, Minimize2, PictureInPicture2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { appOfClient, type WireAppView } from '@shared/appViews';
import type { WireToolCallEvent } from '@shared/wire';
import { useTRPC, useTRPCClient } from '../../api/trpc';
import { errorOf } from '../../api/errors';
import { closedViewKey, useClosedViews } from '../../stores/closedViews';
import { Button, Callout, IconButton, cx } from '../../ui';
import { SandboxTransport } from './sandboxTransport';
import { HOST_INFO, MAX_INLINE_HEIGHT } from './hostContext';
import { ToolFeed, type ToolCallState } from './toolFeed';
import { useHostContext } from './useHostContext';
import { ViewMessageGuard } from './viewMessageGuard';
import { ViewCallWaiter } from './viewCalls';
import './apps.css';

export interface AppViewProps {
  server: string;
  tool: string;
  conversationId?: string;
  /** The arguments so far while the model still writes them (`ui/notifications/tool-input-partial`). */
  partialInput?: Record<string, unknown>;
  /** The call's complete arguments, once known (sent to the view as its tool input). */
  input?: Record<string, unknown>;
  /** The tool's result as the model read it, once there is one: its text and structured content. */
  result?: { text: string; structured?: unknown; isError?: boolean };
  /** Why the call ended without a result (stopped, denied, failed): `ui/notifications/tool-cancelled`. */
  cancelled?: string;
  /** A key for this call, so each call's card has its own view. */
  callKey: string;
}

/** The call as the view's feed takes it. */
function callState(p: AppViewProps): ToolCallState {
  const r = p.result;
  return {
    ...(p.partialInput ? { partial: p.partialInput } : {}),
    ...(p.input ? { input: p.input } : {}),
    ...(r
      ? {
          result: {
            content: [{ type: 'text' as const, text: r.text }],
            ...(r.structured !== undefined
              ? { structuredContent: r.structured as Record<string, unknown> }
              : {}),
            ...(r.isError ? { isError: true } : {}),
          },
        }
      : {}),
    ...(p.cancelled !== undefined ? { cancelled: p.cancelled } : {}),
  };
}

const MIN_HEIGHT = 60;

/** The view of a tool result, when its tool has one; nothing otherwise. */
export function AppViewSlot(props: AppViewProps) {
  const trpc = useTRPC();
  const closedKey = closedViewKey(props.conversationId, props.callKey);
  const closed = useClosedViews((s) => s.closed.includes(closedKey));
  const setClosed = (value: boolean) => useClosedViews.getState().setClosed(closedKey, value);
  /** The view on screen: a newer one (its resource changed on the server) replaces it after teardown. */
  const [shown, setShown] = useState<WireAppView>();
  const open = useQuery({
    ...trpc.apps.open.queryOptions({
      server: props.server,
      tool: props.tool,
      ...(props.conversationId ? { conversationId: props.conversationId } : {}),
    }),
    staleTime: Infinity,
    retry: false,
  });
  const current = open.data ?? undefined;
  useEffect(() => {
    if (current && !shown) setShown(current);
  }, [current, shown]);
  if (closed || !shown) {
    const failed = !closed ? errorOf(open.error) : undefined;
    if (failed)
      return (
        <Callout tone="warning" testId="app-view-error" title="The app view could not be shown">
          {failed.message} {failed.hint ? `${failed.hint} ` : ''}The text result is below.
        </Callout>
      );
    return closed ? (
      <Button size="sm" variant="ghost" onClick={() => setClosed(false)} data-testid="app-view-reopen">
        Show the app view
      </Button>
    ) : null;
  }
  return (
    <AppFrame
      key={shown.viewId}
      view={shown}
      {...props}
      {...(current && current.viewId !== shown.viewId ? { replacement: current } : {})}
      onReplaced={(next) => setShown(next)}
      onClose={() => setClosed(true)}
    />
  );
}

/** How long a view may take to answer `ui/resource-teardown` before it is removed anyway. */
const TEARDOWN_WAIT_MS = 3000;

function AppFrame(
  props: AppViewProps & {
    view: WireAppView;
    /** A newer read of the view's resource: this one is torn down and that one shown. */
    replacement?: WireAppView;
    onReplaced: (next: WireAppView) => void;
    onClose: () => void;
  },
) {
  const { view } = props;
  const client = useTRPCClient();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  const [mode, setMode] = useState<McpUiDisplayMode>('inline');
  const [refused, setRefused] = useState(0);
  const [note, setNote] = useState<string>();
  const latest = useRef(props);
  latest.current = props;
  const bridgeRef = useRef<AppBridge>(undefined);
  const feed = useRef(new ToolFeed());
  const [initialized, setInitialized] = useState(false);
  const host = useHostContext({ frame, mode, tool: view.tool });
  const leaving = useRef(false);
  /**
   * The spec's cleanup: the host asks the view to tear down and waits for its answer (bounded) before the
   * frame goes, so the view can save what it holds. A view not yet initialized may not be sent anything.
   */
  const teardown = (then: () => void) => {
    if (leaving.current) return;
    leaving.current = true;
    const bridge = bridgeRef.current;
    if (!bridge || !initialized) return then();
    void bridge
      .teardownResource({}, { timeout: TEARDOWN_WAIT_MS })
      .catch(() => undefined)
      .finally(then);
  };
  const grant = useMutation(
    trpc.apps.setPermissions.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.apps.open.pathKey() }),
    }),
  );

  useEffect(() => {
    const win = frame.current?.contentWindow;
    if (!win) return;
    const guard = new ViewMessageGuard();
    const transport = new SandboxTransport(win, view.sandboxOrigin, guard, () => setRefused((n) => n + 1));
    const bridge = new AppBridge(
      null,
      HOST_INFO,
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {} },
      },
      // The context as the view's frame stands now; what changes before the view is initialized is sent
      // with the rest, once it is (below).
      { hostContext: host.snapshot() },
    );
    const textOf = (content: { type: string; text?: string }[] | undefined) =>
      (content ?? [])
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
    bridge.onsandboxready = () => {
      void bridge.sendSandboxResourceReady({ html: view.html });
    };
    // What the view hears of its call goes from the feed below, once it is initialized (spec: nothing
    // before `ui/notifications/initialized`).
    bridge.oninitialized = () => setInitialized(true);
    // By ticket (viewCalls.ts): the request answers at once, however long the approval takes.
    const calls = new ViewCallWaiter(view.viewId, (ticket) =>
      client.apps.takeCall.mutate({ viewId: view.viewId, ticket }),
    );
    bridge.oncalltool = async (params) => {
      const { ticket } = await client.apps.callTool.mutate({
        viewId: view.viewId,
        name: params.name,
        arguments: (params.arguments ?? {}) as Record<string, unknown>,
      });
      return calls.wait(ticket);
    };
    bridge.onreadresource = async (params) =>
      client.apps.readResource.mutate({ viewId: view.viewId, uri: params.uri });
    bridge.onlistresources = async () => ({ resources: [] });
    bridge.onmessage = async (params) => {
      const text = textOf(params.content as { type: string; text?: string }[]);
      if (!text.trim()) return { isError: true };
      await client.apps.message.mutate({ viewId: view.viewId, text });
      return {};
    };
    bridge.onupdatemodelcontext = async (params) => {
      const text = textOf(params.content as { type: string; text?: string }[] | undefined);
      await client.apps.updateContext.mutate({ viewId: view.viewId, text });
      setNote(`The app gave the model context: ${text.slice(0, 120)}`);
      return {};
    };
    bridge.onopenlink = async (params) => {
      const { ticket } = await client.apps.openLink.mutate({ viewId: view.viewId, url: params.url });
      return (await calls.wait(ticket)).isError ? { isError: true } : {};
    };
    bridge.onrequestdisplaymode = async (params) => {
      setMode(params.mode);
      return { mode: params.mode };
    };
    // A height of 0 before any other is a page with nothing drawn yet (docs/mcp-apps.md, "Sizing"): the
    // frame keeps its height rather than collapse under a view that fills its viewport and draws later. A
    // view that drew and then emptied itself shrinks as before.
    let drawn = false;
    bridge.onsizechange = (params) => {
      if (typeof params.height !== 'number' || !Number.isFinite(params.height)) return;
      if (params.height <= 0 && !drawn) return;
      drawn = true;
      setHeight(Math.max(MIN_HEIGHT, Math.min(MAX_INLINE_HEIGHT, Math.ceil(params.height))));
    };
    bridge.onrequestteardown = () => latest.current && props.onClose();
    bridgeRef.current = bridge;
    void bridge.connect(transport);
    return () => {
      bridgeRef.current = undefined;
      calls.dispose();
      void bridge.close();
    };
    // One bridge per view: a new view (a new id) mounts a new frame.
  }, [view.viewId]);

  // A changed theme, locale, device or frame size, or a new display mode: the bridge sends the view only the
  // fields that changed (`ui/notifications/host-context-changed`), and nothing before it is initialized.
  useEffect(() => {
    if (initialized) bridgeRef.current?.setHostContext(host.context);
  }, [initialized, host.context]);

  // The call's news, in the spec's order, as it arrives (partial input while the model writes, the input,
  // then the result or the cancellation).
  const state = callState(props);
  const stateKey = JSON.stringify(state);
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (!initialized || !bridge) return;
    for (const m of feed.current.next(state)) {
      if (m.method === 'ui/notifications/tool-input-partial') void bridge.sendToolInputPartial(m.params);
      else if (m.method === 'ui/notifications/tool-input') void bridge.sendToolInput(m.params);
      else if (m.method === 'ui/notifications/tool-result') void bridge.sendToolResult(m.params);
      else void bridge.sendToolCancelled(m.params);
    }
    // The state is read through its JSON: a new object with the same content is no news.
  }, [initialized, stateKey]);

  // Escape leaves fullscreen, as a video player's does (keys typed inside the view's frame stay the view's).
  useEffect(() => {
    if (mode !== 'fullscreen') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setMode('inline');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mode]);

  // The server changed the view's resource: the newer read replaces this one after the spec's teardown.
  const replacement = props.replacement;
  useEffect(() => {
    if (replacement) teardown(() => props.onReplaced(replacement));
  }, [replacement?.viewId]);

  const missing = view.permissions.requested.filter((p) => !view.permissions.granted.includes(p));
  return (
    <div
      className={cx('app-view', `app-view-${mode}`)}
      data-testid="app-view"
      data-mode={mode}
      data-server={view.server}
    >
      <div className="app-view-bar">
        <span className="app-view-title" title={view.uri}>
          App view from <strong>{view.server}</strong>
        </span>
        {refused > 0 && (
          <span className="app-view-refused" data-testid="app-view-refused">
            {refused} messages refused
          </span>
        )}
        <IconButton
          label={mode === 'fullscreen' ? 'Exit fullscreen' : 'Fullscreen'}
          onClick={() => setMode(mode === 'fullscreen' ? 'inline' : 'fullscreen')}
          icon={mode === 'fullscreen' ? <Minimize2 size={16} /> : <Maximize2 size={16} />}
        />
        <IconButton
          label={mode === 'pip' ? 'Back into the card' : 'Picture in picture'}
          onClick={() => setMode(mode === 'pip' ? 'inline' : 'pip')}
          icon={<PictureInPicture2 size={16} />}
        />
        <IconButton
          label="Close the app view"
          onClick={() => teardown(props.onClose)}
          data-testid="app-view-close"
          icon={<X size={16} />}
        />
      </div>
      {missing.length > 0 && (
        <Callout
          tone="info"
          testId="app-view-permissions"
          title={`This app asks for: ${missing.join(', ')}`}
          actions={
            <Button
              size="sm"
              onClick={() => grant.mutate({ server: view.server, permissions: view.permissions.requested })}
            >
              Allow for {view.server}
            </Button>
          }
        >
          It gets none of them unless you allow it, for this server.
        </Callout>
      )}
      {view.dropped.length > 0 && (
        <div className="app-view-note" data-testid="app-view-dropped">
          Blocked {view.dropped.length} declared domain{view.dropped.length > 1 ? 's' : ''}:{' '}
          {view.dropped.map((d) => `${d.origin} (${d.why})`).join('; ')}
        </div>
      )}
      {note && <div className="app-view-note">{note}</div>}
      <iframe
        ref={frame}
        className="app-view-frame"
        title={`App view from ${view.server}`}
        src={view.proxyUrl}
        sandbox="allow-scripts allow-same-origin allow-forms"
        allow={view.allow}
        referrerPolicy="no-referrer"
        style={mode === 'inline' ? { height } : undefined}
        data-testid="app-view-frame"
      />
    </div>
  );
}

/**
 * The Playground's call (not a conversation's, nor one a view made): its view, once it is done, from the
 * call's own result.
 */
export function PlaygroundAppView(props: { event: WireToolCallEvent }) {
  const e = props.event;
  if (e.phase !== 'done' || !e.result || e.conversationId || appOfClient(e.client)) return null;
  const text = e.result.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
  return (
    <AppViewSlot
      server={e.server}
      tool={e.tool}
      input={(e.editedArguments ?? e.arguments ?? {}) as Record<string, unknown>}
      result={{ text, ...(e.result.structured !== undefined ? { structured: e.result.structured } : {}) }}
      callKey={e.id}
    />
  );
}
