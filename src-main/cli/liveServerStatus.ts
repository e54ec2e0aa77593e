// `mooring mcp list`'s status column: the live status of each server in the `mooring web` running on this
// home (web/webInstance.ts, run/web-<pid>.json), the same words its Servers screen shows (shared/session.ts,
// stateText). The CLI holds no sessions of its own for `list`, so with no instance running it says so
// instead of guessing.
import { stateText } from '@shared/session';
import { toErrorData } from '../core/errors';
import { resolveHome } from '../core/home';
import { runningWebInstances, statusFrom, type LiveStatus } from '../core/web/webInstance';

export type ServerStatusSource =
  | { kind: 'web'; pid: number; port: number; servers: LiveStatus['servers'] }
  | { kind: 'none' }
  | { kind: 'unreachable'; pid: number; port: number; error: string };

/** The newest running instance's live status, or why there is none. */
export async function liveServerStatus(env: NodeJS.ProcessEnv = process.env): Promise<ServerStatusSource> {
  const [instance] = await runningWebInstances(resolveHome(env));
  if (!instance) return { kind: 'none' };
  try {
    const { servers } = await statusFrom(instance);
    return { kind: 'web', pid: instance.pid, port: instance.port, servers };
  } catch (err) {
    return { kind: 'unreachable', pid: instance.pid, port: instance.port, error: toErrorData(err).message };
  }
}

/** A configured server's status in the running instance's words; undefined when none is running. */
export function statusWord(source: ServerStatusSource, name: string, enabled: boolean): string | undefined {
  if (source.kind !== 'web') return undefined;
  return stateText(source.servers.find((s) => s.name === name) ?? null, enabled);
}

/** Why a server failed or last broke, in the running instance's words. */
export function statusWhy(source: ServerStatusSource, name: string): string | undefined {
  if (source.kind !== 'web') return undefined;
  const s = source.servers.find((x) => x.name === name);
  return s && s.state !== 'ready' ? s.error?.message.split('\n')[0] : undefined;
}

/** The line under the list that says where the status came from. */
export function statusSourceLine(source: ServerStatusSource): string {
  switch (source.kind) {
    case 'web':
      return `Status: live from the running \`mooring web\` on this home (process ${source.pid}, port ${source.port}), as its Servers screen shows it.`;
    case 'unreachable':
      return `Status: not shown; the running \`mooring web\` (process ${source.pid}, port ${source.port}) did not answer: ${source.error}`;
    case 'none':
      return 'Status: not shown; no `mooring web` runs on this home. `mooring mcp test NAME` connects one server now.';
  }
}
