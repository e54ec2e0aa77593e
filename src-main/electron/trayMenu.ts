// The optional tray / menu-bar icon: the servers' states at a glance, and a way back to the window, so
// Mooring keeps its servers (and the approval relay `mooring serve` uses) running with the window closed.
// Pure template and tooltip, tested without Electron.
import type { MenuItemConstructorOptions } from 'electron';
import type { SessionState, SessionStatus } from '@shared/session';
import { plainText } from './desktopNotifications';

const ORDER: SessionState[] = ['failed', 'reconnecting', 'connecting', 'ready', 'idle', 'closed'];
const MARK: Record<SessionState, string> = {
  ready: '●',
  connecting: '◌',
  reconnecting: '◌',
  failed: '✕',
  idle: '○',
  closed: '○',
};

/** "Mooring: 3 ready, 1 failed" (states in order of urgency); "Mooring: no servers" when empty. */
export function trayTooltip(statuses: SessionStatus[]): string {
  if (statuses.length === 0) return 'Mooring: no servers';
  const counts = new Map<SessionState, number>();
  for (const s of statuses) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  const parts = ORDER.filter((st) => counts.has(st)).map((st) => `${counts.get(st)} ${st}`);
  return `Mooring: ${parts.join(', ')}`;
}

export interface TrayMenuOptions {
  statuses: SessionStatus[];
  onShow(): void;
  onHideTray(): void;
  onQuit(): void;
}

const MAX_LISTED = 20;

export function trayMenuTemplate(o: TrayMenuOptions): MenuItemConstructorOptions[] {
  const sorted = [...o.statuses].sort(
    (a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state) || a.name.localeCompare(b.name),
  );
  const servers: MenuItemConstructorOptions[] = sorted.slice(0, MAX_LISTED).map((s) => ({
    label: `${MARK[s.state]} ${plainText(s.name, 64)}: ${s.state}${s.state === 'ready' ? ` (${s.toolCount} tools)` : ''}`,
    enabled: false,
  }));
  if (sorted.length > MAX_LISTED)
    servers.push({ label: `… and ${sorted.length - MAX_LISTED} more`, enabled: false });
  if (servers.length === 0) servers.push({ label: 'No servers configured', enabled: false });
  return [
    { label: 'Open Mooring', click: () => o.onShow() },
    { type: 'separator' },
    ...servers,
    { type: 'separator' },
    { label: 'Hide This Icon', click: () => o.onHideTray() },
    { label: 'Quit Mooring', click: () => o.onQuit() },
  ];
}
