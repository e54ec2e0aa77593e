// One home directory for everything Mooring keeps (docs/data-on-disk.md, "Data on disk").
// It is the same folder the Electron app uses as its userData dir, so the CLI and the app share state.
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'Mooring';

export function defaultHome(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  if (os === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  if (os === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.MOORING_HOME && env.MOORING_HOME.trim() ? env.MOORING_HOME : defaultHome(env);
}

export const homePaths = (home: string) => ({
  home,
  servers: join(home, 'mcp_servers.json'),
  settings: join(home, 'settings.json'),
  conversations: join(home, 'conversations'),
  logs: join(home, 'logs'),
  audit: join(home, 'logs', 'audit.jsonl'),
});
export type HomePaths = ReturnType<typeof homePaths>;
