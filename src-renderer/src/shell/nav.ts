// The sidebar's entries, grouped (screens.ts declares them): what a person does every day first (Chat), then
// their MCP servers and what follows from them, project folders, the tools for trying and debugging, and the
// settings. Each screen's title is its entry's label, so the sidebar and the page header always say the same.
import type { LucideIcon } from 'lucide-react';
import { NAV_GROUPS, SCREENS, type Route } from './screens';

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

export const NAV: NavGroup[] = NAV_GROUPS.map((group) => ({
  ...(group ? { label: group } : {}),
  entries: SCREENS.filter((s) => s.group === group).map((s) => ({
    route: s.route,
    label: s.title,
    icon: s.icon,
  })),
}));
