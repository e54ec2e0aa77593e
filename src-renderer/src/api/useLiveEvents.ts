// The one live stream: every core event updates the query cache (statuses, tools, logs, approvals),
// the calls store or the live chat, so every screen reads live data without its own subscription and
// without re-reading on a timer. On (re)connect, and after falling behind (`resync`), the core replays the
// state as of now first. One handler per event (liveEvents.ts): the compiler asks for each.
import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useRef } from 'react';
import type { ApprovalRequest } from '@shared/approval';
import type { LogLine } from '@shared/session';
import { viewCallNews } from '../components/apps/viewCalls';
import { chatEventHandlers } from '../screens/chat/liveChat';
import { useCalls } from '../stores/callStore';
import { useResourceUpdates } from '../stores/resourceUpdates';
import { toast } from '../ui';
import type { ServerRow, UiEvent } from '@shared/wire';
import { patchLive, refetchFromNow } from './liveCache';
import { dispatchUiEvent, type UiEventHandlers } from './liveEvents';
import { useTRPC } from './trpc';

const MAX_LOG_LINES = 500;

export function useLiveEvents(): { connected: boolean } {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const apply = useCalls((s) => s.apply);
  const bumpResource = useResourceUpdates((s) => s.bump);
  const pendingInvalidate = useRef<ReturnType<typeof setTimeout> | null>(null);

  const invalidateSoon = () => {
    if (pendingInvalidate.current) return;
    pendingInvalidate.current = setTimeout(() => {
      pendingInvalidate.current = null;
      refetchFromNow(qc, { queryKey: trpc.servers.list.queryKey() });
      refetchFromNow(qc, { queryKey: trpc.tools.list.pathKey() });
      refetchFromNow(qc, { queryKey: trpc.chat.toolsOverview.pathKey() });
      refetchFromNow(qc, { queryKey: trpc.diagnostics.queryKey() });
      // What each ready server offers (the Resources screen) follows its state.
      refetchFromNow(qc, { queryKey: trpc.resources.servers.queryKey() });
    }, 150);
  };

  // A new or resumed stream, or one that fell behind (`resync`): fetch again whatever may have changed,
  // from requests sent after the stream opened (api/liveCache.ts).
  const refetchAll = () => {
    refetchFromNow(qc);
    viewCallNews.reconnected();
  };
  const handlers: UiEventHandlers = {
    connected: refetchAll,
    resync: refetchAll,
    status: (e) => {
      patchLive<ServerRow[]>(qc, trpc.servers.list.queryKey(), (rows) =>
        rows?.map((r) => (r.config.name === e.status.name ? { ...r, status: e.status } : r)),
      );
      invalidateSoon();
    },
    tools: invalidateSoon,
    toolCall: (e) => {
      apply(e.event);
      // A call's end moves the server's metrics.
      if (e.event.phase === 'done' || e.event.phase === 'failed') invalidateSoon();
    },
    serversFile: () => refetchFromNow(qc, { queryKey: trpc.servers.list.queryKey() }),
    log: (e) =>
      patchLive<LogLine[]>(qc, trpc.servers.logs.queryKey({ name: e.line.server }), (lines) =>
        lines ? [...lines, e.line].slice(-MAX_LOG_LINES) : lines,
      ),
    approval: (e) =>
      patchLive<ApprovalRequest[]>(qc, trpc.approvals.pending.queryKey(), (list) =>
        list?.some((r) => r.id === e.request.id) ? list : [...(list ?? []), e.request],
      ),
    approvalResolved: (e) =>
      patchLive<ApprovalRequest[]>(qc, trpc.approvals.pending.queryKey(), (list) =>
        list?.filter((r) => r.id !== e.id),
      ),
    appViewUpdated: (e) =>
      // An MCP App view's resource changed on its server: open views of that resource read it again
      // (docs/decisions/005-app-view-updates.md); views of other resources stay as they are.
      refetchFromNow(qc, {
        queryKey: trpc.apps.open.pathKey(),
        predicate: (q) => {
          const view = q.state.data as { server?: string; uri?: string } | null | undefined;
          return view?.server === e.server && view.uri === e.uri;
        },
      }),
    // A view's tool call ended: its view takes the outcome (components/apps/viewCalls.ts).
    appCallDone: (e) => viewCallNews.done(e),
    // The install consent screen reads the list; the event says it changed.
    installLink: () => refetchFromNow(qc, { queryKey: trpc.install.pending.queryKey() }),
    resourceUpdated: (e) => bumpResource(e.server, e.uri),
    listChanged: (e) => {
      // A server's resources or prompts changed: the lists that show them are fetched again.
      if (e.what === 'prompts') refetchFromNow(qc, { queryKey: trpc.chat.prompts.queryKey() });
      else {
        refetchFromNow(qc, { queryKey: trpc.resources.list.queryKey({ server: e.server }) });
        refetchFromNow(qc, { queryKey: trpc.resources.templates.queryKey({ server: e.server }) });
      }
    },
    schedule: (e) => {
      // The Schedules screen reads its lists again; a run is also a conversation in the chat's list.
      if (e.event.type === 'notify') {
        // In the desktop app the shell shows an OS notification (electron/attentionNotifier.ts).
        if (!('mooring' in window)) toast({ title: e.event.title, description: e.event.body });
        return;
      }
      refetchFromNow(qc, { queryKey: trpc.schedules.pathKey() });
      if (e.event.type === 'run') refetchFromNow(qc, { queryKey: trpc.chat.conversations.queryKey() });
    },
    // Chat streams and server interactions (sampling, elicitation): screens/chat/liveChat.ts.
    ...chatEventHandlers(qc, trpc),
  };
  const onData = (e: UiEvent) => dispatchUiEvent(handlers, e);

  const sub = useSubscription(trpc.events.subscriptionOptions(undefined, { onData }));
  return { connected: sub.status === 'pending' };
}
