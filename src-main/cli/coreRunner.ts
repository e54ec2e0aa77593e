// What every command gets: the runner that opens the core for one command (index.ts's `withCore`) and
// the checks a command makes on the servers it started.
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { say, tty } from './terminalText';

type Run = (core: MooringCore) => Promise<number | void>;
export type CoreRunner = (
  fn: Run,
  /** handlesSignals: a long-running service stops itself on SIGINT/SIGTERM and returns (exit 0). */
  opts?: { json?: boolean; workspace?: string; handlesSignals?: boolean },
) => Promise<void>;

/**
 * The servers this process runs that are not in mcp_servers.json: the quick-config server from
 * MOORING_MCP_SERVER_STDIO / _URL (`env`; ARCHITECTURE.md, "The core, by room": workspace).
 */
export async function quickServers(core: MooringCore): Promise<ServerConfig[]> {
  const inFile = new Set((await core.servers.listMasked()).map((s) => s.name));
  return (await core.servers.configs()).filter((c) => !inFile.has(c.name));
}

/** One warning line per server that did not connect. */
export function warnNotConnected(core: MooringCore): void {
  for (const s of core.servers.statuses())
    if (s.state === 'failed')
      say(tty`warning: ${s.name} is not connected: ${s.error?.message.split('\n')[0] ?? 'failed'}\n`);
}

/**
 * Starts the one server a command needs, after the checks whose refusal names its fix: a server switched
 * off does not run (`mooring mcp enable NAME`); a project folder's server that is not approved as it now
 * reads (new, or edited since) is to be approved again (`mooring mcp approve NAME --workspace DIR`).
 */
export async function startServer(
  core: MooringCore,
  name: string,
  opts: { workspace?: string | undefined; trustForThisRun?: boolean } = {},
): Promise<void> {
  const config = (await core.servers.configs()).find((c) => c.name === name);
  if (!config && opts.workspace) {
    const offered = (await core.workspaces.scan(opts.workspace)).servers.find((s) => s.name === name);
    if (offered && offered.status !== 'approved')
      throw new MooringError(
        'refused',
        offered.status === 'changed'
          ? `"${name}" in ${offered.file} changed since you approved it, so it does not run until you approve it again`
          : `"${name}" (${offered.file}) is not approved for this folder, so it does not run`,
        `Review and approve it: mooring mcp approve ${name} --workspace ${opts.workspace}`,
      );
  }
  if (config?.enabled === false)
    throw new MooringError(
      'refused',
      `"${name}" is disabled, so it does not run`,
      `Switch it on: mooring mcp enable ${name}`,
    );
  await core.startOnly([name], opts.trustForThisRun ? { trustForThisRun: true } : {});
  failIfNotReady(core, name);
}

export function failIfNotReady(core: MooringCore, name: string): void {
  const s = core.servers.statuses().find((x) => x.name === name);
  if (s?.state === 'ready') return;
  const e = s?.error;
  throw new MooringError(e?.code ?? 'connect_failed', e?.message ?? `"${name}" did not connect`, e?.hint);
}
