// The app frame: navigation, the live event stream, the global approval dialog, the current screen.
import { useQuery } from '@tanstack/react-query';
import { useLiveEvents } from './api/useLiveEvents';
import { useTRPC } from './api/trpc';
import { ApprovalDialog } from './components/ApprovalDialog';
import { InteractionDialogs } from './components/dialogs/InteractionDialogs';
import { ChatScreen } from './screens/chat/ChatScreen';
import { DiagnosticsScreen } from './screens/DiagnosticsScreen';
import { BrowseScreen } from './screens/install/BrowseScreen';
import { InstallLinkDialog } from './screens/install/InstallLinkDialog';
import { PlaygroundScreen } from './screens/PlaygroundScreen';
import { ModelsScreen } from './screens/settings/ModelsScreen';
import { WorkspaceScreen } from './screens/WorkspaceScreen';
import { ServersScreen } from './screens/ServersScreen';
import { ToolsScreen } from './screens/ToolsScreen';
import { useUi, type Route } from './stores/uiStore';

const NAV: { route: Route; label: string }[] = [
  { route: 'chat', label: 'Chat' },
  { route: 'servers', label: 'MCP servers' },
  { route: 'browse', label: 'Browse servers' },
  { route: 'workspace', label: 'Project folders' },
  { route: 'tools', label: 'Tool selection' },
  { route: 'playground', label: 'Tools playground' },
  { route: 'diagnostics', label: 'Diagnostics' },
  { route: 'models', label: 'Settings › Models' },
];

export function App() {
  const { route, navigate } = useUi();
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.queryOptions());
  useLiveEvents();
  return (
    <div className="app">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">⚓ Mooring</div>
        <ul className="plain">
          {NAV.map((n) => (
            <li key={n.route}>
              <button
                type="button"
                className={`nav${route === n.route ? ' active' : ''}`}
                aria-current={route === n.route ? 'page' : undefined}
                onClick={() => navigate(n.route)}
              >
                {n.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        {settings.data?.yolo && (
          <div className="banner danger" role="alert">
            YOLO mode is on: every tool call runs without asking you. Turn it off in settings.json.
          </div>
        )}
        {route === 'servers' && <ServersScreen />}
        {route === 'browse' && <BrowseScreen />}
        {route === 'tools' && <ToolsScreen />}
        {route === 'playground' && <PlaygroundScreen />}
        {route === 'diagnostics' && <DiagnosticsScreen />}
        {route === 'chat' && <ChatScreen />}
        {route === 'models' && <ModelsScreen />}
        {route === 'workspace' && <WorkspaceScreen />}
      </main>
      <ApprovalDialog />
      <InteractionDialogs />
      <InstallLinkDialog />
    </div>
  );
}
