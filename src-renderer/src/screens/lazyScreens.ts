// Every screen, each loaded when it is first shown (docs/decisions/008-renderer-build.md): the first window
// reads the shell and the screen it opens on, not the others' libraries (the chat's Markdown, KaTeX and
// highlight.js, MCP App views, the playground's forms). Like the core's lazy.ts files
// (docs/decisions/003-lazy-rooms.md), this is the one renderer file that may call import(), and each names
// a screen module of this folder literally, so readers and the layering checks see every dependency.
import { lazy, type ComponentType } from 'react';

const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => {
  const loader = () => load().then((m) => ({ default: m[name] }));
  return Object.assign(lazy(loader), { preload: loader });
};

export const ServersScreen = screen(() => import('./ServersScreen'), 'ServersScreen');
export const BrowseScreen = screen(() => import('./install/BrowseScreen'), 'BrowseScreen');
export const ToolsScreen = screen(() => import('./ToolsScreen'), 'ToolsScreen');
export const ResourcesScreen = screen(() => import('./ResourcesScreen'), 'ResourcesScreen');
export const SkillsScreen = screen(() => import('./skills/SkillsScreen'), 'SkillsScreen');
export const ToolSetsScreen = screen(() => import('./ToolSetsScreen'), 'ToolSetsScreen');
export const PermissionsScreen = screen(() => import('./PermissionsScreen'), 'PermissionsScreen');
export const LogsScreen = screen(() => import('./LogsScreen'), 'LogsScreen');
export const PlaygroundScreen = screen(() => import('./PlaygroundScreen'), 'PlaygroundScreen');
export const DiagnosticsScreen = screen(() => import('./DiagnosticsScreen'), 'DiagnosticsScreen');
export const ChatScreen = screen(() => import('./chat/ChatScreen'), 'ChatScreen');
export const ModelsScreen = screen(() => import('./settings/ModelsScreen'), 'ModelsScreen');
export const LimitsScreen = screen(() => import('./settings/LimitsScreen'), 'LimitsScreen');
export const AppearanceScreen = screen(() => import('./settings/AppearanceScreen'), 'AppearanceScreen');
export const SharingScreen = screen(() => import('./SharingScreen'), 'SharingScreen');
export const WorkspaceScreen = screen(() => import('./WorkspaceScreen'), 'WorkspaceScreen');
export const SchedulesScreen = screen(() => import('./schedules/SchedulesScreen'), 'SchedulesScreen');

/**
 * Loads every screen's code, for an idle moment after the first screen shows: a screen opened later then
 * shows at once (its modules are already read and compiled).
 */
export function preloadScreens(): void {
  for (const s of [ChatScreen, ToolsScreen, ServersScreen, PlaygroundScreen, ResourcesScreen, LogsScreen])
    void s.preload().catch(() => undefined);
}
