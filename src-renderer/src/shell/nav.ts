// The sidebar's entries, grouped: what a person does every day first (Chat), then their MCP servers and
// what follows from them, project folders, the tools for trying and debugging, and the settings. Each
// screen's title is its entry's label, so the sidebar and the page header always say the same.
import {
  Activity,
  Bot,
  CalendarClock,
  FolderGit2,
  Layers,
  MessagesSquare,
  PackagePlus,
  ScrollText,
  Server,
  Share2,
  ShieldCheck,
  TestTubeDiagonal,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import type { Route } from '../stores/uiStore';

export interface NavEntry {
  route: Route;
  label: string;
  icon: LucideIcon;
}

export interface NavGroup {
  /** Shown above the group; the first group has none. */
  label?: string;
  entries: NavEntry[];
}

export const NAV: NavGroup[] = [
  { entries: [{ route: 'chat', label: 'Chat', icon: MessagesSquare }] },
  {
    label: 'MCP',
    entries: [
      { route: 'servers', label: 'Servers', icon: Server },
      { route: 'browse', label: 'Browse servers', icon: PackagePlus },
      { route: 'tools', label: 'Tools', icon: Wrench },
      { route: 'toolsets', label: 'Tool sets', icon: Layers },
      { route: 'permissions', label: 'Permissions', icon: ShieldCheck },
      { route: 'logs', label: 'Logs', icon: ScrollText },
    ],
  },
  {
    label: 'Projects',
    entries: [
      { route: 'workspace', label: 'Project folders', icon: FolderGit2 },
      { route: 'schedules', label: 'Schedules', icon: CalendarClock },
    ],
  },
  {
    label: 'Develop',
    entries: [
      { route: 'playground', label: 'Playground', icon: TestTubeDiagonal },
      { route: 'diagnostics', label: 'Diagnostics', icon: Activity },
    ],
  },
  {
    label: 'Settings',
    entries: [
      { route: 'models', label: 'Models', icon: Bot },
      { route: 'sharing', label: 'Sharing', icon: Share2 },
    ],
  },
];

export const labelOf = (route: Route): string =>
  NAV.flatMap((g) => g.entries).find((e) => e.route === route)?.label ?? route;
