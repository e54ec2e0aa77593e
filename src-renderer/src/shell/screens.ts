// Every screen, declared once (ARCHITECTURE.md, "Adding a transport, a screen or a live event"): its route
// (the URL's `#/route`), its title — the sidebar's label, the page's heading, and the name the end-to-end
// tests open it by — and where the sidebar lists it, with its icon. uiStore's ROUTES, the sidebar's NAV
// (nav.ts), App.tsx's screens (a table the compiler holds to these routes) and e2e/uiFlows.ts's SCREENS
// derive from this list, in this order.
import {
  Activity,
  BookOpenCheck,
  Bot,
  CalendarClock,
  FileText,
  FolderGit2,
  Layers,
  MessagesSquare,
  PackagePlus,
  Palette,
  ScrollText,
  Server,
  Share2,
  ShieldCheck,
  SlidersHorizontal,
  TestTubeDiagonal,
  Wrench,
  type LucideIcon,
} from 'lucide-react';

/** The sidebar's groups, in order; the first has no label. */
export const NAV_GROUPS = ['', 'MCP', 'Projects', 'Develop', 'Settings'] as const;

export interface Screen {
  route: string;
  title: string;
  group: (typeof NAV_GROUPS)[number];
  icon: LucideIcon;
}

export const SCREENS = [
  { route: 'chat', title: 'Chat', group: '', icon: MessagesSquare },
  { route: 'servers', title: 'Servers', group: 'MCP', icon: Server },
  { route: 'browse', title: 'Browse servers', group: 'MCP', icon: PackagePlus },
  { route: 'tools', title: 'Tools', group: 'MCP', icon: Wrench },
  { route: 'resources', title: 'Resources', group: 'MCP', icon: FileText },
  { route: 'skills', title: 'Skills', group: 'MCP', icon: BookOpenCheck },
  { route: 'toolsets', title: 'Tool sets', group: 'MCP', icon: Layers },
  { route: 'permissions', title: 'Permissions', group: 'MCP', icon: ShieldCheck },
  { route: 'logs', title: 'Logs', group: 'MCP', icon: ScrollText },
  { route: 'workspace', title: 'Project folders', group: 'Projects', icon: FolderGit2 },
  { route: 'schedules', title: 'Schedules', group: 'Projects', icon: CalendarClock },
  { route: 'playground', title: 'Playground', group: 'Develop', icon: TestTubeDiagonal },
  { route: 'diagnostics', title: 'Diagnostics', group: 'Develop', icon: Activity },
  { route: 'models', title: 'Models', group: 'Settings', icon: Bot },
  { route: 'limits', title: 'Limits', group: 'Settings', icon: SlidersHorizontal },
  { route: 'appearance', title: 'Appearance', group: 'Settings', icon: Palette },
  { route: 'sharing', title: 'Sharing', group: 'Settings', icon: Share2 },
] as const satisfies readonly Screen[];

export type Route = (typeof SCREENS)[number]['route'];

/** A screen's title: its sidebar label and its page heading. */
export const titleOf = (route: Route): string => SCREENS.find((s) => s.route === route)!.title;
