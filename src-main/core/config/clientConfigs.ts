// Where other MCP clients keep their server configs, per platform, as each documents it — Claude Desktop,
// Claude Code, Cursor, VS Code, Windsurf, Zed, Goose, Continue, LM Studio — and which of those files exist
// on this machine. Detection only: reading a file's servers is importFormats.ts's job (a file it cannot
// read is still found and named, with why). Cherry Studio has no file to find: its servers are exported.
import { stat } from 'node:fs/promises';
import { posix, win32 } from 'node:path';

export type ClientId =
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'zed'
  | 'goose'
  | 'continue'
  | 'lm-studio';

export interface ClientLocation {
  client: ClientId;
  /** The app's name as people know it. */
  label: string;
  path: string;
}

export interface ClientEnvironment {
  platform: NodeJS.Platform;
  home: string;
  env: Record<string, string | undefined>;
}

export const CLIENT_LABELS: Record<ClientId, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
  zed: 'Zed',
  goose: 'Goose',
  continue: 'Continue',
  'lm-studio': 'LM Studio',
};

/** Every documented location for this platform, whether or not the file exists. */
export function clientConfigLocations(e: ClientEnvironment): ClientLocation[] {
  const p = e.platform === 'win32' ? win32 : posix;
  const home = e.home;
  const at = (client: ClientId, ...parts: string[]): ClientLocation => ({
    client,
    label: CLIENT_LABELS[client],
    path: p.join(...parts),
  });
  // Per-user app folders: macOS Application Support, Windows %APPDATA%, Linux $XDG_CONFIG_HOME.
  let appData: string;
  let zed: string;
  let goose: string;
  if (e.platform === 'darwin') {
    appData = p.join(home, 'Library', 'Application Support');
    zed = p.join(home, '.config', 'zed');
    goose = p.join(home, '.config', 'goose');
  } else if (e.platform === 'win32') {
    appData = e.env.APPDATA || p.join(home, 'AppData', 'Roaming');
    zed = p.join(appData, 'Zed');
    goose = p.join(appData, 'Block', 'goose', 'config');
  } else {
    appData = e.env.XDG_CONFIG_HOME || p.join(home, '.config');
    zed = p.join(appData, 'zed');
    goose = p.join(appData, 'goose');
  }
  return [
    at('claude-desktop', appData, 'Claude', 'claude_desktop_config.json'),
    at('claude-code', home, '.claude.json'),
    at('cursor', home, '.cursor', 'mcp.json'),
    at('vscode', appData, 'Code', 'User', 'mcp.json'),
    at('vscode', appData, 'Code', 'User', 'settings.json'),
    at('windsurf', home, '.codeium', 'windsurf', 'mcp_config.json'),
    at('zed', zed, 'settings.json'),
    at('goose', goose, 'config.yaml'),
    // Continue keeps its config in ~/.continue on every platform (%USERPROFILE%\.continue on Windows);
    // config.json is the older format, still read.
    at('continue', home, '.continue', 'config.yaml'),
    at('continue', home, '.continue', 'config.json'),
    at('lm-studio', home, '.lmstudio', 'mcp.json'),
  ];
}

/** The locations whose file exists on this machine (a regular file, readable or not). */
export async function findClientConfigs(e: ClientEnvironment): Promise<ClientLocation[]> {
  const all = clientConfigLocations(e);
  const found = await Promise.all(
    all.map((l) =>
      stat(l.path).then(
        (s) => s.isFile(),
        () => false,
      ),
    ),
  );
  return all.filter((_, i) => found[i]);
}
