// `mooring mcp list`'s status column: the live status of each server in the app running on this home (the
// desktop app or `mooring web`), asked over the relay in run/ (core/serve/appStatusQuery.ts), in the words
// its Servers screen shows (shared/session.ts, stateText). The CLI holds no sessions of its own for
// `list`, so with no app running it says so instead of guessing.
import { stateText } from '@shared/session';
import { resolveHome } from '../core/home';
import { askAppStatus, type AppStatusAnswer } from '../core/serve/appStatusQuery';

export type ServerStatusSource = AppStatusAnswer;

/** The running app's live status, or why there is none. */
export function liveServerStatus(env: NodeJS.ProcessEnv = process.env): Promise<ServerStatusSource> {
  return askAppStatus(resolveHome(env), { via: 'mooring mcp list' });
}

/** A configured server's status in the running app's words; undefined when none is running. */
export function statusWord(source: ServerStatusSource, name: string, enabled: boolean): string | undefined {
  if (source.kind !== 'app') return undefined;
  return stateText(source.servers.find((s) => s.name === name) ?? null, enabled);
}

/** Why a server failed or last broke, in the running app's words. */
export function statusWhy(source: ServerStatusSource, name: string): string | undefined {
  if (source.kind !== 'app') return undefined;
  const s = source.servers.find((x) => x.name === name);
  return s && s.state !== 'ready' ? s.error?.message.split('\n')[0] : undefined;
}

/** The line under the list that says where the status came from. */
export function statusSourceLine(source: ServerStatusSource): string {
  switch (source.kind) {
    case 'app':
      return `Status: live from ${source.app} on this home (process ${source.pid}), as its Servers screen shows it.`;
    case 'unreachable':
      return `Status: not shown; the Mooring app running on this home did not answer: ${source.error}`;
    case 'none':
      return 'Status: not shown; no Mooring app (desktop or `mooring web`) runs on this home. `mooring mcp test NAME` connects one server now.';
  }
}
