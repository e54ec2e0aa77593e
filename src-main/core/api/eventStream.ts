// The one live stream to the UI (ARCHITECTURE.md, the `api/` room): session states, tool changes, tool-call lifecycle, logs and
// approval requests, merged into a single subscription. One stream, not five: a browser allows only
// six HTTP/1.1 connections per host, and five SSE streams plus a call waiting for approval plus the
// approval's answer would be seven, a deadlock. A UI that connects or reconnects first gets the state
// as of now (sessions, each recent call's latest state), then every change: a snapshot plus deltas, so
// it heals without polling.
import type { ApprovalRequest } from '@shared/approval';
import type { ChatEvent } from '@shared/chat';
import type { Interaction, InteractionResolved } from '@shared/interactions';
import type { ScheduleEvent } from '@shared/schedules';
import type { LogLine, SessionStatus } from '@shared/session';
import type { MooringCore } from '../mooringCore';
import type { InstallLinkOffer } from '@shared/install';
import type { ToolsChange } from '@shared/session';
import type { TurnState, UiEvent } from '@shared/wire';
import type { ToolCallEvent } from '@shared/toolCall';
import type { ApprovalResolved } from '../safety/approvalBroker';
import { toWireEvent } from './wire';

/** Yields every core event as a UiEvent until `signal` aborts. Buffers while the consumer is busy. */
export async function* uiEvents(core: MooringCore, signal?: AbortSignal): AsyncGenerator<UiEvent> {
  const queue: UiEvent[] = [];
  let wake: (() => void) | undefined;
  const push = (e: UiEvent) => {
    queue.push(e);
    wake?.();
  };
  const onStatus = (status: SessionStatus) => push({ type: 'status', status });
  const onTools = (change: ToolsChange) => push({ type: 'tools', change });
  const onCall = (e: ToolCallEvent) => push({ type: 'toolCall', event: toWireEvent(e) });
  const onLog = (line: LogLine) => push({ type: 'log', line });
  const onApproval = (request: ApprovalRequest) => push({ type: 'approval', request });
  const onResolved = (r: ApprovalResolved) =>
    push({
      type: 'approvalResolved',
      id: r.request.id,
      ...(r.decision ? { outcome: r.decision.outcome } : {}),
      ...(r.error ? { error: r.error.message } : {}),
    });
  const onInteraction = (request: Interaction) => push({ type: 'interaction', request });
  const onInteractionResolved = (r: InteractionResolved) =>
    push({ type: 'interactionResolved', id: r.request.id, ...(r.error ? { error: r.error.message } : {}) });
  const chat = core.chat;
  const onChat = (event: ChatEvent) => push({ type: 'chat', event });
  const onTurn = (turn: TurnState) => push({ type: 'turn', turn });
  const onInstallLink = (offer: InstallLinkOffer) => push({ type: 'installLink', offer });
  const onResourceUpdated = (u: { server: string; uri: string }) => push({ type: 'resourceUpdated', ...u });
  const onListChanged = (c: { server: string; what: 'resources' | 'prompts' }) =>
    push({ type: 'listChanged', ...c });
  const onSchedule = (event: ScheduleEvent) => push({ type: 'schedule', event });
  // One list of subscriptions, so every `on` has its `off` (a forgotten one would leak a listener per UI).
  const subscriptions: Array<[{ off(e: string, f: never): unknown }, string, never]> = [];
  const listen = <E extends { on(e: string, f: never): unknown; off(e: string, f: never): unknown }>(
    emitter: E,
    event: string,
    handler: unknown,
  ) => {
    emitter.on(event, handler as never);
    subscriptions.push([emitter, event, handler as never]);
  };
  listen(core, 'status', onStatus);
  listen(core, 'interaction', onInteraction);
  listen(core.interactions, 'resolved', onInteractionResolved);
  listen(chat, 'chat', onChat);
  listen(chat, 'turn', onTurn);
  listen(core, 'tools', onTools);
  listen(core.tools, 'toolCall', onCall);
  listen(core, 'log', onLog);
  listen(core, 'serversFile', (c: { ok: boolean }) => push({ type: 'serversFile', ok: c.ok }));
  listen(core, 'approval', onApproval);
  listen(core.approvals, 'resolved', onResolved);
  listen(core.installLinks, 'offer', onInstallLink);
  listen(core, 'resourceUpdated', onResourceUpdated);
  listen(core, 'listChanged', onListChanged);
  listen(core.schedules, 'event', onSchedule);
  listen(core.apps, 'updated', (u: { server: string; uri: string }) =>
    push({ type: 'appViewUpdated', ...u }),
  );
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    yield { type: 'connected' };
    // The state as of now, so a UI that connects late (or reconnects) starts from the truth. Events
    // queued meanwhile follow; the UI drops a call's event that is not newer than what it holds (`seq`).
    for (const status of core.servers.statuses()) yield { type: 'status', status };
    for (const call of core.tools.snapshot()) yield { type: 'toolCall', event: toWireEvent(call) };
    while (!signal?.aborted) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    for (const [emitter, event, handler] of subscriptions) emitter.off(event, handler);
  }
}
