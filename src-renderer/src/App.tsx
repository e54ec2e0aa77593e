// The app frame: the sidebar, the live event stream, the global approval dialog, toasts, the current screen.
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, type ComponentType } from 'react';
import { useLiveEvents } from './api/useLiveEvents';
import { useTRPC } from './api/trpc';
import { ApprovalDialog } from './components/ApprovalDialog';
import { InteractionDialogs } from './components/dialogs/InteractionDialogs';
import { ModelNeededNote } from './components/ModelNeeded';
import { InstallLinkDialog } from './screens/install/InstallLinkDialog';
import {
  AppearanceScreen,
  BrowseScreen,
  ChatScreen,
  DiagnosticsScreen,
  LimitsScreen,
  LogsScreen,
  ModelsScreen,
  PermissionsScreen,
  PlaygroundScreen,
  ResourcesScreen,
  SchedulesScreen,
  ServersScreen,
  SharingScreen,
  SkillsScreen,
  ToolSetsScreen,
  ToolsScreen,
  WorkspaceScreen,
  preloadScreens,
} from './screens/lazyScreens';
import { MAIN_ID } from './shell/mainRegion';
import { Sidebar } from './shell/Sidebar';
import { useTheme } from './shell/theme';
import type { Route } from './shell/screens';
import { useUi } from './stores/uiStore';
import { Callout, Toaster, TooltipProvider } from './ui';

/** Each screen's view, by its route (shell/screens.ts declares the screens; the compiler wants every one). */
const VIEWS: Record<Route, ComponentType> = {
  chat: ChatScreen,
  servers: ServersScreen,
  browse: BrowseScreen,
  tools: ToolsScreen,
  resources: ResourcesScreen,
  skills: SkillsScreen,
  toolsets: ToolSetsScreen,
  permissions: PermissionsScreen,
  logs: LogsScreen,
  workspace: WorkspaceScreen,
  schedules: SchedulesScreen,
  playground: PlaygroundScreen,
  diagnostics: DiagnosticsScreen,
  models: ModelsScreen,
  limits: LimitsScreen,
  appearance: AppearanceScreen,
  sharing: SharingScreen,
};

export function App() {
  const route = useUi((s) => s.route);
  const View = VIEWS[route];
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.queryOptions());
  useLiveEvents();
  useTheme();
  // The other screens' code is read once the first one shows, in an idle moment (lazyScreens.ts).
  useEffect(() => {
    const id = requestIdleCallback(preloadScreens, { timeout: 5_000 });
    return () => cancelIdleCallback(id);
  }, []);
  return (
    <TooltipProvider>
      <div className="app">
        {/* The first tab stop: past the sidebar to the page (hash links are routes here, hence the focus). */}
        <a
          className="skip-link"
          href={`#${MAIN_ID}`}
          onClick={(e) => {
            e.preventDefault();
            document.getElementById(MAIN_ID)?.focus();
          }}
        >
          Skip to content
        </a>
        <Sidebar />
        <main id={MAIN_ID} tabIndex={-1} className={route === 'chat' ? 'content content-full' : 'content'}>
          {settings.data?.yolo && (
            <Callout tone="danger" role="alert" title="YOLO mode is on">
              Every tool call runs without asking you, except a tool that changed since Mooring first saw it.
              Turn it off in settings.json.
            </Callout>
          )}
          {route === 'servers' && <ModelNeededNote />}
          <Suspense fallback={null}>
            <View />
          </Suspense>
        </main>
      </div>
      {/* Outside the shell's grid: the toast region is an element of its own and would take a grid row. */}
      <ApprovalDialog />
      <InteractionDialogs />
      <InstallLinkDialog />
      <Toaster />
    </TooltipProvider>
  );
}
