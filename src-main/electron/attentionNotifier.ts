// OS notifications for requests that need the user (desktopNotifications.ts decides when and what): a click
// brings the window back, where the approval or interaction dialog is already open (the renderer shows
// every pending request on load). The core's events are the source; this only listens.
import { Notification } from 'electron';
import type { ApprovalRequest } from '@shared/approval';
import type { Interaction } from '@shared/interactions';
import type { ScheduleEvent } from '@shared/schedules';
import type { MooringCore } from '../core/mooringCore';
import { notificationFor, type Attention, type WindowFacts } from './desktopNotifications';

export interface AttentionNotifierOptions {
  core: MooringCore;
  windowFacts(): WindowFacts;
  showWindow(): void;
  icon?: string;
}

/** Starts listening; returns the stop. */
export function startAttentionNotifier(o: AttentionNotifierOptions): () => void {
  const shown = new Set<Notification>();
  const notify = (attention: Attention) => {
    if (!Notification.isSupported()) return;
    const content = notificationFor(attention, o.windowFacts());
    if (!content) return;
    const n = new Notification({ ...content, ...(o.icon ? { icon: o.icon } : {}) });
    // Kept referenced until closed, or the click handler can be collected with it.
    shown.add(n);
    n.on('click', () => o.showWindow());
    n.on('close', () => shown.delete(n));
    n.show();
  };
  const onApproval = (request: ApprovalRequest) => notify({ kind: 'approval', request });
  const onInteraction = (request: Interaction) => notify({ kind: 'interaction', request });
  const onSchedule = (e: ScheduleEvent) => {
    if (e.type === 'notify') notify({ kind: 'schedule', title: e.title, body: e.body });
  };
  const subscriptions = [
    o.core.on('approval', onApproval),
    o.core.on('interaction', onInteraction),
    o.core.on('schedule', onSchedule),
  ];
  return () => {
    for (const s of subscriptions) void s.dispose();
    for (const n of shown) n.close();
    shown.clear();
  };
}
