// When Mooring needs the user while they look elsewhere (an approval, a sampling request, a form or link a
// server asks for), the OS shows a notification; clicking it brings the window back with the dialog open.
// Only while the window is hidden, minimized or unfocused: in front of the user the dialog speaks for
// itself. Pure, so the decision is tested without Electron.
import type { ApprovalRequest } from '@shared/approval';
import type { Interaction } from '@shared/interactions';
import { UNSAFE_CHARS } from '@shared/untrustedText';

const UNSAFE_RUN = new RegExp(`${UNSAFE_CHARS.source}+`, 'gu');

export interface WindowFacts {
  /** False when there is no window (closed to the tray). */
  exists: boolean;
  visible: boolean;
  minimized: boolean;
  focused: boolean;
}

export type Attention =
  | { kind: 'approval'; request: ApprovalRequest }
  | { kind: 'interaction'; request: Interaction }
  /** A scheduled run ended (core.schedules' `notify` event): its title and summary came from a model. */
  | { kind: 'schedule'; title: string; body: string };

export interface NotificationContent {
  title: string;
  body: string;
}

/**
 * Server names and tool titles are untrusted: one line, bounded, without the characters
 * shared/untrustedText.ts names (a notification shows no escapes, so they become spaces).
 */
export function plainText(text: string, max = 120): string {
  const one = text.replace(UNSAFE_RUN, ' ').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function needsNotification(w: WindowFacts): boolean {
  return !w.exists || !w.visible || w.minimized || !w.focused;
}

/** The notification to show, or null when the window is in front of the user. */
export function notificationFor(attention: Attention, w: WindowFacts): NotificationContent | null {
  if (!needsNotification(w)) return null;
  if (attention.kind === 'schedule')
    return { title: plainText(attention.title, 80), body: plainText(attention.body, 200) };
  const server = plainText(attention.request.server, 60);
  if (attention.kind === 'approval') {
    const tool = plainText(attention.request.friendlyName || attention.request.tool, 80);
    return {
      title: 'Mooring: approval needed',
      body: `${server} wants to run “${tool}”. Click to review it.`,
    };
  }
  switch (attention.request.kind) {
    case 'sampling':
      return {
        title: 'Mooring: a server asks your model',
        body: `${server} asks to use your model. Click to review it.`,
      };
    case 'elicitation-form':
      return {
        title: 'Mooring: a server asks you',
        body: `${server}: ${plainText(attention.request.message)}`,
      };
    case 'elicitation-url':
      return {
        title: 'Mooring: a server asks you to open a link',
        body: `${server} asks you to open a page on ${plainText(attention.request.host, 80)}. Click to review it.`,
      };
  }
}
