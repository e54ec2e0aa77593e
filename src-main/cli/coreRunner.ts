// What every command gets: the runner that opens the core for one command (index.ts's `withCore`) and
// the checks a command makes on the servers it started.
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { say, tty } from './terminalText';

type Run = (core: MooringCore) => Promise<number | void>;
export type CoreRunner = (
  fn: Run,
  /** handlesSignals: a long-running service stops itself on SIGINT/SIGTERM and returns (exit 0). */
  opts?: { json?: boolean; workspace?: string; handlesSignals?: boolean },
) => Promise<void>;

/** One warning line per server that did not connect. */
export function warnNotConnected(core: MooringCore): void {
  for (const s of core.servers.statuses())
    if (s.state === 'failed')
      say(tty`warning: ${s.name} is not connected: ${s.error?.message.split('\n')[0] ?? 'failed'}\n`);
}

export function failIfNotReady(core: MooringCore, name: string): void {
  const s = core.servers.statuses().find((x) => x.name === name);
  if (s?.state === 'ready') return;
  const e = s?.error;
  throw new MooringError(e?.code ?? 'connect_failed', e?.message ?? `"${name}" did not connect`, e?.hint);
}
